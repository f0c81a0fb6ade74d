package io.servebench.load;

import java.util.SplittableRandom;

/**
 * When the requests of a trial go out.
 *
 * <p>{@link Scheduled} profiles are open loop: every intended send time is fixed in advance as an
 * absolute offset from one start instant, so a slow server (or a slow client) shows up as schedule lag
 * rather than as a lower offered rate. {@link Concurrent} is closed loop: a fixed number of streams,
 * each sending its next request as soon as its previous one ends.
 */
public sealed interface ArrivalProfile permits ArrivalProfile.Scheduled, ArrivalProfile.Concurrent {

    /** An open-loop profile whose intended send times are known before the first request goes out. */
    sealed interface Scheduled extends ArrivalProfile permits Constant, Poisson {

        /**
         * The intended send times of the first {@code count} requests, in nanoseconds after the start
         * instant: non-decreasing, the first one 0. Each is computed from its index alone (never as a
         * sum of rounded gaps), so rounding does not accumulate into drift.
         */
        long[] offsetsNs(int count);
    }

    /**
     * Evenly spaced requests: request {@code i} is due {@code i / ratePerSecond} seconds after the start.
     *
     * @param ratePerSecond requests per second, finite and {@code > 0}
     */
    record Constant(double ratePerSecond) implements Scheduled {
        public Constant {
            requirePositiveRate(ratePerSecond);
        }

        @Override
        public long[] offsetsNs(int count) {
            requireCount(count);
            long[] offsets = new long[count];
            double gapNs = 1e9 / ratePerSecond;
            for (int i = 0; i < count; i++) {
                offsets[i] = Math.round(i * gapNs);
            }
            return offsets;
        }
    }

    /**
     * A Poisson process: exponentially distributed gaps with mean {@code 1 / rate} seconds, drawn from a
     * generator seeded with {@code seed}, so the same seed gives the same schedule. The first request is
     * due at the start instant.
     *
     * @param rate requests per second on average, finite and {@code > 0}
     * @param seed seed of the gap generator
     */
    record Poisson(double rate, long seed) implements Scheduled {
        public Poisson {
            requirePositiveRate(rate);
        }

        @Override
        public long[] offsetsNs(int count) {
            requireCount(count);
            long[] offsets = new long[count];
            SplittableRandom random = new SplittableRandom(seed);
            // The running sum is kept in double seconds and rounded once per request, so no rounding error accumulates.
            double atSeconds = 0;
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    atSeconds += -Math.log(1.0 - random.nextDouble()) / rate;
                }
                offsets[i] = Math.round(atSeconds * 1e9);
            }
            return offsets;
        }
    }

    /**
     * Closed loop: {@code streams} requests in flight from the start; each time one ends, the next request
     * goes out on that stream. A request's intended send time is the moment its stream became free.
     *
     * @param streams number of concurrent streams, {@code >= 1}
     */
    record Concurrent(int streams) implements ArrivalProfile {
        public Concurrent {
            if (streams < 1) {
                throw new IllegalArgumentException("Concurrent profile needs at least 1 stream, got " + streams);
            }
        }
    }

    private static void requirePositiveRate(double rate) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("arrival rate must be a finite number of requests/s > 0, got " + rate);
        }
    }

    private static void requireCount(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("request count must be >= 0, got " + count);
        }
    }
}
