package io.servebench.metrics;

/**
 * The most requests in flight at once, a request being in flight over {@code [sentNs, doneNs)}, and the time they
 * were in flight in all, computed as requests complete: each adds its start and its end to a {@link TimeQueue},
 * and those before the watermark are taken in time order, an end before a start at the same time (a request ending
 * when another starts does not overlap it). What stays in memory is the points after the watermark.
 */
final class ConcurrencySweep {

    private static final long END = -1;
    private static final long START = +1;

    private final TimeQueue pending = new TimeQueue();
    private long inFlight;
    private long max;
    private long busyNs;
    private long lastTakenNs = Long.MIN_VALUE;
    private long late;
    private boolean any;

    /** A request that was in flight over {@code [sentNs, doneNs)}. */
    void add(long sentNs, long doneNs) {
        if (sentNs < lastTakenNs) {
            late++;
        }
        pending.add(sentNs, START);
        pending.add(doneNs, END);
        busyNs += doneNs - sentNs;
        any = true;
    }

    /** Takes the points before {@code watermarkNs}. */
    void advance(long watermarkNs) {
        while (!pending.isEmpty() && pending.peekTime() < watermarkNs) {
            inFlight += pending.peekWeight();
            max = Math.max(max, inFlight);
            lastTakenNs = pending.peekTime();
            pending.remove();
        }
    }

    /** Whether any request was added. */
    boolean any() {
        return any;
    }

    /** The most requests in flight at once, every point taken. */
    long max() {
        advance(Long.MAX_VALUE);
        return max;
    }

    /** The sum of every request's time in flight, ns: the time-weighted mean times the window's length. */
    long busyNs() {
        return busyNs;
    }

    /** Requests that started before points already taken: each a maximum that may have missed them. */
    long late() {
        return late;
    }

    /** Starts and ends waiting for the watermark. */
    long heldPoints() {
        return pending.size();
    }
}
