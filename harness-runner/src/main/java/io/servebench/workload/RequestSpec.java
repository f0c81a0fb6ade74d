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
 */
public record RequestSpec(int index, String prompt, int promptTokens, int maxTokens, boolean exactOutput, boolean warmup,
                          List<ChatMessage> context, String extraBody) {

    public RequestSpec {
        context = List.copyOf(context);
    }

    /** A single user turn. */
    public RequestSpec(int index, String prompt, int promptTokens, int maxTokens, boolean exactOutput, boolean warmup) {
        this(index, prompt, promptTokens, maxTokens, exactOutput, warmup, List.of(), null);
    }

    /** This request, marked as a warm-up request or not. */
    public RequestSpec withWarmup(boolean newWarmup) {
        return new RequestSpec(index, prompt, promptTokens, maxTokens, exactOutput, newWarmup, context, extraBody);
    }
}
