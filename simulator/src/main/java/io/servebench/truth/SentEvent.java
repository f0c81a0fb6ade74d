package io.servebench.truth;

/**
 * One token event a server wrote: an SSE event (or, for a non-streamed response, one kind of text in the
 * body) carrying at least one generated token. Role-only, usage-only and error events are not token events.
 *
 * @param dueNs     when the server meant to write it (its script's or its model's time, same clock): the write's
 *                  lateness is {@code writtenNs - dueNs}
 * @param writtenNs when the write holding it returned, {@link System#nanoTime()} of the server's JVM (on Linux
 *                  CLOCK_MONOTONIC, comparable with a client's on the same host)
 * @param tokens    tokens it carried, {@code >= 1}
 * @param reasoning whether they were sent as reasoning ({@code reasoning_content}) rather than content
 */
public record SentEvent(long writtenNs, int tokens, boolean reasoning, long dueNs) {

    /** How long after its due time the event was written, ns (negative when early). */
    public long latenessNs() {
        return writtenNs - dueNs;
    }
}
