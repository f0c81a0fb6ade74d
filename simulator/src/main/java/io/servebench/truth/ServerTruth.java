package io.servebench.truth;

import java.util.List;

/**
 * What a server that times its own writes knows about one request it served: when it received it and
 * when each token event left. The simulated engine and the scripted {@link TruthServer} both keep one per
 * request, so a client's measurements can be checked against them.
 */
public interface ServerTruth {

    /** The request's {@code X-Request-Id} header, or an id the server made up. */
    String requestId();

    /** When the server had the request, {@link System#nanoTime()} of the server's JVM. */
    long receivedNs();

    /** The HTTP status sent. */
    int httpStatus();

    /** Token events in the order they were written. */
    List<SentEvent> events();

    /** Why the response failed or was refused, {@code null} when it did not. */
    String error();

    /** The first token event's write time, or {@code -1} when there was none. */
    default long firstEventNs() {
        return events().isEmpty() ? -1 : events().get(0).writtenNs();
    }

    /** The first content (non-reasoning) event's write time, or {@code -1} when there was none. */
    default long firstContentNs() {
        return events().stream().filter(e -> !e.reasoning()).mapToLong(SentEvent::writtenNs).findFirst().orElse(-1);
    }

    /** Tokens in the events written. */
    default int tokensWritten() {
        return events().stream().mapToInt(SentEvent::tokens).sum();
    }
}
