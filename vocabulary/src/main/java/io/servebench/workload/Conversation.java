package io.servebench.workload;

import java.util.List;

/**
 * One prompt of a dataset with the reply length it asks for.
 *
 * @param prompt       the user turn the request ends with
 * @param promptTokens its length in tokens, with its context's, by the dataset's token counter
 * @param outputTokens the length of the reply in tokens: the output length requested
 * @param context      the messages before the prompt (a system prompt, earlier turns); empty for a single turn
 * @param extraBody    body fields of this request alone, a JSON object's text (a {@code jsonl:} line's other
 *                     fields); {@code null} for none
 * @param turn         its turn in a multi-turn conversation, 0 for the first (and for a single turn): a later turn
 *                     is sent when the turn before it has been answered
 */
public record Conversation(String prompt, int promptTokens, int outputTokens, List<ChatMessage> context,
                           String extraBody, int turn) {

    public Conversation {
        context = List.copyOf(context);
        if (turn < 0) {
            throw new IllegalArgumentException("turn must be >= 0, got " + turn);
        }
    }

    /** A single turn with body fields of its own. */
    public Conversation(String prompt, int promptTokens, int outputTokens, List<ChatMessage> context, String extraBody) {
        this(prompt, promptTokens, outputTokens, context, extraBody, 0);
    }

    /** A single turn without body fields of its own. */
    public Conversation(String prompt, int promptTokens, int outputTokens, List<ChatMessage> context) {
        this(prompt, promptTokens, outputTokens, context, null);
    }

    /** A single user turn. */
    public Conversation(String prompt, int promptTokens, int outputTokens) {
        this(prompt, promptTokens, outputTokens, List.of());
    }
}
