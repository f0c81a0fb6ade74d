package io.servebench.truth;

import java.util.List;

/**
 * What the {@link TruthServer} did for one request. All times are {@link System#nanoTime()} values of the
 * server's JVM.
 *
 * @param requestId        the {@code X-Request-Id} header, or {@code truth-N} when the request had none
 * @param receivedNs       when the whole request (head and body) had been read
 * @param httpStatus       the status sent
 * @param completionTokens tokens the response was to carry
 * @param events           token events whose write returned with all their bytes handed to the kernel, in order
 * @param finished         whether the response was written to its end ({@code [DONE]} and the last chunk), or
 *                         the error response was sent in full
 * @param error            how the response failed ({@code kind: detail}), {@code null} when it did not
 * @param failedNs         when the server noted the failure (the client's going away, say), 0 when it did not fail
 */
public record TruthRecord(String requestId, long receivedNs, int httpStatus, int completionTokens,
                         List<SentEvent> events, boolean finished, String error, long failedNs) implements ServerTruth {

    public TruthRecord {
        events = List.copyOf(events);
    }
}
