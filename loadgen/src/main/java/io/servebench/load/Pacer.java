package io.servebench.load;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Waits until an absolute {@link System#nanoTime()} instant with a few microseconds' precision: it parks
 * until shortly before the instant and spins the rest. How long before is learned from the parks
 * themselves: a park overshoots by the kernel's timer slack plus the scheduler's wake-up latency (50 to
 * 300 us on a small virtual machine, 5 to 60 us on bare metal), so the spin starts a high quantile of the
 * recent overshoots (plus a margin) ahead.
 *
 * <p>The spin is bounded twice, because a spinning sender takes a core from the very threads that read
 * the responses (and, on a small machine, from the server): by a quantile rather than the maximum, so one
 * descheduled park does not widen it, and to a quarter of each wait, so the sender spins at most a quarter
 * of the time whatever the rate. Without those bounds, on two cores at 500 requests/s, overshoots grew
 * under load, the spin grew with them to the whole gap between sends, and the spinning sender used
 * two thirds of a core and made the overload it was measuring (see docs/measurement-truth.md).
 *
 * <p>Used by one thread.
 */
final class Pacer {

    /** Overshoots remembered. */
    private static final int WINDOW = 32;
    /** The spin covers this many of the remembered overshoots: the 90th percentile. */
    private static final int COVERED = 29;
    private static final long MARGIN_NS = 20_000;
    private static final long MIN_SPIN_NS = 20_000;
    private static final long MAX_SPIN_NS = 2_000_000;
    private static final long INITIAL_SPIN_NS = 200_000;
    /** The most of a wait that is spun. */
    private static final int SPIN_SHARE_DIVISOR = 4;
    /** Parks shorter than this are not worth their overshoot: the wait is spun instead. */
    private static final long MIN_PARK_NS = 50_000;

    private final long[] overshoots = new long[WINDOW];
    private final long[] sorted = new long[WINDOW];
    private int next;
    private int learned;
    private long spinNs = INITIAL_SPIN_NS;
    private final LongSupplier clock;
    private final LongConsumer park;

    Pacer() {
        this(System::nanoTime, LockSupport::parkNanos);
    }

    /** A pacer on another clock, for tests: {@code park} sleeps for about the given nanoseconds. */
    Pacer(LongSupplier clock, LongConsumer park) {
        this.clock = clock;
        this.park = park;
    }

    /** Returns at {@code targetNs} or, when it has passed, at once. */
    void waitUntil(long targetNs) {
        waitUntil(targetNs, () -> false);
    }

    /**
     * Returns at {@code targetNs}, at once when it has passed, or as soon as {@code stop} holds after a park that was
     * woken early ({@link LockSupport#unpark}).
     */
    void waitUntil(long targetNs, java.util.function.BooleanSupplier stop) {
        long start = clock.getAsLong();
        long window = Math.max(MIN_SPIN_NS, Math.min(spinNs, (targetNs - start) / SPIN_SHARE_DIVISOR));
        while (true) {
            long now = clock.getAsLong();
            long remaining = targetNs - now;
            if (remaining <= 0) {
                return;
            }
            if (remaining > window + MIN_PARK_NS) {
                long ask = remaining - window;
                park.accept(ask);
                learn(clock.getAsLong() - now - ask);
                if (stop.getAsBoolean()) {
                    return;
                }
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** How long before a target the spin begins now, at most, ns. */
    long spinNs() {
        return spinNs;
    }

    private void learn(long overshootNs) {
        overshoots[next] = Math.max(0, overshootNs);
        next = (next + 1) % WINDOW;
        learned = Math.min(WINDOW, learned + 1);
        if (learned < WINDOW) {
            spinNs = Math.max(spinNs, clamp(overshootNs + MARGIN_NS));
            return;
        }
        System.arraycopy(overshoots, 0, sorted, 0, WINDOW);
        Arrays.sort(sorted);
        spinNs = clamp(sorted[COVERED - 1] + MARGIN_NS);
    }

    private static long clamp(long ns) {
        return Math.min(MAX_SPIN_NS, Math.max(MIN_SPIN_NS, ns));
    }
}
