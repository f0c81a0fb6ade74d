package io.servebench.load;

import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Which requests the client calls off on purpose, and when, and the longest any request may last: traffic as
 * deployments see it, where users go away and clients give up. A called-off request's connection is closed, as
 * HTTP/1.1 clients do, so the server sees the client leave.
 *
 * @param percent         percent of measured requests called off, 0 for none; which ones is a draw per request index
 * @param delay           how long after the send (or the first token) a chosen request is called off
 * @param afterFirstToken whether the delay runs from the first token instead of the send (a request that ends or fails
 *                        before its first token is not called off)
 * @param timeout         the longest a request may last from its send, {@code null} for no limit; one still running then
 *                        fails as {@code deadline}
 */
public record Cancellation(double percent, Duration delay, boolean afterFirstToken, Duration timeout) {

    /** No request called off, no limit. */
    public static final Cancellation NONE = new Cancellation(0, Duration.ZERO, false, null);

    public Cancellation {
        if (!(percent >= 0 && percent <= 100)) {
            throw new IllegalArgumentException("cancellation percent must be in [0, 100], got " + percent);
        }
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("cancellation delay must be zero or positive, got " + delay);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive or null (no limit), got " + timeout);
        }
    }

    /** Whether any request is called off or limited. */
    public boolean any() {
        return percent > 0 || timeout != null;
    }

    /**
     * Whether the request of {@code index} is one to call off: a draw of its own from the index, the same in every
     * run, so that which requests are cancelled does not depend on timing.
     */
    public boolean cancels(long index) {
        return percent > 0 && new SplittableRandom(index * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L).nextDouble() * 100
                < percent;
    }
}
