package io.servebench.stats;

import io.servebench.results.Distribution;

import java.util.List;

/**
 * Mean, sample standard deviation and count of the union of several distributions' samples, exact from each one's own
 * (count, mean, stdev): e.g. every request of every repetition of a block.
 *
 * @param mean  the pooled mean
 * @param stdev the pooled sample standard deviation ({@code n − 1}); NaN when a part lacks its own
 * @param count the samples in all
 */
public record Pooled(double mean, double stdev, long count) {

    /** The union of {@code parts}, e.g. one distribution per repetition. */
    public static Pooled of(List<Distribution> parts) {
        long n = parts.stream().mapToLong(Distribution::count).sum();
        double mean = parts.stream().mapToDouble(d -> d.mean() * d.count()).sum() / n;
        double m2 = parts.stream().mapToDouble(d -> (d.count() - 1) * d.stdev() * d.stdev()
                + d.count() * (d.mean() - mean) * (d.mean() - mean)).sum();
        return new Pooled(mean, n > 1 ? Math.sqrt(m2 / (n - 1)) : 0, n);
    }
}
