package io.servebench.load;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * When the requests of a trial go out.
 *
 * <p>{@link Scheduled} profiles are open loop: every intended send time is fixed in advance as an
 * absolute offset from one start instant, so a slow server (or a slow client) shows up as schedule lag
 * rather than as a lower offered rate. {@link Rate} profiles ({@link Constant}, {@link Poisson},
 * {@link Gamma}) offer a mean rate, and may start with a linear {@link RampUp}; {@link Throughput}
 * sends everything at once; {@link Trace} replays recorded arrival times; any scheduled profile may be
 * {@link Capped} at a number of requests in flight. {@link Concurrent} and {@link Synchronous} are closed loop: a fixed number of streams, each
 * sending its next request as soon as its previous one ends.
 */
public sealed interface ArrivalProfile
        permits ArrivalProfile.Scheduled, ArrivalProfile.Concurrent, ArrivalProfile.Synchronous {

    /**
     * The most requests the profile itself keeps in flight: a closed loop's streams, a {@link Capped} schedule's cap;
     * 0 where only the schedule and the server decide.
     */
    default int maxInFlight() {
        return 0;
    }

    /** An open-loop profile whose intended send times are known before the first request goes out. */
    sealed interface Scheduled extends ArrivalProfile permits Rate, Throughput, Trace, RampUp, Capped {

        /**
         * The intended send times of the first {@code count} requests (of all of them, when a {@link Trace}
         * holds fewer), in nanoseconds after the start instant: non-decreasing, the first one 0. Each is
         * computed from its index alone (never as a sum of rounded gaps), so rounding does not accumulate
         * into drift.
         */
        long[] offsetsNs(int count);

        /** The schedule without its cap on the requests in flight: itself, unless it is {@link Capped}. */
        default Scheduled uncapped() {
            return this;
        }
    }

    /**
     * An open-loop profile with a mean rate. Offsets are prefix-stable: the first {@code n} offsets do not
     * depend on how many are asked for, so a schedule can be extended (e.g. by a time-based warm-up).
     */
    sealed interface Rate extends Scheduled permits Constant, Poisson, Gamma {

        /** The mean rate in requests per second. */
        double meanRate();
    }

    /**
     * Evenly spaced requests: request {@code i} is due {@code i / ratePerSecond} seconds after the start.
     *
     * @param ratePerSecond requests per second, finite and {@code > 0}
     */
    record Constant(double ratePerSecond) implements Rate {
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

        @Override
        public double meanRate() {
            return ratePerSecond;
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
    record Poisson(double rate, long seed) implements Rate {
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

        @Override
        public double meanRate() {
            return rate;
        }
    }

    /**
     * Gamma-distributed gaps, as {@code vllm bench serve --burstiness}: shape {@code burstiness}, scale
     * {@code 1 / (rate · burstiness)}, so the mean gap is {@code 1 / rate} whatever the burstiness and the
     * gaps' coefficient of variation is {@code 1 / sqrt(burstiness)}. Burstiness 1 is a Poisson process;
     * below 1 requests come in bursts, above 1 they are more evenly spaced. Seeded; the first request is
     * due at the start instant.
     *
     * @param rate       requests per second on average, finite and {@code > 0}
     * @param burstiness the gamma shape, finite and {@code > 0}
     * @param seed       seed of the gap generator
     */
    record Gamma(double rate, double burstiness, long seed) implements Rate {
        public Gamma {
            requirePositiveRate(rate);
            if (!(burstiness > 0) || Double.isInfinite(burstiness)) {
                throw new IllegalArgumentException("burstiness must be a finite number > 0 (1 = Poisson), got "
                        + burstiness);
            }
        }

        @Override
        public long[] offsetsNs(int count) {
            requireCount(count);
            long[] offsets = new long[count];
            GammaSampler gaps = new GammaSampler(burstiness, 1.0 / (rate * burstiness), seed);
            double atSeconds = 0;
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    atSeconds += gaps.next();
                }
                offsets[i] = Math.round(atSeconds * 1e9);
            }
            return offsets;
        }

        @Override
        public double meanRate() {
            return rate;
        }
    }

    /**
     * Every request due at the start instant: the most load the client can offer, as guidellm's
     * {@code throughput} profile. Pair it with {@link Capped} to bound the requests in flight.
     */
    record Throughput() implements Scheduled {
        @Override
        public long[] offsetsNs(int count) {
            requireCount(count);
            return new long[count];
        }
    }

    /**
     * Recorded arrivals, replayed: request {@code i} is due {@code offsetsNs[i]} after the start, as a
     * production trace's timestamps say (already scaled by the trace's {@code timeScale}). A trace holds
     * a fixed number of requests, and a load of it ends with them.
     *
     * @param offsetsNs each request's arrival, nanoseconds after the first one's: non-decreasing, the first 0
     */
    record Trace(long[] offsetsNs) implements Scheduled {
        public Trace {
            Objects.requireNonNull(offsetsNs, "offsetsNs");
            if (offsetsNs.length == 0 || offsetsNs[0] != 0) {
                throw new IllegalArgumentException("a trace needs at least one arrival and its first at 0");
            }
            for (int i = 1; i < offsetsNs.length; i++) {
                if (offsetsNs[i] < offsetsNs[i - 1]) {
                    throw new IllegalArgumentException("trace arrival " + i + " (" + offsetsNs[i] + " ns) comes before"
                            + " the one before it (" + offsetsNs[i - 1] + " ns); expected non-decreasing times");
                }
            }
            offsetsNs = offsetsNs.clone();
        }

        @Override
        public long[] offsetsNs(int count) {
            requireCount(count);
            return java.util.Arrays.copyOf(offsetsNs, Math.min(count, offsetsNs.length));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Trace t && java.util.Arrays.equals(offsetsNs, t.offsetsNs);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(offsetsNs);
        }

        @Override
        public String toString() {
            return "Trace[" + offsetsNs.length + " arrivals over " + offsetsNs[offsetsNs.length - 1] / 1_000_000 + " ms]";
        }
    }

    /**
     * A rate profile whose rate grows linearly from 0 to its mean rate {@code R} over the first
     * {@code seconds}, then stays at {@code R}. Intended times are the inverse of the integrated rate
     * {@code Λ(t) = R t² / (2T)} for {@code t ≤ T}, {@code R (t − T/2)} after: the base profile's offset
     * {@code u} (its arrivals at a steady {@code R}) maps to {@code t = sqrt(2 T u)} for {@code u ≤ T/2} and
     * {@code t = u + T/2} after. For {@link Constant} this puts request {@code i} exactly where
     * {@code Λ(t) = i}; for {@link Poisson} it is the time change that gives a Poisson process of the ramped
     * intensity. Still absolute and precomputed.
     *
     * @param base    the steady profile
     * @param seconds the ramp's length {@code T}, finite and {@code > 0}
     */
    record RampUp(Rate base, double seconds) implements Scheduled {
        public RampUp {
            Objects.requireNonNull(base, "base");
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("ramp-up must last a finite number of seconds > 0, got " + seconds);
            }
        }

        @Override
        public long[] offsetsNs(int count) {
            long[] steady = base.offsetsNs(count);
            long[] ramped = new long[count];
            double halfNs = seconds * 0.5e9;
            for (int i = 0; i < count; i++) {
                double u = steady[i];
                ramped[i] = u <= halfNs ? Math.round(Math.sqrt(2 * seconds * 1e9 * u)) : Math.round(u + halfNs);
            }
            return ramped;
        }
    }

    /**
     * A scheduled profile with at most {@code maxConcurrency} requests in flight. A request whose time has
     * come while the cap is reached waits, in schedule order, for one to finish: that wait is client
     * queueing, recorded per request ({@link RequestRecord#slotNs()}) and reported as its own metric, and
     * it is part of every latency measured from the schedule.
     *
     * @param schedule       when requests are due
     * @param maxConcurrency the most requests in flight, {@code >= 1}
     */
    record Capped(Scheduled schedule, int maxConcurrency) implements Scheduled {
        public Capped {
            Objects.requireNonNull(schedule, "schedule");
            if (schedule instanceof Capped) {
                throw new IllegalArgumentException("profile " + schedule + " is already capped; expected one cap");
            }
            if (maxConcurrency < 1) {
                throw new IllegalArgumentException("concurrency cap must be >= 1 request in flight, got " + maxConcurrency);
            }
        }

        @Override
        public long[] offsetsNs(int count) {
            return schedule.offsetsNs(count);
        }

        @Override
        public int maxInFlight() {
            return maxConcurrency;
        }

        @Override
        public Scheduled uncapped() {
            return schedule;
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

        @Override
        public int maxInFlight() {
            return streams;
        }
    }

    /**
     * One request at a time: each request goes out when the previous one has ended, as guidellm's
     * {@code synchronous} profile; the same as {@code Concurrent(1)}, named for what it measures
     * (latency without queueing).
     */
    record Synchronous() implements ArrivalProfile {
        @Override
        public int maxInFlight() {
            return 1;
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
