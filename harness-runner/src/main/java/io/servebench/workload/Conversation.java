package io.servebench.workload;

/**
 * One prompt of a dataset with the reply length it asks for.
 *
 * @param prompt       the first user turn
 * @param promptTokens its length in tokens, by the dataset's token counter
 * @param outputTokens the length of the first reply in tokens: the output length requested
 */
public record Conversation(String prompt, int promptTokens, int outputTokens) {
}
