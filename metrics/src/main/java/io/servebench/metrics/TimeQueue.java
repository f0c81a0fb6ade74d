package io.servebench.metrics;

/**
 * Points in time, each with a weight, taken in any order and given back in time order: a binary min-heap on two
 * primitive arrays, so that a point costs 16 bytes and no object. At equal times the smaller weight comes first.
 */
final class TimeQueue {

    private long[] times = new long[64];
    private long[] weights = new long[64];
    private int size;

    void add(long timeNs, long weight) {
        if (size == times.length) {
            times = java.util.Arrays.copyOf(times, size * 2);
            weights = java.util.Arrays.copyOf(weights, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(timeNs, weight, times[parent], weights[parent])) {
                break;
            }
            times[i] = times[parent];
            weights[i] = weights[parent];
            i = parent;
        }
        times[i] = timeNs;
        weights[i] = weight;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The earliest time; only when not empty. */
    long peekTime() {
        return times[0];
    }

    /** The earliest point's weight; only when not empty. */
    long peekWeight() {
        return weights[0];
    }

    /** Removes the earliest point. */
    void remove() {
        long lastTime = times[--size];
        long lastWeight = weights[size];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(times[child + 1], weights[child + 1], times[child], weights[child])) {
                child++;
            }
            if (!before(times[child], weights[child], lastTime, lastWeight)) {
                break;
            }
            times[i] = times[child];
            weights[i] = weights[child];
            i = child;
        }
        times[i] = lastTime;
        weights[i] = lastWeight;
    }

    private static boolean before(long t1, long w1, long t2, long w2) {
        return t1 < t2 || (t1 == t2 && w1 < w2);
    }
}
