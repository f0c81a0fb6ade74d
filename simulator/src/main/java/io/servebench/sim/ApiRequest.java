package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A completion request as the engine understands it, parsed and checked from the JSON body of
 * {@code /v1/chat/completions} or {@code /v1/completions}.
 *
 * @param chat            whether it came through the chat API
 * @param model           the {@code model} field, {@code null} when absent
 * @param promptTokens    prompt tokens: for chat, the messages' text plus the chat template's fixed cost
 *                        ({@value #TEMPLATE_TOKENS_PER_MESSAGE} per message and {@value #TEMPLATE_REPLY_TOKENS} to open the reply)
 * @param blockHashes     cumulative hash of each full page of the prompt ({@link SimDialect#cachePageTokens()} tokens)
 * @param maxTokens       {@code max_tokens} ({@code max_completion_tokens} for chat), {@code null} when absent
 * @param minTokens       {@code min_tokens}, 0 when absent
 * @param ignoreEos       {@code ignore_eos}
 * @param stream          {@code stream}
 * @param includeUsage    {@code stream_options.include_usage}
 * @param continuousUsage {@code stream_options.continuous_usage_stats}
 */
record ApiRequest(
        boolean chat,
        String model,
        int promptTokens,
        long[] blockHashes,
        Integer maxTokens,
        int minTokens,
        boolean ignoreEos,
        boolean stream,
        boolean includeUsage,
        boolean continuousUsage) {

    /** Chat-template tokens around each message: {@code <|im_start|>}, the role, a newline, {@code <|im_end|>}. */
    static final int TEMPLATE_TOKENS_PER_MESSAGE = 4;
    /** Chat-template tokens that open the assistant's reply: {@code <|im_start|>assistant\n}. */
    static final int TEMPLATE_REPLY_TOKENS = 3;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Parses and checks a request body.
     *
     * @throws ApiError 400 for malformed JSON, missing or ill-typed fields, {@code max_tokens < 1},
     *                  {@code min_tokens > max_tokens}, stream options without streaming, or a prompt plus
     *                  output longer than {@code maxModelLen}; 404 for a model other than {@code servedModel}
     */
    static ApiRequest parse(byte[] body, boolean chat, SimTokenizer tokenizer, String servedModel, int maxModelLen,
                            SimDialect dialect)
            throws ApiError {
        JsonNode root = object(body);
        String model = null;
        JsonNode m = root.get("model");
        if (m != null && !m.isNull()) {
            if (!m.isTextual()) {
                throw ApiError.badRequest("'model' must be a string");
            }
            model = m.asText();
            if (!model.equals(servedModel)) {
                throw ApiError.notFound("The model `" + model + "` does not exist; this server serves `" + servedModel + "`.");
            }
        }
        List<String> tokens = new ArrayList<>();
        int promptTokens = chat ? chatPrompt(root, tokenizer, tokens) : completionPrompt(root, tokenizer, tokens);
        Integer maxTokens = optionalInt(root, chat && root.has("max_completion_tokens") ? "max_completion_tokens" : "max_tokens");
        if (maxTokens != null && maxTokens < 1) {
            throw ApiError.badRequest("max_tokens must be at least 1, got " + maxTokens);
        }
        Integer min = optionalInt(root, "min_tokens");
        int minTokens = min == null ? 0 : min;
        if (minTokens < 0) {
            throw ApiError.badRequest("min_tokens must be greater than or equal to 0, got " + minTokens);
        }
        if (maxTokens != null && minTokens > maxTokens) {
            throw ApiError.badRequest("min_tokens must be less than or equal to max_tokens=" + maxTokens + ", got " + minTokens);
        }
        String tooLong = dialect.contextProblem(promptTokens, maxTokens, maxModelLen);
        if (tooLong != null) {
            throw ApiError.badRequest(tooLong);
        }
        boolean stream = optionalBoolean(root, "stream", "stream");
        boolean includeUsage = false;
        boolean continuousUsage = false;
        JsonNode options = root.get("stream_options");
        if (options != null && !options.isNull()) {
            if (!stream) {
                throw ApiError.badRequest("Stream options can only be defined when `stream=True`.");
            }
            if (!options.isObject()) {
                throw ApiError.badRequest("'stream_options' must be an object");
            }
            includeUsage = optionalBoolean(options, "include_usage", "stream_options.include_usage");
            continuousUsage = optionalBoolean(options, "continuous_usage_stats", "stream_options.continuous_usage_stats");
        }
        boolean ignoreEos = optionalBoolean(root, "ignore_eos", "ignore_eos");
        return new ApiRequest(chat, model, promptTokens, blockHashes(tokens, dialect.cachePageTokens()), maxTokens, minTokens, ignoreEos, stream,
                includeUsage, continuousUsage);
    }

    /**
     * The prompt tokens of a {@code /tokenize} body, as vLLM's and SGLang's take it: {@code {"prompt": "..."}} or
     * {@code {"messages": [...]}} (with the chat template, as a chat request counts them); the same count a
     * completion or chat request with that prompt reports in {@code usage.prompt_tokens}.
     *
     * @throws ApiError 400 for a body without a prompt or messages, 404 for a model other than {@code servedModel}
     */
    static int tokenize(byte[] body, SimTokenizer tokenizer, String servedModel) throws ApiError {
        JsonNode root = object(body);
        JsonNode m = root.get("model");
        if (m != null && m.isTextual() && !m.asText().equals(servedModel)) {
            throw ApiError.notFound("The model `" + m.asText() + "` does not exist; this server serves `" + servedModel + "`.");
        }
        List<String> tokens = new ArrayList<>();
        return root.has("messages") ? chatPrompt(root, tokenizer, tokens) : completionPrompt(root, tokenizer, tokens);
    }

    private static JsonNode object(byte[] body) throws ApiError {
        JsonNode root;
        try {
            root = JSON.readTree(new String(body, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("request body is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw ApiError.badRequest("request body must be a JSON object");
        }
        return root;
    }

    private static int chatPrompt(JsonNode root, SimTokenizer tokenizer, List<String> tokens) throws ApiError {
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw ApiError.badRequest("'messages' is required: a non-empty array of {\"role\": ..., \"content\": ...} objects");
        }
        int count = TEMPLATE_REPLY_TOKENS;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            JsonNode role = message.get("role");
            if (!message.isObject() || role == null || !role.isTextual()) {
                throw ApiError.badRequest("messages[" + i + "] must be an object with a string 'role'");
            }
            tokens.add("<|im_start|>");
            tokens.add(role.asText());
            String text = messageText(message.get("content"), i);
            tokens.addAll(tokenizer.tokens(text));
            tokens.add("<|im_end|>");
            count += TEMPLATE_TOKENS_PER_MESSAGE + tokenizer.count(text);
        }
        return count;
    }

    private static String messageText(JsonNode content, int index) throws ApiError {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                JsonNode type = part.get("type");
                if (type == null || !"text".equals(type.asText()) || !part.path("text").isTextual()) {
                    throw ApiError.badRequest("messages[" + index + "].content: only {\"type\": \"text\", \"text\": ...} parts "
                            + "are supported by the simulated engine");
                }
                text.append(part.get("text").asText()).append('\n');
            }
            return text.toString();
        }
        throw ApiError.badRequest("messages[" + index + "].content must be a string or an array of text parts");
    }

    private static int completionPrompt(JsonNode root, SimTokenizer tokenizer, List<String> tokens) throws ApiError {
        JsonNode prompt = root.get("prompt");
        String expected = "'prompt' is required: a string, a one-element array of strings, or an array of token ids";
        if (prompt == null || prompt.isNull()) {
            throw ApiError.badRequest(expected);
        }
        if (prompt.isArray() && prompt.size() == 1 && prompt.get(0).isTextual()) {
            prompt = prompt.get(0);
        }
        if (prompt.isTextual()) {
            tokens.addAll(tokenizer.tokens(prompt.asText()));
        } else if (prompt.isArray() && !prompt.isEmpty()) {
            for (JsonNode id : prompt) {
                if (!id.isIntegralNumber()) {
                    throw ApiError.badRequest(expected);
                }
                tokens.add("#" + id.asLong());
            }
        } else {
            throw ApiError.badRequest(expected);
        }
        if (tokens.isEmpty()) {
            throw ApiError.badRequest("'prompt' must contain at least one token");
        }
        return tokens.size();
    }

    private static long[] blockHashes(List<String> tokens, int pageTokens) {
        long[] hashes = new long[tokens.size() / pageTokens];
        long h = 0x9E3779B97F4A7C15L;
        for (int b = 0; b < hashes.length; b++) {
            for (int t = b * pageTokens; t < (b + 1) * pageTokens; t++) {
                h = Seeds.mix(h * 31 + tokens.get(t).hashCode());
            }
            hashes[b] = h;
        }
        return hashes;
    }

    private static Integer optionalInt(JsonNode root, String field) throws ApiError {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw ApiError.badRequest("'" + field + "' must be an integer, got " + v);
        }
        return v.asInt();
    }

    private static boolean optionalBoolean(JsonNode root, String field, String path) throws ApiError {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw ApiError.badRequest("'" + path + "' must be true or false, got " + v);
        }
        return v.asBoolean();
    }
}
