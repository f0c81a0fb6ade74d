package io.servebench.load;

import java.util.Arrays;

/**
 * What happened to one request: every timestamp is a {@link System#nanoTime()} value (on Linux
 * CLOCK_MONOTONIC, comparable with other processes' monotonic clocks on the same host);
 * {@link #NONE} marks one that did not happen.
 *
 * @param id                 the request's index in its load, sent in the {@code X-Request-Id} header after the load's
 *                           {@link LoadParams#requestIdPrefix()}
 * @param warmup             a warm-up request, left out of the results
 * @param intendedNs         {@code a_i}: when the arrival schedule said the request goes out
 * @param sentNs             {@code s_i}: when its bytes were handed to the connection
 * @param firstTokenNs       {@code f_i}: the first token event (content or reasoning)
 * @param firstContentNs     the first event carrying {@code delta.content} / {@code text}
 * @param endNs              {@code e_i}: the last token event
 * @param doneNs             when the response ended (last byte, {@code [DONE]}, or the failure)
 * @param promptTokens       prompt tokens ({@code usage.prompt_tokens}, else the client's count)
 * @param outputTokens       {@code o_i}: output tokens
 * @param outputTokensSource where {@code outputTokens} came from
 * @param eventTimesNs       arrival time of each token event, in order
 * @param eventTokens        tokens carried by each token event ({@code n ≥ 1})
 * @param eventTokensSource  where the per-event counts came from
 * @param eventsPerReadMax   the largest number of token events parsed from one network read
 * @param coalescedEvents    token events that shared their read with an earlier token event
 * @param httpStatus         the response status, 0 when none arrived
 * @param error              why the request failed ({@code kind: detail}), {@code null} when it succeeded
 * @param slotNs             when the request got a slot under its profile's concurrency cap
 *                           ({@link ArrivalProfile.Capped}): {@code slotNs − intendedNs} is its client queue
 *                           wait. {@link #NONE} when the profile has no cap
 */
public record RequestRecord(
        long id,
        boolean warmup,
        long intendedNs,
        long sentNs,
        long firstTokenNs,
        long firstContentNs,
        long endNs,
        long doneNs,
        int promptTokens,
        int outputTokens,
        TokenSource outputTokensSource,
        long[] eventTimesNs,
        int[] eventTokens,
        TokenSource eventTokensSource,
        int eventsPerReadMax,
        int coalescedEvents,
        int httpStatus,
        String error,
        long slotNs) {

    /** Marks a timestamp that did not happen. */
    public static final long NONE = Long.MIN_VALUE;

    public RequestRecord {
        if (eventTimesNs.length != eventTokens.length) {
            throw new IllegalArgumentException("eventTimesNs and eventTokens differ in length: "
                    + eventTimesNs.length + " vs " + eventTokens.length);
        }
    }

    /** A record of a request that had no concurrency cap to wait for ({@link #slotNs()} = {@link #NONE}). */
    public RequestRecord(long id, boolean warmup, long intendedNs, long sentNs, long firstTokenNs, long firstContentNs,
                         long endNs, long doneNs, int promptTokens, int outputTokens, TokenSource outputTokensSource,
                         long[] eventTimesNs, int[] eventTokens, TokenSource eventTokensSource, int eventsPerReadMax,
                         int coalescedEvents, int httpStatus, String error) {
        this(id, warmup, intendedNs, sentNs, firstTokenNs, firstContentNs, endNs, doneNs, promptTokens, outputTokens,
                outputTokensSource, eventTimesNs, eventTokens, eventTokensSource, eventsPerReadMax, coalescedEvents,
                httpStatus, error, NONE);
    }

    /** This record with {@link #slotNs()} set. */
    public RequestRecord withSlotNs(long newSlotNs) {
        return new RequestRecord(id, warmup, intendedNs, sentNs, firstTokenNs, firstContentNs, endNs, doneNs, promptTokens,
                outputTokens, outputTokensSource, eventTimesNs, eventTokens, eventTokensSource, eventsPerReadMax,
                coalescedEvents, httpStatus, error, newSlotNs);
    }

    /**
     * This record with every instant moved by {@code deltaNs}: from a worker's clock on another machine to its
     * coordinator's ({@link LoadWorkers}). Durations within the record are unchanged.
     */
    RequestRecord shifted(long deltaNs) {
        long[] events = eventTimesNs.clone();
        for (int i = 0; i < events.length; i++) {
            events[i] += deltaNs;
        }
        return new RequestRecord(id, warmup, shift(intendedNs, deltaNs), shift(sentNs, deltaNs),
                shift(firstTokenNs, deltaNs), shift(firstContentNs, deltaNs), shift(endNs, deltaNs), shift(doneNs, deltaNs),
                promptTokens, outputTokens, outputTokensSource, events, eventTokens, eventTokensSource, eventsPerReadMax,
                coalescedEvents, httpStatus, error, shift(slotNs, deltaNs));
    }

    private static long shift(long ns, long deltaNs) {
        return ns == NONE ? NONE : ns + deltaNs;
    }

    /** This record failed with {@code newError} ({@code kind: detail}). */
    public RequestRecord withError(String newError) {
        return new RequestRecord(id, warmup, intendedNs, sentNs, firstTokenNs, firstContentNs, endNs, doneNs, promptTokens,
                outputTokens, outputTokensSource, eventTimesNs, eventTokens, eventTokensSource, eventsPerReadMax,
                coalescedEvents, httpStatus, newError, slotNs);
    }

    public boolean succeeded() {
        return error == null;
    }

    /** Whether the client called the request off on purpose ({@link Cancellation}): not a failure of the server's. */
    public boolean cancelledByClient() {
        return io.servebench.http.HttpFailure.CLIENT_CANCEL.kind().equals(errorKind());
    }

    /** Whether the request failed for outliving the load's {@link Cancellation#timeout()}. */
    public boolean timedOut() {
        return io.servebench.http.HttpFailure.DEADLINE.kind().equals(errorKind());
    }

    /** The error's kind: the part of {@link #error()} before the first colon. */
    public String errorKind() {
        if (error == null) {
            return null;
        }
        int colon = error.indexOf(':');
        return colon < 0 ? error : error.substring(0, colon);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestRecord r && id == r.id && warmup == r.warmup && intendedNs == r.intendedNs
                && sentNs == r.sentNs && firstTokenNs == r.firstTokenNs && firstContentNs == r.firstContentNs
                && endNs == r.endNs && doneNs == r.doneNs && promptTokens == r.promptTokens
                && outputTokens == r.outputTokens && outputTokensSource == r.outputTokensSource
                && Arrays.equals(eventTimesNs, r.eventTimesNs) && Arrays.equals(eventTokens, r.eventTokens)
                && eventTokensSource == r.eventTokensSource && eventsPerReadMax == r.eventsPerReadMax
                && coalescedEvents == r.coalescedEvents && httpStatus == r.httpStatus
                && java.util.Objects.equals(error, r.error) && slotNs == r.slotNs;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id) * 31 + Long.hashCode(sentNs);
    }

    @Override
    public String toString() {
        return "RequestRecord[id=" + id + ", sent=" + sentNs + ", firstToken=" + firstTokenNs + ", end=" + endNs
                + ", outputTokens=" + outputTokens + "/" + outputTokensSource + ", events=" + eventTimesNs.length
                + ", status=" + httpStatus + ", error=" + error + "]";
    }
}
