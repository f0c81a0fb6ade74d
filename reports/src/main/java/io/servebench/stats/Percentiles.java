package io.servebench.stats;

/**
 * The one percentile estimator every figure of ServeBench uses: linear interpolation between the two closest ranks,
 * numpy's default ({@code np.percentile(x, p)}, Hyndman and Fan's seventh definition, R's and Excel's
 * {@code PERCENTILE.INC}), which {@code vllm bench serve} and guidellm report. For {@code N} samples in ascending
 * order {@code x[0..N-1]}, the percentile {@code p} is at {@code h = (N − 1) · p / 100}: {@code x[⌊h⌋] + (h − ⌊h⌋) ·
 * (x[⌊h⌋ + 1] − x[⌊h⌋])}; 0 is the minimum and 100 the maximum.
 *
 * <p>Samples come as distinct values with counts, as a histogram's buckets do; a histogram's values stand for their
 * buckets, and the caller keeps the result within the exact extremes.
 */
public final class Percentiles {

    private Percentiles() {
    }

    /**
     * The percentile {@code p} of the samples; NaN for none.
     *
     * @param values distinct sample values, ascending
     * @param counts how often each occurs, each {@code ≥ 1}
     * @param p      in {@code [0, 100]}
     */
    public static double of(double[] values, long[] counts, double p) {
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile " + p + " is not in [0, 100]");
        }
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        if (n == 0) {
            return Double.NaN;
        }
        double h = (n - 1) * p / 100;
        long low = (long) Math.floor(h);
        double below = ranked(values, counts, low);
        double above = low + 1 < n ? ranked(values, counts, low + 1) : below;
        return below + (h - low) * (above - below);
    }

    /** The sample of 0-based rank {@code k} in ascending order. */
    private static double ranked(double[] values, long[] counts, long k) {
        long seen = 0;
        for (int i = 0; i < values.length; i++) {
            seen += counts[i];
            if (seen > k) {
                return values[i];
            }
        }
        return values[values.length - 1];
    }
}
