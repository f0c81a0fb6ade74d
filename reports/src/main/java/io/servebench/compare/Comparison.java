package io.servebench.compare;

import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.Distribution;
import io.servebench.results.HistogramBucket;
import io.servebench.stats.RatioEstimate;
import io.servebench.stats.Statistics;

import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A variant's mean E2E latency against its baseline's: the ratio with a 95% interval and a verdict.
 *
 * <p>When both sides ran two or more repetitions and their values vary the interval comes from the repetitions'
 * mean latencies ({@link RatioEstimate#ofRepetitions}: run-to-run noise decides). Otherwise it is a
 * seeded bootstrap on the per-request latencies, drawn from the latency histograms with the
 * repetitions pooled ({@link RatioEstimate#bootstrap}), which only captures the noise within one
 * run, and so decides nothing: the verdict is {@link #undecided() undecided}, the within-run interval shown for what it
 * is (repetitions that ran but did not vary measured no run-to-run noise either, which is not evidence that there is
 * none). The variant is faster or slower only when the run-to-run interval excludes 1. Results that
 * state no per-request spread (a published table of means and percentiles) are not tested at all,
 * rather than given a significance their numbers cannot support. The reports put it in words.
 *
 * @param baselineName  the baseline's name in the sentence
 * @param baselineMean  the baseline's score: mean over repetitions of the mean E2E latency, s
 * @param variantName   the variant's name in the sentence
 * @param variantMean   the variant's score, s
 * @param method        how the interval was obtained
 * @param estimate      {@code variantMean / baselineMean} with its interval; {@code null} when {@code method} is
 *                      {@link Method#NONE} or {@link Method#UNKNOWN_SPREAD}
 * @param baselineCount what each side's sample counts (requests or repetitions), baseline side
 * @param variantCount  the same, variant side
 * @param repetitions   repetitions of the side with fewer, for the method's description
 */
public record Comparison(String baselineName, double baselineMean, String variantName, double variantMean,
                         Method method, RatioEstimate estimate, long baselineCount, long variantCount, int repetitions) {

    /** Confidence level of the verdict. */
    public static final double CONFIDENCE = 0.95;

    /** Seed of the bootstrap, fixed so that a report is reproducible from its results. */
    public static final long BOOTSTRAP_SEED = 1;

    /** How the interval was obtained. */
    public enum Method {
        /** Welch interval (log scale, delta method) on the repetitions' mean latencies. */
        REPETITION_MEANS,
        /** Bootstrap on the per-request latencies, repetitions pooled. */
        BOOTSTRAP_PER_REQUEST,
        /**
         * Bootstrap on the per-request latencies, repetitions pooled, because the two or more repetitions of each
         * side gave exactly the same figure: they measured no run-to-run noise.
         */
        BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD,
        /** Too few samples on a side to test. */
        NONE,
        /** The results state no per-request spread (no standard deviation): nothing to test with. */
        UNKNOWN_SPREAD
    }

    /**
     * Compares two blocks on mean E2E latency.
     *
     * @throws IllegalArgumentException when either block has no E2E latency in any repetition
     */
    public static Comparison of(BlockResult baseline, BlockResult variant) {
        return of(baseline, variant, Metric.E2E_LATENCY);
    }

    /**
     * Compares two blocks on the mean of a per-request {@code metric} (a distribution: E2E latency, TTFT, TPOT, ITL),
     * as {@link #of(BlockResult, BlockResult)} does on E2E latency; or on a scalar figure of each repetition (energy per
     * output token), by its repetitions only.
     *
     * @throws IllegalArgumentException when either block has no such metric in any repetition
     */
    public static Comparison of(BlockResult baseline, BlockResult variant, Metric metric) {
        if (metric.kind() == Metric.Kind.SCALAR) {
            return ofRepetitions(baseline, variant, metric);
        }
        List<Distribution> a = required(baseline, variant, baseline, metric);
        List<Distribution> b = required(baseline, variant, variant, metric);
        double[] ma = a.stream().mapToDouble(Distribution::mean).toArray();
        double[] mb = b.stream().mapToDouble(Distribution::mean).toArray();
        double meanA = Statistics.mean(ma);
        double meanB = Statistics.mean(mb);
        int repetitions = Math.min(ma.length, mb.length);
        Method bootstrap = Method.BOOTSTRAP_PER_REQUEST;
        if (ma.length >= 2 && mb.length >= 2) {
            if (RatioEstimate.varies(ma, mb)) {
                return new Comparison(baseline.displayName(), meanA, variant.displayName(), meanB, Method.REPETITION_MEANS,
                        RatioEstimate.ofRepetitions(ma, mb, CONFIDENCE), ma.length, mb.length, repetitions);
            }
            bootstrap = Method.BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD;
        }
        long na = a.stream().mapToLong(Distribution::count).sum();
        long nb = b.stream().mapToLong(Distribution::count).sum();
        if (na < 2 || nb < 2) {
            return new Comparison(baseline.displayName(), meanA, variant.displayName(), meanB, Method.NONE, null, na, nb,
                    repetitions);
        }
        if (a.stream().anyMatch(d -> Double.isNaN(d.stdev())) || b.stream().anyMatch(d -> Double.isNaN(d.stdev()))) {
            return new Comparison(baseline.displayName(), meanA, variant.displayName(), meanB, Method.UNKNOWN_SPREAD, null,
                    na, nb, repetitions);
        }
        RatioEstimate estimate = RatioEstimate.bootstrap(merged(a), pooledMean(a), merged(b), pooledMean(b),
                RatioEstimate.DEFAULT_RESAMPLES, BOOTSTRAP_SEED, CONFIDENCE);
        return new Comparison(baseline.displayName(), meanA, variant.displayName(), meanB, bootstrap, estimate, na, nb,
                repetitions);
    }

    /**
     * Compares two blocks on a statistic of a per-request {@code metric}: its mean as {@link #of(BlockResult, BlockResult,
     * Metric)} does, or a percentile ({@link Stat#P99}): from the repetitions' percentiles when both sides ran two or
     * more and they vary ({@link RatioEstimate#ofRepetitions}), otherwise by a seeded bootstrap of the percentile of the pooled
     * per-request values ({@link RatioEstimate#bootstrapQuantile}).
     *
     * @throws IllegalArgumentException when either block has no such distribution, or {@code stat} is no percentile or mean
     */
    public static Comparison of(BlockResult baseline, BlockResult variant, Metric metric, Stat stat) {
        if (stat == Stat.MEAN) {
            return of(baseline, variant, metric);
        }
        double q = switch (stat) {
            case MEDIAN -> 0.5;
            case P90 -> 0.9;
            case P95 -> 0.95;
            case P99 -> 0.99;
            case P999 -> 0.999;
            default -> throw new IllegalArgumentException(stat.label() + " " + metric.label()
                    + ": expected the mean or a percentile (p50, p90, p95, p99, p99.9)");
        };
        List<Distribution> a = required(baseline, variant, baseline, metric);
        List<Distribution> b = required(baseline, variant, variant, metric);
        double[] pa = a.stream().mapToDouble(d -> d.get(stat)).toArray();
        double[] pb = b.stream().mapToDouble(d -> d.get(stat)).toArray();
        int repetitions = Math.min(pa.length, pb.length);
        Method bootstrap = Method.BOOTSTRAP_PER_REQUEST;
        if (pa.length >= 2 && pb.length >= 2) {
            if (RatioEstimate.varies(pa, pb)) {
                return new Comparison(baseline.displayName(), Statistics.mean(pa), variant.displayName(),
                        Statistics.mean(pb), Method.REPETITION_MEANS, RatioEstimate.ofRepetitions(pa, pb, CONFIDENCE),
                        pa.length, pb.length, repetitions);
            }
            bootstrap = Method.BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD;
        }
        long na = a.stream().mapToLong(Distribution::count).sum();
        long nb = b.stream().mapToLong(Distribution::count).sum();
        if (na < 2 || nb < 2 || a.stream().anyMatch(d -> d.histogram().isEmpty()) || b.stream().anyMatch(d -> d.histogram().isEmpty())) {
            return new Comparison(baseline.displayName(), Statistics.mean(pa), variant.displayName(), Statistics.mean(pb),
                    Method.NONE, null, na, nb, repetitions);
        }
        RatioEstimate estimate = RatioEstimate.bootstrapQuantile(merged(a), merged(b), q, RatioEstimate.DEFAULT_RESAMPLES,
                BOOTSTRAP_SEED, CONFIDENCE);
        return new Comparison(baseline.displayName(), Statistics.mean(pa), variant.displayName(), Statistics.mean(pb),
                bootstrap, estimate, na, nb, repetitions);
    }

    /**
     * Whether the block can be compared: it ran to the end (a trial cut short by a crashed engine measured only
     * its first requests) and has an E2E latency in some repetition.
     */
    public static boolean comparable(BlockResult trial) {
        return trial.succeeded() && !latencies(trial).isEmpty();
    }

    /** {@code variantMean − baselineMean}, s. */
    public double difference() {
        return variantMean - baselineMean;
    }

    /** Whether the variant's mean latency is higher. */
    public boolean slower() {
        return variantMean > baselineMean;
    }

    /** How many times faster or slower: the larger mean over the smaller, {@code ≥ 1}. */
    public double ratio() {
        return slower() ? variantMean / baselineMean : baselineMean / variantMean;
    }

    /**
     * Whether the difference is decided: the 95% interval of the ratio over the repetitions (run-to-run noise) excludes
     * 1. A within-run interval decides nothing, however narrow ({@link #undecided()}).
     */
    public boolean significant() {
        return method == Method.REPETITION_MEANS && estimate != null && estimate.significant();
    }

    /**
     * Whether run-to-run noise was not measured (fewer than two repetitions on a side, or repetitions without spread),
     * so that only a within-run interval exists: the verdict is "undecided", whatever that interval says.
     */
    public boolean undecided() {
        return method == Method.BOOTSTRAP_PER_REQUEST || method == Method.BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD;
    }

    /** Whether the interval obtained, of whatever noise, excludes 1: within one run, a hint and no verdict. */
    public boolean intervalExcludesOne() {
        return estimate != null && estimate.significant();
    }

    private static List<Distribution> latencies(BlockResult trial) {
        return distributions(trial, Metric.E2E_LATENCY);
    }

    /**
     * Compares two blocks on a figure of each repetition (energy per token, say), which has no per-request spread: by
     * the repetitions alone, as latency is when they vary; with fewer than two on a side, or none varying, there is no
     * noise estimate and so no test.
     */
    private static Comparison ofRepetitions(BlockResult baseline, BlockResult variant, Metric metric) {
        double[] a = values(baseline, variant, baseline, metric);
        double[] b = values(baseline, variant, variant, metric);
        int repetitions = Math.min(a.length, b.length);
        boolean testable = a.length >= 2 && b.length >= 2 && RatioEstimate.varies(a, b);
        return new Comparison(baseline.displayName(), Statistics.mean(a), variant.displayName(), Statistics.mean(b),
                testable ? Method.REPETITION_MEANS : Method.NONE,
                testable ? RatioEstimate.ofRepetitions(a, b, CONFIDENCE) : null, a.length, b.length, repetitions);
    }

    /** {@code side}'s figure of {@code metric} in each repetition, one of {@code baseline} and {@code variant}; there must be some. */
    private static double[] values(BlockResult baseline, BlockResult variant, BlockResult side, Metric metric) {
        double[] found = side.repetitions().stream().map(r -> r.value(metric)).filter(java.util.OptionalDouble::isPresent)
                .mapToDouble(java.util.OptionalDouble::getAsDouble).toArray();
        if (found.length == 0) {
            throw new IllegalArgumentException("cannot compare " + baseline.benchmark() + " with " + variant.benchmark()
                    + ": " + side.benchmark() + " has no " + metric.label() + " in any repetition");
        }
        return found;
    }

    /** {@code side}'s distributions of {@code metric}, one of {@code baseline} and {@code variant}; there must be some. */
    private static List<Distribution> required(BlockResult baseline, BlockResult variant, BlockResult side, Metric metric) {
        List<Distribution> found = distributions(side, metric);
        if (found.isEmpty()) {
            throw new IllegalArgumentException("cannot compare " + baseline.benchmark() + " with " + variant.benchmark()
                    + ": " + side.benchmark() + " has no " + metric.label() + " in any repetition");
        }
        return found;
    }

    private static List<Distribution> distributions(BlockResult trial, Metric metric) {
        return trial.repetitions().stream().map(r -> r.distribution(metric)).flatMap(Optional::stream).toList();
    }

    private static double pooledMean(List<Distribution> parts) {
        return io.servebench.stats.Pooled.of(parts).mean();
    }

    /** The union of several histograms' buckets. */
    static List<HistogramBucket> merged(List<Distribution> parts) {
        TreeMap<Double, Long> counts = new TreeMap<>();
        parts.forEach(d -> d.histogram().forEach(bucket -> counts.merge(bucket.value(), bucket.count(), Long::sum)));
        return counts.entrySet().stream().map(e -> new HistogramBucket(e.getKey(), e.getValue())).toList();
    }
}
