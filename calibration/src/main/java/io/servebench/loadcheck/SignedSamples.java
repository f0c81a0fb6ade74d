package io.servebench.loadcheck;

import org.HdrHistogram.Histogram;

/**
 * Samples of a signed quantity in nanoseconds (a client's stamp less the server's, which a read that stamps several
 * events at once can make negative), in two HdrHistograms of 3 significant digits, one per sign, so that a run of any
 * length keeps the same few kilobytes. Quantiles are nearest-rank, to the histograms' precision. Not thread-safe.
 */
public final class SignedSamples {

    private final Histogram negative = new Histogram(3);
    private final Histogram positive = new Histogram(3);
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    void add(long ns) {
        min = Math.min(min, ns);
        max = Math.max(max, ns);
        if (ns < 0) {
            negative.recordValue(-ns);
        } else {
            positive.recordValue(ns);
        }
    }

    public long count() {
        return negative.getTotalCount() + positive.getTotalCount();
    }

    /** The nearest-rank {@code q}-quantile, {@code q} in (0, 1]; NaN when there are no samples. */
    public double quantile(double q) {
        long n = count();
        if (n == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(q * n));
        long negatives = negative.getTotalCount();
        if (rank <= negatives) {
            // ascending, the negatives come first, largest magnitude first
            return -smallest(negative, negatives - rank + 1);
        }
        return smallest(positive, rank - negatives);
    }

    /** The {@code k}-th smallest value of a histogram, from 1. */
    private static double smallest(Histogram h, long k) {
        return h.getValueAtPercentile(Math.min(100.0, 100.0 * k / h.getTotalCount()));
    }

    /** The smallest sample, exactly; NaN when there are none. */
    public double min() {
        return count() == 0 ? Double.NaN : min;
    }

    /** The largest sample, exactly; NaN when there are none. */
    public double max() {
        return count() == 0 ? Double.NaN : max;
    }
}
