package io.servebench.study;

import io.servebench.annotations.Tune;

import java.util.List;
import java.util.Objects;

/**
 * What a study's {@code @Tune} says, as written (the annotation's defaults where an attribute is left out). Nothing is
 * checked here: {@link StudyChecker} reports each bad value; {@link #params} resolves checked ones.
 *
 * @param engineGroup     the group of the candidate engines
 * @param metric          the primary metric as written: {@code ttft.p99}, {@code capacity}, ...
 * @param validationRates rates at which the recommendation is checked against the baseline, requests/s
 * @param validationConcurrencies closed-loop streams at which it is, for a study tuned at a concurrency
 * @param maxRepetitions  most repetitions of one configuration
 * @param closeCall       the smallest ratio above 1 worth another repetition
 */
public record TuneOptions(String engineGroup, String metric, List<Double> validationRates,
                          List<Integer> validationConcurrencies, int maxRepetitions, double closeCall) {

    /** {@link Tune#engineGroup()}'s default, which needs no variant of its name (the baseline alone is a candidate). */
    public static final String DEFAULT_ENGINE_GROUP = "engine-selection";

    public TuneOptions {
        Objects.requireNonNull(engineGroup, "engineGroup");
        Objects.requireNonNull(metric, "metric");
        validationRates = List.copyOf(validationRates);
        validationConcurrencies = List.copyOf(validationConcurrencies);
    }

    /** Without validation concurrencies. */
    public TuneOptions(String engineGroup, String metric, List<Double> validationRates, int maxRepetitions,
                       double closeCall) {
        this(engineGroup, metric, validationRates, List.of(), maxRepetitions, closeCall);
    }

    /**
     * The tuner's settings.
     *
     * @param where names the study for messages
     * @throws IllegalArgumentException naming the bad value and what was expected (a study the checker would refuse)
     */
    public TuneParams params(String where) {
        TuneParams parsed = TuneParams.parse(metric, where);
        return new TuneParams(engineGroup, parsed.metric(), parsed.stat(), parsed.byCapacity(), validationRates,
                validationConcurrencies, maxRepetitions, closeCall);
    }
}
