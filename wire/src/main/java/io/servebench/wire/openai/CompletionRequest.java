package io.servebench.wire.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The body of a streaming {@code /v1/chat/completions} or {@code /v1/completions} request, in the fields ServeBench
 * sends and its servers read: the load generator writes it ({@link #toJson}), the simulated engine and the
 * ground-truth server parse it ({@link #parse}). Parsing checks what vLLM's request models check
 * ({@code ChatCompletionRequest} and {@code CompletionRequest} in {@code vllm/entrypoints/openai/protocol.py}: field
 * types, {@code max_tokens >= 1}, {@code 0 <= min_tokens <= max_tokens}, {@code stream_options} only with
 * {@code stream}) and words a failure as vLLM does where it has a message of its own; what needs the served model
 * (its name, its context length, its tokenizer) is the server's to check.
 *
 * @param input           the messages of a chat request, or the prompt of a completion
 * @param model           the {@code model} field; empty when absent
 * @param maxTokens       {@code max_tokens} ({@code max_completion_tokens} for chat when given); empty when absent
 * @param minTokens       {@code min_tokens}, 0 when absent
 * @param ignoreEos       {@code ignore_eos} (vLLM's and SGLang's sampling extension)
 * @param stream          {@code stream}
 * @param includeUsage    {@code stream_options.include_usage}: a usage-only chunk before {@code [DONE]}
 * @param continuousUsage {@code stream_options.continuous_usage_stats} (vLLM): cumulative usage on every chunk
 */
public record CompletionRequest(Input input, Optional<String> model, OptionalInt maxTokens, int minTokens,
                                boolean ignoreEos, boolean stream, boolean includeUsage, boolean continuousUsage) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public CompletionRequest {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(maxTokens, "maxTokens");
    }

    /** What the model is asked to continue: a chat's messages, or a completion's prompt. */
    public sealed interface Input permits Messages, Text, TokenIds {
    }

    /** A chat request's messages, in order, at least one. */
    public record Messages(List<Message> messages) implements Input {
        public Messages {
            messages = List.copyOf(messages);
        }
    }

    /** One chat message; {@code content} is the text of its text parts, {@code ""} when it has none. */
    public record Message(String role, String content) {
        public Message {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
        }
    }

    /** A completion's prompt as text. */
    public record Text(String prompt) implements Input {
        public Text {
            Objects.requireNonNull(prompt, "prompt");
        }
    }

    /** A completion's prompt as token ids, at least one. */
    public record TokenIds(long[] ids) implements Input {
        public TokenIds {
            ids = ids.clone();
        }
    }

    /** Whether this goes to the chat API. */
    public boolean chat() {
        return input instanceof Messages;
    }

    /**
     * The body as UTF-8 JSON, with every field of each {@code extra} object added in turn, replacing a field of the
     * same name (a study's {@code {"temperature": 0}}, then a request's own); unset fields are left out.
     */
    public byte[] toJson(List<ObjectNode> extra) {
        if (extra.isEmpty()) {
            return streamed();
        }
        ObjectNode body = JSON.createObjectNode();
        model.ifPresent(m -> body.put("model", m));
        if (input instanceof Messages m) {
            ArrayNode messages = body.putArray("messages");
            m.messages().forEach(message -> messages.addObject().put("role", message.role())
                    .put("content", message.content()));
        } else if (input instanceof Text t) {
            body.put("prompt", t.prompt());
        } else {
            ArrayNode ids = body.putArray("prompt");
            for (long id : ((TokenIds) input).ids()) {
                ids.add(id);
            }
        }
        maxTokens.ifPresent(n -> body.put("max_tokens", n));
        body.put("stream", stream);
        if (stream) {
            ObjectNode options = body.putObject("stream_options");
            options.put("include_usage", includeUsage);
            if (continuousUsage) {
                options.put("continuous_usage_stats", true);
            }
        }
        if (minTokens > 0) {
            body.put("min_tokens", minTokens);
        }
        if (ignoreEos) {
            body.put("ignore_eos", true);
        }
        extra.forEach(body::setAll);
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a request body built from plain values", e);
        }
    }

    /**
     * The body without extra fields, written straight to bytes in the order and form the tree gives them: the load
     * generator builds one per request on its sending thread, and a tree per request cost about four times as much.
     */
    private byte[] streamed() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(256 + promptLength());
        try (com.fasterxml.jackson.core.JsonGenerator g = JSON.getFactory().createGenerator(bytes)) {
            g.writeStartObject();
            if (model.isPresent()) {
                g.writeStringField("model", model.get());
            }
            if (input instanceof Messages m) {
                g.writeArrayFieldStart("messages");
                for (Message message : m.messages()) {
                    g.writeStartObject();
                    g.writeStringField("role", message.role());
                    g.writeStringField("content", message.content());
                    g.writeEndObject();
                }
                g.writeEndArray();
            } else if (input instanceof Text t) {
                g.writeStringField("prompt", t.prompt());
            } else {
                g.writeArrayFieldStart("prompt");
                for (long id : ((TokenIds) input).ids()) {
                    g.writeNumber(id);
                }
                g.writeEndArray();
            }
            if (maxTokens.isPresent()) {
                g.writeNumberField("max_tokens", maxTokens.getAsInt());
            }
            g.writeBooleanField("stream", stream);
            if (stream) {
                g.writeObjectFieldStart("stream_options");
                g.writeBooleanField("include_usage", includeUsage);
                if (continuousUsage) {
                    g.writeBooleanField("continuous_usage_stats", true);
                }
                g.writeEndObject();
            }
            if (minTokens > 0) {
                g.writeNumberField("min_tokens", minTokens);
            }
            if (ignoreEos) {
                g.writeBooleanField("ignore_eos", true);
            }
            g.writeEndObject();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot write a request body built from plain values", e);
        }
        return bytes.toByteArray();
    }

    /** About how many characters the prompt or messages hold, to size the body's buffer once. */
    private int promptLength() {
        if (input instanceof Messages m) {
            return m.messages().stream().mapToInt(x -> x.content().length() + 32).sum();
        }
        return input instanceof Text t ? t.prompt().length() : ((TokenIds) input).ids().length * 8;
    }

    /**
     * Parses and checks a request body sent to the chat API ({@code chat}) or the completions API.
     *
     * @throws InvalidRequestException naming the field and what it should be (the server answers 400)
     */
    public static CompletionRequest parse(byte[] body, boolean chat) throws InvalidRequestException {
        return parse(object(body), chat);
    }

    /**
     * Parses a {@code /tokenize} body as vLLM and SGLang take it: {@code {"prompt": ...}}, or {@code {"messages": [...]}}
     * as a chat request carries them.
     *
     * @throws InvalidRequestException for a body with neither, or ill-typed fields
     */
    public static CompletionRequest parseTokenize(byte[] body) throws InvalidRequestException {
        JsonNode root = object(body);
        return parse(root, root.has("messages"));
    }

    private static CompletionRequest parse(JsonNode root, boolean chat) throws InvalidRequestException {
        Optional<String> model = Optional.empty();
        JsonNode m = root.get("model");
        if (m != null && !m.isNull()) {
            if (!m.isTextual()) {
                throw new InvalidRequestException("'model' must be a string");
            }
            model = Optional.of(m.asText());
        }
        Input input = chat ? messages(root) : prompt(root);
        OptionalInt maxTokens = optionalInt(root,
                chat && root.has("max_completion_tokens") ? "max_completion_tokens" : "max_tokens");
        if (maxTokens.isPresent() && maxTokens.getAsInt() < 1) {
            throw new InvalidRequestException("max_tokens must be at least 1, got " + maxTokens.getAsInt());
        }
        int minTokens = optionalInt(root, "min_tokens").orElse(0);
        if (minTokens < 0) {
            throw new InvalidRequestException("min_tokens must be greater than or equal to 0, got " + minTokens);
        }
        if (maxTokens.isPresent() && minTokens > maxTokens.getAsInt()) {
            throw new InvalidRequestException("min_tokens must be less than or equal to max_tokens="
                    + maxTokens.getAsInt() + ", got " + minTokens);
        }
        boolean stream = optionalBoolean(root, "stream", "stream");
        boolean includeUsage = false;
        boolean continuousUsage = false;
        JsonNode options = root.get("stream_options");
        if (options != null && !options.isNull()) {
            if (!stream) {
                throw new InvalidRequestException("Stream options can only be defined when `stream=True`.");
            }
            if (!options.isObject()) {
                throw new InvalidRequestException("'stream_options' must be an object");
            }
            includeUsage = optionalBoolean(options, "include_usage", "stream_options.include_usage");
            continuousUsage = optionalBoolean(options, "continuous_usage_stats", "stream_options.continuous_usage_stats");
        }
        boolean ignoreEos = optionalBoolean(root, "ignore_eos", "ignore_eos");
        return new CompletionRequest(input, model, maxTokens, minTokens, ignoreEos, stream, includeUsage,
                continuousUsage);
    }

    private static JsonNode object(byte[] body) throws InvalidRequestException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (java.io.IOException e) {
            String detail = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new InvalidRequestException("request body is not valid JSON: " + detail);
        }
        if (root == null || !root.isObject()) {
            throw new InvalidRequestException("request body must be a JSON object");
        }
        return root;
    }

    private static Messages messages(JsonNode root) throws InvalidRequestException {
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw new InvalidRequestException(
                    "'messages' is required: a non-empty array of {\"role\": ..., \"content\": ...} objects");
        }
        List<Message> out = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            JsonNode role = message.get("role");
            if (!message.isObject() || role == null || !role.isTextual()) {
                throw new InvalidRequestException("messages[" + i + "] must be an object with a string 'role'");
            }
            out.add(new Message(role.asText(), messageText(message.get("content"), i)));
        }
        return new Messages(out);
    }

    /** A message's text: a string, or its text parts each followed by a newline; {@code ""} for none. */
    private static String messageText(JsonNode content, int index) throws InvalidRequestException {
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
                    throw new InvalidRequestException("messages[" + index + "].content: only {\"type\": \"text\","
                            + " \"text\": ...} parts are supported");
                }
                text.append(part.get("text").asText()).append('\n');
            }
            return text.toString();
        }
        throw new InvalidRequestException("messages[" + index + "].content must be a string or an array of text parts");
    }

    private static Input prompt(JsonNode root) throws InvalidRequestException {
        JsonNode prompt = root.get("prompt");
        String expected = "'prompt' is required: a string, a one-element array of strings, or an array of token ids";
        if (prompt == null || prompt.isNull()) {
            throw new InvalidRequestException(expected);
        }
        if (prompt.isArray() && prompt.size() == 1 && prompt.get(0).isTextual()) {
            prompt = prompt.get(0);
        }
        if (prompt.isTextual()) {
            return new Text(prompt.asText());
        }
        if (prompt.isArray() && !prompt.isEmpty()) {
            long[] ids = new long[prompt.size()];
            for (int i = 0; i < ids.length; i++) {
                if (!prompt.get(i).isIntegralNumber()) {
                    throw new InvalidRequestException(expected);
                }
                ids[i] = prompt.get(i).asLong();
            }
            return new TokenIds(ids);
        }
        throw new InvalidRequestException(expected);
    }

    private static OptionalInt optionalInt(JsonNode root, String field) throws InvalidRequestException {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return OptionalInt.empty();
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new InvalidRequestException("'" + field + "' must be an integer, got " + v);
        }
        return OptionalInt.of(v.asInt());
    }

    private static boolean optionalBoolean(JsonNode root, String field, String path) throws InvalidRequestException {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw new InvalidRequestException("'" + path + "' must be true or false, got " + v);
        }
        return v.asBoolean();
    }
}
