package io.servebench.results;

import io.servebench.measure.Stat;
import java.util.List;
import java.util.Objects;

/**
 * Summary of one metric's samples within one repetition. A metric with no samples has no
 * {@code Distribution} at all (it is absent, never a zero).
 *
 * <p>{@code mean}, {@code stdev}, {@code min} and {@code max} are exact (computed from the samples);
 * the percentiles and the histogram come from an HdrHistogram of 3 significant digits, so they are
 * within 0.1% of the true value.
 *
 * @param unit      the unit every value is in: {@code "s"} or {@code "ms"}
 * @param count     number of samples, {@code ≥ 1}
 * @param mean      arithmetic mean
 * @param stdev     sample standard deviation ({@code n − 1} denominator); 0 for a single sample; NaN when unknown
 *                  (results imported from a report that states none): comparisons then stay untested
 * @param min       smallest sample
 * @param p50       median
 * @param p90       90th percentile
 * @param p95       95th percentile
 * @param p99       99th percentile
 * @param p999      99.9th percentile
 * @param max       largest sample
 * @param histogram the samples' histogram, buckets in increasing value order, counts summing to {@code count}
 */
public record Distribution(String unit, long count, double mean, double stdev, double min, double p50, double p90,
                           double p95, double p99, double p999, double max, List<HistogramBucket> histogram) {

    public Distribution {
        Objects.requireNonNull(unit, "unit");
        if (count < 1) {
            throw new IllegalArgumentException("a distribution needs at least one sample, got count " + count
                    + "; a metric without samples is absent instead");
        }
        histogram = List.copyOf(histogram);
    }

    /** The value of one statistic. */
    public double get(Stat stat) {
        return switch (stat) {
            case MEAN -> mean;
            case STDEV -> stdev;
            case MIN -> min;
            case MEDIAN -> p50;
            case P90 -> p90;
            case P95 -> p95;
            case P99 -> p99;
            case P999 -> p999;
            case MAX -> max;
        };
    }
}
