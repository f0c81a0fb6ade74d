package io.servebench.workload;

import java.util.List;

/**
 * One prompt of a dataset with the reply length it asks for.
 *
 * @param prompt       the user turn the request ends with
 * @param promptTokens its length in tokens, with its context's, by the dataset's token counter
 * @param outputTokens the length of the reply in tokens: the output length requested
 * @param context      the messages before the prompt (a system prompt, earlier turns); empty for a single turn
 */
public record Conversation(String prompt, int promptTokens, int outputTokens, List<ChatMessage> context) {

    public Conversation {
        context = List.copyOf(context);
    }

    /** A single user turn. */
    public Conversation(String prompt, int promptTokens, int outputTokens) {
        this(prompt, promptTokens, outputTokens, List.of());
    }
}
