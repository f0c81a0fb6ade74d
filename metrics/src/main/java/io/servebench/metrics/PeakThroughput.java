package io.servebench.metrics;

import java.util.OptionalDouble;

/**
 * The peak output throughput as DESIGN.md defines it, computed as token events come in: the most output tokens
 * whose events fall in a closed window {@code [t, t + W]} lying in the measurement window, over {@code W}.
 *
 * <p>Events come in any order (a request's events arrive when it completes) and wait in {@link EventRuns}; those
 * before the watermark (no event can come before it any more) are taken in time order. A best window can always be
 * slid right until its left edge meets an event or its right edge meets the measurement window's end, so the left
 * edges tried are the events' distinct times and the end less {@code W}. A left edge {@code t} is tried once every
 * event up to {@code t + W} is known and {@code t + W} is at or before the latest completion so far (so inside the
 * final window); an event is dropped once every edge at or before it has been tried. What stays in memory is the
 * events between the oldest untried edge and the watermark: bounded by the oldest request in flight, not by the run.
 */
final class PeakThroughput {

    private final long windowNs;
    private final EventRuns pending = new EventRuns();
    /** Events taken in time order and still needed, as a ring: [head, head + count). */
    private long[] times = new long[256];
    private long[] tokens = new long[256];
    private int head;
    private int count;
    /** The events of the current edge's window: [0, inWindow) of the ring, their tokens summed. */
    private int inWindow;
    private long windowTokens;
    private long best = -1;
    private long lastTakenNs = Long.MIN_VALUE;
    private long late;

    /** @param windowNs {@code W}, ns */
    PeakThroughput(long windowNs) {
        this.windowNs = windowNs;
    }

    /**
     * The events of a measured, successful request: its record's arrays, kept (not copied) until taken.
     *
     * @param timesNs      the events' times, in non-decreasing order
     * @param eventTokens  each event's tokens
     */
    void add(long[] timesNs, int[] eventTokens) {
        // in order, so the events before the last one taken are the first ones
        for (int i = 0; i < timesNs.length && timesNs[i] < lastTakenNs; i++) {
            late++;
        }
        pending.add(timesNs, eventTokens);
    }

    /**
     * Takes the events before {@code watermarkNs} and tries the left edges that all of them allow.
     *
     * @param latestEndNs the latest completion so far: no window may end after it
     */
    void advance(long watermarkNs, long latestEndNs) {
        while (!pending.isEmpty() && pending.peekTime() < watermarkNs) {
            long t = pending.peekTime();
            // every event before t is taken: the edges whose window ends before it can be tried, and their events
            // dropped, before t's joins them (the ring holds about a window's worth)
            tryEdges(Math.min(t - 1, latestEndNs));
            push(t, pending.peekTokens());
            lastTakenNs = t;
            pending.remove();
        }
        tryEdges(Math.min(watermarkNs - 1, latestEndNs));
    }

    /** Tries, in order, each left edge {@code t} with {@code t + W ≤ limitNs}. */
    private void tryEdges(long limitNs) {
        while (count > 0 && times[head] + windowNs <= limitNs) {
            long edge = times[head];
            // the window [edge, edge + W] holds the events up to edge + W
            while (inWindow < count && at(inWindow) <= edge + windowNs) {
                windowTokens += tokensAt(inWindow);
                inWindow++;
            }
            best = Math.max(best, windowTokens);
            // the next edge is the next distinct time: drop this one's events
            while (count > 0 && times[head] == edge) {
                windowTokens -= tokens[head];
                head = (head + 1) % times.length;
                count--;
                inWindow--;
            }
        }
    }

    /**
     * The peak over the measurement window {@code [startNs, endNs]}, every event taken; empty when the window is
     * shorter than {@code W}.
     */
    OptionalDouble finish(long startNs, long endNs) {
        if (endNs - startNs < windowNs) {
            return OptionalDouble.empty();
        }
        advance(Long.MAX_VALUE, endNs);
        // the window that ends at the measurement window's end
        long lastLeft = endNs - windowNs;
        long rightAligned = 0;
        for (int i = 0; i < count; i++) {
            if (at(i) >= lastLeft && at(i) <= endNs) {
                rightAligned += tokensAt(i);
            }
        }
        return OptionalDouble.of(Math.max(best, rightAligned) / (windowNs / 1e9));
    }

    /** Events that came in after events later than they had been taken: each a window that may have missed them. */
    long lateEvents() {
        return late;
    }

    private void push(long timeNs, long eventTokens) {
        if (count == times.length) {
            long[] t = new long[times.length * 2];
            long[] k = new long[times.length * 2];
            for (int i = 0; i < count; i++) {
                t[i] = at(i);
                k[i] = tokensAt(i);
            }
            times = t;
            tokens = k;
            head = 0;
        }
        int at = (head + count) % times.length;
        times[at] = timeNs;
        tokens[at] = eventTokens;
        count++;
    }

    private long at(int i) {
        return times[(head + i) % times.length];
    }

    private long tokensAt(int i) {
        return tokens[(head + i) % tokens.length];
    }

    /** Events held: waiting for the watermark, or taken and still needed by an untried edge. */
    long heldPoints() {
        return pending.size() + count;
    }
}
