package io.servebench.engine.truth;

import java.util.List;

/**
 * What the {@link TruthServer} did for one request. All times are {@link System#nanoTime()} values of the
 * server's JVM (on Linux CLOCK_MONOTONIC, comparable with a client's on the same host).
 *
 * @param requestId        the {@code X-Request-Id} header, or {@code truth-N} when the request had none
 * @param receivedNs       when the whole request (head and body) had been read
 * @param httpStatus       the status sent
 * @param completionTokens tokens the response was to carry
 * @param events           token events whose write returned, in order; role-only, usage-only and error
 *                         events are not token events
 * @param finished         whether the response was written to its end ({@code [DONE]} and the last chunk), or
 *                         the error response was sent in full
 * @param error            how the response failed ({@code kind: detail}), {@code null} when it did not
 */
public record TruthRecord(String requestId, long receivedNs, int httpStatus, int completionTokens,
                         List<TruthEvent> events, boolean finished, String error) {

    /**
     * One token event.
     *
     * @param writtenNs when the socket write holding it returned with all its bytes handed to the kernel
     * @param tokens    tokens it carried, {@code >= 1}
     * @param reasoning whether they were sent as reasoning rather than content
     */
    public record TruthEvent(long writtenNs, int tokens, boolean reasoning) {
    }

    public TruthRecord {
        events = List.copyOf(events);
    }

    /** The first token event's write time, or {@code -1} when there was none. */
    public long firstEventNs() {
        return events.isEmpty() ? -1 : events.get(0).writtenNs();
    }

    /** The first content (non-reasoning) event's write time, or {@code -1} when there was none. */
    public long firstContentNs() {
        return events.stream().filter(e -> !e.reasoning()).mapToLong(TruthEvent::writtenNs).findFirst().orElse(-1);
    }

    /** The last token event's write time, or {@code -1} when there was none. */
    public long lastEventNs() {
        return events.isEmpty() ? -1 : events.get(events.size() - 1).writtenNs();
    }

    /** Tokens in the events written. */
    public int tokensWritten() {
        return events.stream().mapToInt(TruthEvent::tokens).sum();
    }
}
