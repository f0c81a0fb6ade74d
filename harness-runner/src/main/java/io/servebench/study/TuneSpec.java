package io.servebench.study;

import io.servebench.annotations.Tune;
import io.servebench.results.Metric;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A study's {@link Tune} as the tuner uses it, checked.
 *
 * @param engineGroup     the group of the candidate engines
 * @param metric          the primary metric, a per-request distribution compared on its mean (lower is better)
 * @param validationRates rates at which the recommendation is checked against the baseline, requests/s
 * @param maxRepetitions  most repetitions of one configuration, at least 1
 * @param closeCall       the smallest ratio above 1 worth another repetition when not significant
 */
public record TuneSpec(String engineGroup, Metric metric, List<Double> validationRates, int maxRepetitions, double closeCall) {

    /** The metrics a tuner may rank by: per-request times, lower is better. */
    public static final List<Metric> METRICS = List.of(Metric.E2E_LATENCY, Metric.TTFT, Metric.TPOT, Metric.ITL);

    public TuneSpec {
        validationRates = List.copyOf(validationRates);
        if (engineGroup.isBlank()) {
            throw new IllegalArgumentException("@Tune(engineGroup = \"\"): expected the name of the candidate engines' group");
        }
        if (!METRICS.contains(metric)) {
            throw new IllegalArgumentException("@Tune(metric = \"" + metric.id() + "\"): expected one of " + ids());
        }
        if (maxRepetitions < 1) {
            throw new IllegalArgumentException("@Tune(maxRepetitions = " + maxRepetitions + "): expected at least 1");
        }
        if (!(closeCall >= 1)) {
            throw new IllegalArgumentException("@Tune(closeCall = " + closeCall + "): expected a ratio of 1 or more, e.g. 1.02");
        }
        for (double rate : validationRates) {
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("@Tune(validationRates = " + validationRates + "): " + rate
                        + " is not a request rate; expected requests per second above 0");
            }
        }
    }

    /** The class's {@code @Tune}, read and checked; empty when it has none. */
    public static Optional<TuneSpec> of(Class<?> study) {
        Tune tune = study.getAnnotation(Tune.class);
        if (tune == null) {
            return Optional.empty();
        }
        Metric metric = Metric.byId(tune.metric()).orElseThrow(() -> new IllegalArgumentException("@Tune(metric = \""
                + tune.metric() + "\") on " + study.getName() + ": expected one of " + ids()));
        try {
            return Optional.of(new TuneSpec(tune.engineGroup(), metric, Arrays.stream(tune.validationRates()).boxed().toList(),
                    tune.maxRepetitions(), tune.closeCall()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (on " + study.getName() + ")", e);
        }
    }

    public static String ids() {
        return String.join(", ", METRICS.stream().map(Metric::id).toList());
    }
}
