package io.servebench.results;

import java.util.List;
import java.util.Objects;

/**
 * A limit of a tuner's recommendation that its measurements show, as a code and the values it names; the reports word
 * it in their language (message {@code tuning.caveat.CODE}, the arguments in order), so the algorithm writes no prose.
 *
 * @param code what the caveat says
 * @param args the names, rates and ratios it mentions, formatted ({@code 1.03}, {@code 8}), in the order of
 *             {@link Code}'s description
 */
public record Caveat(Code code, List<String> args) {

    public Caveat {
        Objects.requireNonNull(code, "code");
        args = List.copyOf(args);
    }

    /** A caveat with these arguments. */
    public static Caveat of(Code code, String... args) {
        return new Caveat(code, List.of(args));
    }

    /** What a caveat says; each constant lists its arguments. */
    public enum Code {
        /** Ranked by capacity, which sweeps rates itself: the validation rates were not used. No arguments. */
        VALIDATION_RATES_UNUSED,
        /** An option group's variants were written for another engine than the winner: group, variants, their engine, winner. */
        GROUP_NOT_TRIED,
        /** Nothing beat the baseline, so it is the recommendation: rate. */
        NOTHING_BETTER,
        /** As {@link #NOTHING_BETTER}, tuned at a concurrency: the streams. */
        NOTHING_BETTER_AT_CONCURRENCY,
        /** Slower, not significant within the repetition budget: candidate, base, ratio, repetitions. */
        NOT_SIGNIFICANT_SLOWER,
        /** Faster, not significant within the repetition budget: candidate, base, ratio, repetitions. */
        NOT_SIGNIFICANT_FASTER,
        /** The winning options combined are slower than one alone: the options, the one recommended. */
        COMBINATION_SLOWER,
        /** The winning options combined are not better than the winner: the options, winner, the one recommended. */
        COMBINATION_NOT_BETTER,
        /** A validation rate's measurement failed: rate, the failure. */
        VALIDATION_FAILED,
        /** At a validation rate the recommendation is significantly slower than the baseline: rate. */
        VALIDATION_SLOWER,
        /** At a validation rate the recommendation is not significantly faster than the baseline: rate. */
        VALIDATION_NOT_FASTER,
        /** The speed-up falls as the rate rises: ratio and rate at the lowest, ratio and rate at the highest. */
        GAIN_SHRINKS,
        /** As {@link #NOT_SIGNIFICANT_SLOWER}, ranked by a figure that is no time: candidate, base, ratio, repetitions. */
        NOT_SIGNIFICANT_WORSE,
        /** As {@link #NOT_SIGNIFICANT_FASTER}, ranked by a figure that is no time: candidate, base, ratio, repetitions. */
        NOT_SIGNIFICANT_BETTER,
        /** As {@link #COMBINATION_SLOWER}, ranked by a figure that is no time: the options, the one recommended. */
        COMBINATION_WORSE,
        /** As {@link #VALIDATION_SLOWER}, ranked by a figure that is no time: rate. */
        VALIDATION_WORSE,
        /** As {@link #VALIDATION_NOT_FASTER}, ranked by a figure that is no time: rate. */
        VALIDATION_NOT_BETTER,
        /**
         * Ranked by output throughput at a fixed request rate, where a server that keeps up delivers what is sent
         * whatever its configuration: rate.
         */
        THROUGHPUT_AT_A_RATE,
        /** As {@link #VALIDATION_FAILED}, at a number of closed-loop streams: streams, the failure. */
        VALIDATION_FAILED_AT_CONCURRENCY,
        /** As {@link #VALIDATION_SLOWER}, at a number of closed-loop streams: streams. */
        VALIDATION_SLOWER_AT_CONCURRENCY,
        /** As {@link #VALIDATION_NOT_FASTER}, at a number of closed-loop streams: streams. */
        VALIDATION_NOT_FASTER_AT_CONCURRENCY,
        /** As {@link #VALIDATION_WORSE}, at a number of closed-loop streams: streams. */
        VALIDATION_WORSE_AT_CONCURRENCY,
        /** As {@link #VALIDATION_NOT_BETTER}, at a number of closed-loop streams: streams. */
        VALIDATION_NOT_BETTER_AT_CONCURRENCY,
        /** As {@link #GAIN_SHRINKS}, over numbers of closed-loop streams: ratio and streams at the fewest, at the most. */
        GAIN_SHRINKS_AT_CONCURRENCY
    }
}
