package io.servebench.truth;

/**
 * One token event a server wrote: an SSE event (or, for a non-streamed response, one kind of text in the
 * body) carrying at least one generated token. Role-only, usage-only and error events are not token events.
 *
 * @param writtenNs when the write holding it returned, {@link System#nanoTime()} of the server's JVM (on Linux
 *                  CLOCK_MONOTONIC, comparable with a client's on the same host)
 * @param tokens    tokens it carried, {@code >= 1}
 * @param reasoning whether they were sent as reasoning ({@code reasoning_content}) rather than content
 */
public record SentEvent(long writtenNs, int tokens, boolean reasoning) {
}
