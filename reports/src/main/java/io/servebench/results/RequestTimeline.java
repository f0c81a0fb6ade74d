package io.servebench.results;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A result block's requests as a report draws them, each from its intended send to its end, with its first token and
 * its long inter-token gaps. Times are in seconds from the first intended send.
 *
 * @param gapThresholdMs the shortest gap between two token events marked as long, ms
 * @param requests       the requests drawn, in intended-send order (every k-th of a long trial)
 * @param total          the measured requests of the block's repetition, drawn or not
 */
public record RequestTimeline(double gapThresholdMs, List<Request> requests, int total) {

    /** How a request ended. */
    public enum Outcome { SUCCEEDED, FAILED, CANCELLED }

    /**
     * One request.
     *
     * @param id         its record id
     * @param intended   its intended send, s
     * @param sent       its send, s
     * @param firstToken its first token, s; NaN without one
     * @param end        when it ended (its last byte, or its failure), s
     * @param outcome    how it ended
     * @param longGaps   the gaps between token events of at least the threshold, as start, end, start, end ... (s)
     */
    public record Request(long id, double intended, double sent, double firstToken, double end, Outcome outcome,
                          List<Double> longGaps) {
        public Request {
            Objects.requireNonNull(outcome, "outcome");
            longGaps = List.copyOf(longGaps);
            if (longGaps.size() % 2 != 0) {
                throw new IllegalArgumentException("long gaps come as start and end pairs, got " + longGaps.size() + " values");
            }
        }
    }

    public RequestTimeline {
        requests = Collections.unmodifiableList(List.copyOf(requests));
        if (total < requests.size()) {
            throw new IllegalArgumentException("a timeline draws at most its " + total + " requests, got " + requests.size());
        }
    }
}
