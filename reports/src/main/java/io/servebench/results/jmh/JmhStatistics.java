package io.servebench.results.jmh;

import io.servebench.results.HistogramBucket;
import io.servebench.stats.Statistics;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A metric's {@code score}, {@code scoreError}, {@code scoreConfidence} and {@code scorePercentiles} as JMH 1.37
 * computes them, from all of its samples at once: a sample-mode primary metric from every {@code [value, count]} of
 * its {@code rawDataHistogram}, forks merged ({@code MultisetStatistics}), any other metric from its per-fork values
 * ({@code ListStatistics}). The score is the samples' mean; the error the half-width of the 99.9% Student-t interval
 * of that mean with {@code N − 1} degrees of freedom, NaN for {@code N ≤ 2}; a percentile {@code p} is 0's minimum, and
 * otherwise interpolates between the {@code ⌊pos⌋}-th and the next smallest sample at {@code pos = p · (N + 1) / 100}
 * (Hyndman and Fan's sixth definition, commons-math's {@code Percentile}), the minimum below the first and the maximum
 * from the {@code N}-th on. So a reader that recomputes them from the file gets the same numbers.
 *
 * @param values the distinct sample values, ascending
 * @param counts how often each occurs
 * @param n      the number of samples
 */
record JmhStatistics(double[] values, long[] counts, long n) {

    /** The samples of histograms, merged: one per fork, as a sample-mode primary metric's. */
    static JmhStatistics ofBuckets(List<List<HistogramBucket>> forks) {
        TreeMap<Double, Long> merged = new TreeMap<>();
        forks.forEach(f -> f.forEach(b -> merged.merge(b.value(), b.count(), Long::sum)));
        double[] values = new double[merged.size()];
        long[] counts = new long[merged.size()];
        long n = 0;
        int i = 0;
        for (var e : merged.entrySet()) {
            values[i] = e.getKey();
            counts[i++] = e.getValue();
            n += e.getValue();
        }
        return new JmhStatistics(values, counts, n);
    }

    /** Samples of one each: per-fork values, as any metric but a sample-mode primary one has them. */
    static JmhStatistics ofValues(List<Double> samples) {
        List<HistogramBucket> buckets = new ArrayList<>();
        samples.forEach(v -> buckets.add(new HistogramBucket(v, 1)));
        return ofBuckets(List.of(buckets));
    }

    /** The samples' mean; NaN for none. */
    double mean() {
        double sum = 0;
        for (int i = 0; i < values.length; i++) {
            sum += values[i] * counts[i];
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The half-width of the 99.9% Student-t interval of the mean; NaN for two samples or fewer. */
    double error() {
        if (n <= 2) {
            return Double.NaN;
        }
        double mean = mean();
        double squares = 0;
        for (int i = 0; i < values.length; i++) {
            squares += (values[i] - mean) * (values[i] - mean) * counts[i];
        }
        double t = Statistics.studentTQuantile(1 - (1 - Statistics.SCORE_CONFIDENCE) / 2, n - 1);
        return t * Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
    }

    /** The percentile {@code p} in {@code [0, 100]}; NaN for no samples. */
    double percentile(double p) {
        if (n == 0) {
            return Double.NaN;
        }
        if (p == 0) {
            return values[0];
        }
        double pos = p * (n + 1) / 100;
        double floor = Math.floor(pos);
        double low = smallest((long) floor);
        double high = smallest((long) floor + 1);
        return low + (high - low) * (pos - floor);
    }

    /** The {@code k}-th smallest sample, from 1; the minimum for {@code k < 1}, the maximum beyond {@code n}. */
    private double smallest(long k) {
        long seen = 0;
        for (int i = 0; i < values.length; i++) {
            seen += counts[i];
            if (seen >= k) {
                return values[i];
            }
        }
        return values[values.length - 1];
    }
}
