package io.servebench.workload;

import java.util.List;

/**
 * One request of a workload, before it is sent.
 *
 * @param index        position in the workload (0-based); warm-up requests come first
 * @param prompt       the user message (chat API) or the prompt (completions API)
 * @param promptTokens the client's count of prompt tokens (the server's {@code usage.prompt_tokens} wins when present)
 * @param maxTokens    output tokens asked for; with {@code exactOutput} the server is asked to produce exactly this many
 * @param exactOutput  send {@code min_tokens = max_tokens} and {@code ignore_eos}, as benchmark clients do to fix output lengths
 * @param warmup       sent but left out of the results
 * @param context      the chat messages before the user message; empty for a single turn
 * @param extraBody    body fields of this request alone, a JSON object's text, added after the study's own; {@code null}
 *                     for none
 * @param turn         its turn in a multi-turn conversation, 0 for the first and for a single turn; a request of turn
 *                     {@code k > 0} follows the request before it in the workload (turn {@code k - 1} of the same
 *                     conversation) and is sent when that one has ended
 * @param model        the model or LoRA adapter the request names ({@code model} in its body), drawn from the workload's
 *                     {@code models}; {@code null} for the served model
 */
public record RequestSpec(int index, String prompt, int promptTokens, int maxTokens, boolean exactOutput, boolean warmup,
                          List<ChatMessage> context, String extraBody, int turn, String model) {

    public RequestSpec {
        context = List.copyOf(context);
    }

    /** A request for the served model. */
    public RequestSpec(int index, String prompt, int promptTokens, int maxTokens, boolean exactOutput, boolean warmup,
                       List<ChatMessage> context, String extraBody, int turn) {
        this(index, prompt, promptTokens, maxTokens, exactOutput, warmup, context, extraBody, turn, null);
    }

    /** A single turn. */
    public RequestSpec(int index, String prompt, int promptTokens, int maxTokens, boolean exactOutput, boolean warmup,
                       List<ChatMessage> context, String extraBody) {
        this(index, prompt, promptTokens, maxTokens, exactOutput, warmup, context, extraBody, 0);
    }

    /** A single user turn. */
    public RequestSpec(int index, String prompt, int promptTokens, int maxTokens, boolean exactOutput, boolean warmup) {
        this(index, prompt, promptTokens, maxTokens, exactOutput, warmup, List.of(), null);
    }

    /** This request, marked as a warm-up request or not. */
    public RequestSpec withWarmup(boolean newWarmup) {
        return new RequestSpec(index, prompt, promptTokens, maxTokens, exactOutput, newWarmup, context, extraBody, turn,
                model);
    }

    /**
     * This request, asking for exactly its reply length ({@code min_tokens} and {@code ignore_eos} beside {@code
     * max_tokens}) or, when not {@code exact}, for at most that many tokens, as a server that refuses those fields takes it.
     */
    public RequestSpec withExactOutput(boolean exact) {
        return new RequestSpec(index, prompt, promptTokens, maxTokens, exact, warmup, context, extraBody, turn, model);
    }

    /** This request for {@code newModel} (a model or LoRA adapter the server serves). */
    public RequestSpec withModel(String newModel) {
        return new RequestSpec(index, prompt, promptTokens, maxTokens, exactOutput, warmup, context, extraBody, turn,
                newModel);
    }
}
