package io.servebench.metrics;

import java.util.Arrays;

/**
 * Token events waiting to be taken in time order, kept as the runs their requests' records already hold (a request's
 * event times, ascending, and their tokens) and merged: a binary heap of the runs by the time of each one's next
 * event. A waiting event costs the 12 bytes of its record's arrays, kept rather than copied; taking one costs a step of
 * a heap of requests, not of events. Not thread-safe.
 */
final class EventRuns {

    private long[][] times = new long[64][];
    private int[][] tokens = new int[64][];
    /** Each run's next event. */
    private int[] next = new int[64];
    /** Each run's next event's time, beside the heap's order so that a step of it reads one array, not two. */
    private long[] heads = new long[64];
    private int runs;
    private long events;

    /**
     * Adds a request's events. The arrays are kept until their last event is taken, so they must not change.
     *
     * @param runTimes  the events' times, ns, in non-decreasing order
     * @param runTokens each event's tokens
     */
    void add(long[] runTimes, int[] runTokens) {
        if (runTimes.length == 0) {
            return;
        }
        if (runs == times.length) {
            times = Arrays.copyOf(times, runs * 2);
            tokens = Arrays.copyOf(tokens, runs * 2);
            next = Arrays.copyOf(next, runs * 2);
            heads = Arrays.copyOf(heads, runs * 2);
        }
        int i = runs++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (runTimes[0] >= head(parent)) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, runTimes, runTokens, 0);
        events += runTimes.length;
    }

    boolean isEmpty() {
        return runs == 0;
    }

    /** The earliest waiting event's time, ns; only when not empty. */
    long peekTime() {
        return head(0);
    }

    /** The earliest waiting event's tokens; only when not empty. */
    int peekTokens() {
        return tokens[0][next[0]];
    }

    /** Takes the earliest waiting event. */
    void remove() {
        events--;
        long[] t = times[0];
        int[] k = tokens[0];
        int n = next[0] + 1;
        if (n == t.length) {
            // the run is spent: its place goes to the last run, which then sinks to where it belongs
            runs--;
            t = times[runs];
            k = tokens[runs];
            n = next[runs];
            set(runs, null, null, 0);
            if (runs == 0) {
                return;
            }
        }
        long at = t[n];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= runs) {
                break;
            }
            if (child + 1 < runs && head(child + 1) < head(child)) {
                child++;
            }
            if (head(child) >= at) {
                break;
            }
            move(child, i);
            i = child;
        }
        set(i, t, k, n);
    }

    /** Events waiting. */
    long size() {
        return events;
    }

    private long head(int run) {
        return heads[run];
    }

    private void move(int from, int to) {
        times[to] = times[from];
        tokens[to] = tokens[from];
        next[to] = next[from];
        heads[to] = heads[from];
    }

    private void set(int run, long[] t, int[] k, int n) {
        times[run] = t;
        tokens[run] = k;
        next[run] = n;
        heads[run] = t == null ? 0 : t[n];
    }
}
