package io.servebench.truth;

import java.util.Arrays;

/**
 * The event loop's pending writes, earliest first (equal times in the order they were added): a binary
 * heap over parallel arrays, so scheduling a write allocates nothing. Not thread-safe.
 */
final class DueQueue {

    private long[] at = new long[256];
    private long[] seq = new long[256];
    private Connection[] connections = new Connection[256];
    private int size;
    private long nextSeq;

    boolean isEmpty() {
        return size == 0;
    }

    /** The earliest due time; only when not empty. */
    long peekTime() {
        return at[0];
    }

    void add(long atNs, Connection connection) {
        if (size == at.length) {
            at = Arrays.copyOf(at, size * 2);
            seq = Arrays.copyOf(seq, size * 2);
            connections = Arrays.copyOf(connections, size * 2);
        }
        int i = size++;
        long s = nextSeq++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(atNs, s, at[parent], seq[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, atNs, s, connection);
    }

    /** Removes and returns the connection whose write is due first; only when not empty. */
    Connection poll() {
        Connection first = connections[0];
        size--;
        long lastAt = at[size];
        long lastSeq = seq[size];
        Connection last = connections[size];
        connections[size] = null;
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(at[child + 1], seq[child + 1], at[child], seq[child])) {
                child++;
            }
            if (!before(at[child], seq[child], lastAt, lastSeq)) {
                break;
            }
            move(child, i);
            i = child;
        }
        if (size > 0) {
            set(i, lastAt, lastSeq, last);
        }
        return first;
    }

    private static boolean before(long aAt, long aSeq, long bAt, long bSeq) {
        // nanoTime values are compared by difference, which survives their wrap-around
        long d = aAt - bAt;
        return d < 0 || (d == 0 && aSeq < bSeq);
    }

    private void move(int from, int to) {
        set(to, at[from], seq[from], connections[from]);
    }

    private void set(int i, long atNs, long s, Connection c) {
        at[i] = atNs;
        seq[i] = s;
        connections[i] = c;
    }
}
