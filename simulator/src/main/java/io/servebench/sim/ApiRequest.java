package io.servebench.sim;

import io.servebench.workload.SimTokenizer;
import io.servebench.wire.openai.CompletionRequest;
import io.servebench.wire.openai.InvalidRequestException;

import java.util.ArrayList;
import java.util.List;

/**
 * A completion request as the engine understands it, parsed and checked from the JSON body of
 * {@code /v1/chat/completions} or {@code /v1/completions}.
 *
 * @param chat            whether it came through the chat API
 * @param model           the {@code model} field, {@code null} when absent
 * @param adapter         the LoRA adapter it runs on, by the engine's rule ({@link #adapter}); {@code null} for the base
 *                        model
 * @param baseFallback    whether {@code model} named something the engine does not serve and it ran the base model
 *                        without a word, as SGLang does
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
        String adapter,
        boolean baseFallback,
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

    /**
     * Parses and checks a request body: the wire layer's checks ({@link CompletionRequest#parse}), then the model's
     * name and context length.
     *
     * @throws ApiError 400 for malformed JSON, missing or ill-typed fields, {@code max_tokens < 1},
     *                  {@code min_tokens > max_tokens}, stream options without streaming, or a prompt plus
     *                  output longer than the context, an SGLang {@code "base:adapter"} whose adapter is not loaded;
     *                  404 (vLLM) for a model other than the served one or one of the adapters
     */
    static ApiRequest parse(byte[] body, boolean chat, SimTokenizer tokenizer, SimParams settings) throws ApiError {
        SimDialect dialect = settings.dialect();
        int maxModelLen = settings.maxModelLen();
        CompletionRequest request;
        try {
            request = CompletionRequest.parse(body, chat);
        } catch (InvalidRequestException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        String model = request.model().orElse(null);
        String adapter = null;
        boolean fallback = false;
        if (model == null || settings.servesModel(model)) {
            adapter = null;
        } else if (dialect.adapterAfterBase()) {
            // SGLang 0.5.9 and 0.5.18, entrypoints/openai/serving_base.py: "base:adapter" names the adapter after the
            // first colon, which must be loaded; any other name is not checked and runs the base model
            int colon = model.indexOf(':');
            if (colon >= 0) {
                // "base:" names no adapter: the base model (parts[1].strip() or None)
                adapter = model.substring(colon + 1).strip().isEmpty() ? null : model.substring(colon + 1).strip();
                if (adapter != null && settings.lora().adapters().isEmpty()) {
                    // tokenizer_manager.py, _validate_and_resolve_lora (v0.5.9 lines 2215-2234), a 400
                    throw ApiError.badRequest("LoRA adapter '" + adapter + "' was requested, but LoRA is not enabled."
                            + " Please launch the server with --enable-lora flag and preload adapters using --lora-paths"
                            + " or /load_lora_adapter endpoint.");
                }
                if (adapter != null && !settings.lora().serves(adapter)) {
                    // lora/lora_registry.py, v0.5.9 lines 126-130, raised as a 400 by serving_base.py
                    throw ApiError.badRequest("The following requested LoRA adapters are not loaded: " + adapter + "\n");
                }
            } else {
                fallback = true;
            }
        } else if (settings.lora().serves(model)) {
            adapter = model;
        } else {
            throw notServed(model, settings.servedModel());
        }
        List<String> tokens = new ArrayList<>();
        int promptTokens = promptTokens(request.input(), tokenizer, tokens);
        Integer maxTokens = request.maxTokens().isPresent() ? request.maxTokens().getAsInt() : null;
        String tooLong = dialect.contextProblem(promptTokens, maxTokens, maxModelLen);
        if (tooLong != null) {
            throw ApiError.badRequest(tooLong);
        }
        return new ApiRequest(chat, model, adapter, fallback, promptTokens, blockHashes(tokens, dialect.cachePageTokens()), maxTokens,
                request.minTokens(), request.ignoreEos(), request.stream(), request.includeUsage(),
                request.continuousUsage());
    }

    /**
     * The prompt tokens of a {@code /tokenize} body, as vLLM's and SGLang's take it: {@code {"prompt": "..."}} or
     * {@code {"messages": [...]}} (with the chat template, as a chat request counts them); the same count a
     * completion or chat request with that prompt reports in {@code usage.prompt_tokens}.
     *
     * @throws ApiError 400 for a body without a prompt or messages, 404 for a model other than the served one
     */
    static int tokenize(byte[] body, SimTokenizer tokenizer, SimParams settings) throws ApiError {
        CompletionRequest request;
        try {
            request = CompletionRequest.parseTokenize(body);
        } catch (InvalidRequestException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        if (request.model().isPresent() && !settings.servesModel(request.model().get())) {
            throw notServed(request.model().get(), settings.servedModel());
        }
        return promptTokens(request.input(), tokenizer, new ArrayList<>());
    }

    private static ApiError notServed(String model, String servedModel) {
        return ApiError.notFound("The model `" + model + "` does not exist; this server serves `" + servedModel + "`.");
    }

    /**
     * Counts the prompt's tokens and adds them to {@code tokens} (the identities prefix caching hashes): a chat's
     * messages in the chat template, a completion's text, or its token ids.
     */
    private static int promptTokens(CompletionRequest.Input input, SimTokenizer tokenizer, List<String> tokens)
            throws ApiError {
        if (input instanceof CompletionRequest.Messages chat) {
            int count = TEMPLATE_REPLY_TOKENS;
            for (CompletionRequest.Message message : chat.messages()) {
                tokens.add("<|im_start|>");
                tokens.add(message.role());
                List<String> text = tokenizer.tokens(message.content());
                tokens.addAll(text);
                tokens.add("<|im_end|>");
                count += TEMPLATE_TOKENS_PER_MESSAGE + text.size();
            }
            return count;
        }
        if (input instanceof CompletionRequest.Text text) {
            tokens.addAll(tokenizer.tokens(text.prompt()));
        } else {
            for (long id : ((CompletionRequest.TokenIds) input).ids()) {
                tokens.add("#" + id);
            }
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
}
