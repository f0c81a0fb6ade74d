package io.servebench.metrics;

import io.servebench.results.Distribution;
import io.servebench.results.HistogramBucket;
import io.servebench.stats.Percentiles;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Collects nanosecond samples of one metric: an HdrHistogram (3 significant digits) for the
 * percentiles and the histogram, and exact running moments (West's weighted form of Welford's
 * update, stable when the spread is small next to the mean) for mean and standard deviation.
 */
final class SampleAccumulator {

    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
    private long count;
    private double mean;
    private double m2;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    /** Adds one sample of {@code valueNs} nanoseconds. */
    void add(double valueNs) {
        add(valueNs, 1);
    }

    /** Adds {@code weight} samples, each {@code valueNs} nanoseconds (e.g. the tokens of one multi-token event). */
    void add(double valueNs, long weight) {
        if (valueNs < 0 || Double.isNaN(valueNs)) {
            throw new IllegalArgumentException("negative or NaN sample " + valueNs + " ns; expected a duration >= 0");
        }
        histogram.recordValueWithCount(Math.round(valueNs), weight);
        long newCount = count + weight;
        double delta = valueNs - mean;
        double r = delta * weight / newCount;
        mean += r;
        m2 += count * delta * r;
        count = newCount;
        min = Math.min(min, valueNs);
        max = Math.max(max, valueNs);
    }

    boolean isEmpty() {
        return count == 0;
    }

    /**
     * The samples as a distribution in {@code unit}, or {@code null} when there are none.
     *
     * @param unit {@code "s"} or {@code "ms"}
     */
    Distribution toDistribution(String unit) {
        return toDistribution(unit, true);
    }

    /**
     * The samples as a distribution in {@code unit}, or {@code null} when there are none.
     *
     * @param unit    {@code "s"} or {@code "ms"}
     * @param buckets whether it carries the histogram's buckets (a summary kept for long, such as a time slice's,
     *                does without)
     */
    Distribution toDistribution(String unit, boolean buckets) {
        if (count == 0) {
            return null;
        }
        double scale = switch (unit) {
            case "s" -> 1e-9;
            case "ms" -> 1e-6;
            default -> throw new IllegalArgumentException("unknown time unit \"" + unit + "\"; expected \"s\" or \"ms\"");
        };
        double stdev = count > 1 ? Math.sqrt(m2 / (count - 1)) : 0.0;
        // each bucket's samples stand at its top, as results.json's rawDataHistogram holds them
        List<HistogramBucket> recorded = new ArrayList<>();
        for (HistogramIterationValue v : histogram.recordedValues()) {
            recorded.add(new HistogramBucket(histogram.highestEquivalentValue(v.getValueIteratedTo()) * scale,
                    v.getCountAtValueIteratedTo()));
        }
        double[] values = recorded.stream().mapToDouble(HistogramBucket::value).toArray();
        long[] counts = recorded.stream().mapToLong(HistogramBucket::count).toArray();
        return new Distribution(unit, count, mean * scale, stdev * scale, min * scale,
                percentile(values, counts, 50.0, scale), percentile(values, counts, 90.0, scale),
                percentile(values, counts, 95.0, scale), percentile(values, counts, 99.0, scale),
                percentile(values, counts, 99.9, scale), max * scale, buckets ? recorded : List.of());
    }

    /**
     * A percentile as every report computes it ({@link Percentiles}: numpy's) over the histogram's buckets, kept within
     * the exact extremes that the buckets round, in the distribution's unit.
     */
    private double percentile(double[] values, long[] counts, double p, double scale) {
        return Math.max(min * scale, Math.min(max * scale, Percentiles.of(values, counts, p)));
    }
}
