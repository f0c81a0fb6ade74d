package io.servebench.study;

import io.servebench.measure.Metric;
import io.servebench.measure.Stat;

import java.util.List;
import java.util.Optional;

/**
 * A study's {@code @Tune} as the tuner uses it, checked.
 *
 * @param engineGroup     the group of the candidate engines
 * @param metric          the primary metric, a per-request distribution or a figure of each repetition (lower is
 *                        better, but for {@link #HIGHER_IS_BETTER})
 * @param stat            what of it is compared: its mean, or a percentile
 * @param byCapacity      rank by capacity under the SLOs instead (higher is better); {@code metric} and {@code stat}
 *                        are then {@link Metric#GOODPUT} and its mean
 * @param validationRates rates at which the recommendation is checked against the baseline, requests/s
 * @param validationConcurrencies closed-loop streams at which it is, for a study tuned at a concurrency
 * @param maxRepetitions  most repetitions of one configuration, at least 1
 * @param closeCall       the smallest ratio above 1 worth another repetition when not significant
 */
public record TuneParams(String engineGroup, Metric metric, Stat stat, boolean byCapacity, List<Double> validationRates,
                       List<Integer> validationConcurrencies, int maxRepetitions, double closeCall) {

    /** The metric name that ranks by capacity under the SLOs. */
    public static final String CAPACITY = "capacity";

    /** The metrics a tuner may rank by: per-request times, lower is better. */
    public static final List<Metric> METRICS = List.of(Metric.E2E_LATENCY, Metric.TTFT, Metric.TPOT, Metric.ITL);

    /**
     * The figures of a whole repetition a tuner may rank by: compared on their mean over repetitions, which is then their
     * only noise estimate. Lower is better, but for {@link #HIGHER_IS_BETTER}.
     */
    public static final List<Metric> REPETITION_METRICS = List.of(Metric.ENERGY_PER_OUTPUT_TOKEN, Metric.ENERGY_PER_REQUEST,
            Metric.COST_PER_MILLION_OUTPUT_TOKENS, Metric.GOODPUT, Metric.SLO_ATTAINMENT, Metric.OUTPUT_THROUGHPUT,
            Metric.OUTPUT_TOKENS_PER_JOULE);

    /** The figures a tuner ranks higher first: what a configuration delivers, not what it costs. */
    public static final List<Metric> HIGHER_IS_BETTER = List.of(Metric.GOODPUT, Metric.SLO_ATTAINMENT,
            Metric.OUTPUT_THROUGHPUT, Metric.OUTPUT_TOKENS_PER_JOULE);

    /** The figures counted under the SLOs, which a study ranked by them must state. */
    public static final List<Metric> UNDER_SLOS = List.of(Metric.GOODPUT, Metric.SLO_ATTAINMENT);

    /** What of a metric a tuner may rank by: its mean, or a percentile. */
    public static final List<Stat> STATS = List.of(Stat.MEAN, Stat.MEDIAN, Stat.P90, Stat.P95, Stat.P99, Stat.P999);

    public TuneParams {
        validationRates = List.copyOf(validationRates);
        validationConcurrencies = List.copyOf(validationConcurrencies);
        if (engineGroup.isBlank()) {
            throw new IllegalArgumentException("@Tune(engineGroup = \"\"): expected the name of the candidate engines' group");
        }
        if (byCapacity ? metric != Metric.GOODPUT || stat != Stat.MEAN
                : REPETITION_METRICS.contains(metric) ? stat != Stat.MEAN : !METRICS.contains(metric) || !STATS.contains(stat)) {
            throw new IllegalArgumentException("@Tune(metric = \"" + metric.id() + "." + stat.id() + "\"): expected one of "
                    + ids());
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
        for (int streams : validationConcurrencies) {
            if (streams < 1) {
                throw new IllegalArgumentException("@Tune(validationConcurrencies = " + validationConcurrencies + "): "
                        + streams + " is not a number of streams; expected 1 or more");
            }
        }
        if (!validationRates.isEmpty() && !validationConcurrencies.isEmpty()) {
            throw new IllegalArgumentException("@Tune(validationRates, validationConcurrencies): a study is validated at"
                    + " rates or at concurrencies, as it is tuned at one or the other; expected one of them");
        }
    }

    /** Without validation concurrencies. */
    public TuneParams(String engineGroup, Metric metric, Stat stat, boolean byCapacity, List<Double> validationRates,
                      int maxRepetitions, double closeCall) {
        this(engineGroup, metric, stat, byCapacity, validationRates, List.of(), maxRepetitions, closeCall);
    }

    /**
     * Reads {@code metric} or {@code metric.stat} ({@code e2e_latency}, {@code ttft.p99}): the metric and the statistic,
     * in a spec with every other setting at its default.
     *
     * @throws IllegalArgumentException naming the text and what was expected
     */
    public static TuneParams parse(String text, String where) {
        if (CAPACITY.equals(text)) {
            return new TuneParams("engine-selection", Metric.GOODPUT, Stat.MEAN, true, List.of(), 3, 1.02);
        }
        int dot = text.indexOf('.');
        String metricId = dot < 0 ? text : text.substring(0, dot);
        String statId = dot < 0 ? Stat.MEAN.id() : text.substring(dot + 1);
        Optional<Metric> metric = Metric.byId(metricId).filter(m -> METRICS.contains(m) || REPETITION_METRICS.contains(m));
        Optional<Stat> stat = STATS.stream().filter(s -> s.id().equals(statId)).findFirst()
                .filter(s -> s == Stat.MEAN || metric.filter(REPETITION_METRICS::contains).isEmpty());
        if (metric.isEmpty() || stat.isEmpty()) {
            throw new IllegalArgumentException("@Tune(metric = \"" + text + "\") on " + where + ": expected one of " + ids());
        }
        return new TuneParams("engine-selection", metric.get(), stat.get(), false, List.of(), 3, 1.02);
    }

    /** Whether a higher score is the better: a capacity, a goodput, a throughput; else a time or a cost. */
    public boolean higherIsBetter() {
        return byCapacity || HIGHER_IS_BETTER.contains(metric);
    }

    /** Whether the score is a per-request time (latency, TTFT, TPOT, ITL), whose differences read as faster or slower. */
    public boolean ranksATime() {
        return METRICS.contains(metric) && !byCapacity;
    }

    /**
     * What the primary metric reads as in reports: {@code Mean Latency(s)}, {@code P99 TTFT (ms)}, {@code Goodput (req/s),
     * higher is better}; a capacity in what a load counts where the tuner works ({@code capacityUnit}: requests or
     * conversations per second, or closed-loop streams).
     */
    public String label(String capacityUnit) {
        return byCapacity ? "Capacity under SLOs (" + capacityUnit + ")" : HIGHER_IS_BETTER.contains(metric)
                ? metric.label() + ", higher is better" : REPETITION_METRICS.contains(metric) ? metric.label()
                : stat.label() + " " + metric.label();
    }

    public static String ids() {
        return String.join(", ", METRICS.stream().map(Metric::id).toList()) + ", each alone (its mean) or with ."
                + String.join(", .", STATS.stream().filter(s -> s != Stat.MEAN).map(Stat::id).toList())
                + " (e.g. ttft.p99); " + String.join(", ", REPETITION_METRICS.stream()
                        .filter(m -> !HIGHER_IS_BETTER.contains(m)).map(Metric::id).toList())
                + " (from GPU telemetry, compared over repetitions); " + String.join(", ", HIGHER_IS_BETTER.stream()
                        .map(Metric::id).toList())
                + " (higher is better, compared over repetitions; goodput and slo_attainment need SLOs); or " + CAPACITY
                + " (the highest request rate meeting the SLOs)";
    }
}
