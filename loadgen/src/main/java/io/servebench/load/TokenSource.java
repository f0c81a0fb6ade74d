package io.servebench.load;

/** Where a token count came from, recorded with every count so reports can say how far to trust it. */
public enum TokenSource {
    /** {@code usage.completion_tokens} of the final usage chunk. */
    USAGE,
    /** Differences of cumulative {@code usage.completion_tokens} sent with every chunk (vLLM's {@code continuous_usage_stats}). */
    CONTINUOUS_USAGE,
    /** The client's tokenizer applied to the delta text. */
    TOKENIZER,
    /** Neither: each token event counted as one token. */
    EVENTS
}
