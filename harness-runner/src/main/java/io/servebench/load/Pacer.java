package io.servebench.load;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until an absolute {@link System#nanoTime()} instant with a few microseconds' precision: it parks
 * until shortly before the instant and spins the rest. How long before is learned from the parks
 * themselves: a park overshoots by the kernel's timer slack plus the scheduler's wake-up latency (50 to
 * 300 us on a small virtual machine, 5 to 60 us on bare metal), so the spin starts the largest recent
 * overshoot (plus a margin) ahead. Spinning costs CPU only for that stretch before each send.
 *
 * <p>Used by one thread.
 */
final class Pacer {

    /** Overshoots remembered: the spin window covers the largest of them. */
    private static final int WINDOW = 32;
    private static final long MARGIN_NS = 20_000;
    private static final long MIN_SPIN_NS = 20_000;
    private static final long MAX_SPIN_NS = 2_000_000;
    private static final long INITIAL_SPIN_NS = 200_000;

    private final long[] overshoots = new long[WINDOW];
    private int next;
    private long spinNs = INITIAL_SPIN_NS;

    /** Returns at {@code targetNs} or, when it has passed, at once. */
    void waitUntil(long targetNs) {
        while (true) {
            long now = System.nanoTime();
            long remaining = targetNs - now;
            if (remaining <= 0) {
                return;
            }
            if (remaining > spinNs) {
                long ask = remaining - spinNs;
                LockSupport.parkNanos(ask);
                learn(System.nanoTime() - now - ask);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** How long before a target the spin begins now, ns. */
    long spinNs() {
        return spinNs;
    }

    private void learn(long overshootNs) {
        overshoots[next] = Math.max(0, overshootNs);
        next = (next + 1) % WINDOW;
        long max = 0;
        for (long o : overshoots) {
            max = Math.max(max, o);
        }
        spinNs = Math.min(MAX_SPIN_NS, Math.max(MIN_SPIN_NS, max + MARGIN_NS));
    }
}
