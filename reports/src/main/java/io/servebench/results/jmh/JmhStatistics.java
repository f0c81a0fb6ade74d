package io.servebench.results.jmh;

import io.servebench.results.Distribution;
import io.servebench.results.HistogramBucket;
import io.servebench.stats.Percentiles;
import io.servebench.stats.Pooled;
import io.servebench.stats.Statistics;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A metric's {@code score}, {@code scoreError}, {@code scoreConfidence} and {@code scorePercentiles}, computed as every
 * report of ServeBench computes them, so that one figure has one value in every file: over the samples of all forks at
 * once, as JMH does (a sample-mode primary metric over every request of every repetition, any other metric over its
 * per-fork values). The score is the samples' mean; the error the half-width of the 99.9% Student-t interval of that
 * mean with {@code N − 1} degrees of freedom, NaN for {@code N ≤ 2}, as JMH's; a percentile is numpy's
 * ({@link Percentiles}), which {@code vllm bench serve} reports and the distributions of {@code summary.md} use, where
 * JMH would interpolate at {@code p · (N + 1) / 100} (its sixth definition) instead.
 *
 * <p>A sample-mode primary metric's samples are its requests' latencies as the histogram keeps them (3 significant
 * digits, each the top of its bucket, as {@code rawDataHistogram} holds them); its mean, error, minimum and maximum are
 * the exact ones of the requests, which the reports give too, and its percentiles stay within those extremes. A reader
 * that recomputes the mean from {@code rawDataHistogram} gets it within 0.1%.
 *
 * @param values the distinct sample values, ascending
 * @param counts how often each occurs
 * @param n      the number of samples
 * @param mean   their mean, exact
 * @param stdev  their sample standard deviation, exact; NaN when unknown
 * @param min    the smallest sample, exact
 * @param max    the largest sample, exact
 */
record JmhStatistics(double[] values, long[] counts, long n, double mean, double stdev, double min, double max) {

    /**
     * The requests of every fork, merged: one distribution per fork, its values times {@code scale} (to the unit
     * written).
     */
    static JmhStatistics ofDistributions(List<Distribution> forks, double scale) {
        List<List<HistogramBucket>> buckets = forks.stream()
                .map(d -> d.histogram().stream().map(b -> new HistogramBucket(b.value() * scale, b.count())).toList())
                .toList();
        JmhStatistics merged = ofBuckets(buckets);
        Pooled pooled = Pooled.of(forks);
        double min = forks.stream().mapToDouble(Distribution::min).min().orElse(Double.NaN) * scale;
        double max = forks.stream().mapToDouble(Distribution::max).max().orElse(Double.NaN) * scale;
        return new JmhStatistics(merged.values, merged.counts, merged.n, pooled.mean() * scale, pooled.stdev() * scale,
                min, max);
    }

    /** Samples of one each: per-fork values, as any metric but a sample-mode primary one has them. */
    static JmhStatistics ofValues(List<Double> samples) {
        List<HistogramBucket> buckets = new ArrayList<>();
        samples.forEach(v -> buckets.add(new HistogramBucket(v, 1)));
        return ofBuckets(List.of(buckets));
    }

    /** The samples of histograms, merged, every value exact. */
    private static JmhStatistics ofBuckets(List<List<HistogramBucket>> forks) {
        TreeMap<Double, Long> merged = new TreeMap<>();
        forks.forEach(f -> f.forEach(b -> merged.merge(b.value(), b.count(), Long::sum)));
        double[] values = new double[merged.size()];
        long[] counts = new long[merged.size()];
        long n = 0;
        double sum = 0;
        int i = 0;
        for (var e : merged.entrySet()) {
            values[i] = e.getKey();
            counts[i++] = e.getValue();
            n += e.getValue();
            sum += e.getKey() * e.getValue();
        }
        double mean = n == 0 ? Double.NaN : sum / n;
        double squares = 0;
        for (int k = 0; k < values.length; k++) {
            squares += (values[k] - mean) * (values[k] - mean) * counts[k];
        }
        return new JmhStatistics(values, counts, n, mean, n > 1 ? Math.sqrt(squares / (n - 1)) : Double.NaN,
                n == 0 ? Double.NaN : values[0], n == 0 ? Double.NaN : values[values.length - 1]);
    }

    /** The half-width of the 99.9% Student-t interval of the mean; NaN for two samples or fewer. */
    double error() {
        if (n <= 2) {
            return Double.NaN;
        }
        double t = Statistics.studentTQuantile(1 - (1 - Statistics.SCORE_CONFIDENCE) / 2, n - 1);
        return t * stdev / Math.sqrt(n);
    }

    /** The percentile {@code p} in {@code [0, 100]}, within the exact extremes; NaN for no samples. */
    double percentile(double p) {
        if (n == 0) {
            return Double.NaN;
        }
        if (p == 0) {
            return min;
        }
        if (p == 100) {
            return max;
        }
        return Math.max(min, Math.min(max, Percentiles.of(values, counts, p)));
    }
}
