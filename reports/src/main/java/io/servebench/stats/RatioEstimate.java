package io.servebench.stats;

import io.servebench.results.HistogramBucket;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * The ratio {@code B / A} of two means with a two-sided confidence interval and the p-value of
 * "the ratio is 1". Two ways to get one:
 * <ul>
 *   <li>{@link #ofRepetitions}: from per-repetition values (run-to-run noise). The interval is
 *       Welch's t interval on the log scale with the delta method: {@code log(mB/mA) ± t·se},
 *       {@code se² = sA²/(nA·mA²) + sB²/(nB·mB²)}, Welch–Satterthwaite degrees of freedom, mapped
 *       back with {@code exp}; so it is never negative and {@code [1/hi, 1/lo]} is the interval of
 *       {@code A / B}.</li>
 *   <li>{@link #bootstrap}: from per-request samples given as histograms (one run: within-run noise
 *       only). Each resample draws as many samples as each side has from its histogram, with
 *       replacement, and takes the ratio of the resampled means; the interval is the percentile
 *       interval of those ratios, rescaled by {@code exact ratio / histogram ratio} so that bucket
 *       rounding (under 0.1% at 3 significant digits) does not shift it. Seeded: the same inputs give
 *       the same interval.</li>
 * </ul>
 *
 * @param ratio      {@code meanB / meanA}
 * @param low        lower bound of the interval on {@code ratio}
 * @param high       upper bound
 * @param p          two-sided p-value of "ratio = 1" (for the bootstrap, twice the smaller share of
 *                   resampled ratios on one side of 1, at best {@code 1 / resamples})
 * @param confidence the interval's confidence level, e.g. 0.95
 */
public record RatioEstimate(double ratio, double low, double high, double p, double confidence) {

    /** Resamples of {@link #bootstrap} unless told otherwise. */
    public static final int DEFAULT_RESAMPLES = 2000;

    /** Whether the interval lies wholly above or below 1: the means differ at {@link #confidence}. */
    public boolean significant() {
        return low > 1 || high < 1;
    }

    /** The same estimate for {@code A / B}: ratio and bounds inverted. */
    public RatioEstimate inverted() {
        return new RatioEstimate(1 / ratio, 1 / high, 1 / low, p, confidence);
    }

    /**
     * Whether per-repetition values measure any run-to-run noise: some value differs from another on either side.
     * Repetitions that all gave the same figure (a deterministic engine sent the same requests) measured none, which
     * is not the same as measuring none to be there.
     */
    public static boolean varies(double[] a, double[] b) {
        return Statistics.stdev(a) > 0 || Statistics.stdev(b) > 0;
    }

    /**
     * The ratio of the means of {@code b} over {@code a}, per-repetition values.
     *
     * @throws IllegalArgumentException when a side has fewer than 2 values, a mean is not positive, or neither side's
     *                                  values {@link #varies vary}
     */
    public static RatioEstimate ofRepetitions(double[] a, double[] b, double confidence) {
        if (a.length < 2 || b.length < 2) {
            throw new IllegalArgumentException("a ratio interval over repetitions needs at least 2 values per side, got "
                    + a.length + " and " + b.length);
        }
        double ma = positiveMean(a, "A");
        double mb = positiveMean(b, "B");
        double ua = relativeVariance(a, ma);
        double ub = relativeVariance(b, mb);
        double ratio = mb / ma;
        double se = Math.sqrt(ua + ub);
        if (se == 0) {
            throw new IllegalArgumentException("neither side's values vary (" + Arrays.toString(a) + " and "
                    + Arrays.toString(b) + "): they measured no run-to-run noise to build an interval from");
        }
        double df = (ua + ub) * (ua + ub) / (ua * ua / (a.length - 1) + ub * ub / (b.length - 1));
        double t = Statistics.studentTQuantile(1 - (1 - confidence) / 2, df);
        double logRatio = Math.log(ratio);
        double p = 2 * (1 - Statistics.studentTCdf(Math.abs(logRatio) / se, df));
        return new RatioEstimate(ratio, Math.exp(logRatio - t * se), Math.exp(logRatio + t * se),
                Math.max(0, Math.min(1, p)), confidence);
    }

    /**
     * Bootstrap interval of {@code meanB / meanA} from each side's per-request histogram.
     *
     * @param a         side A's samples as buckets ({@code value}, {@code count})
     * @param meanA     side A's exact mean (the histogram's bucket values are rounded)
     * @param b         side B's buckets
     * @param meanB     side B's exact mean
     * @param resamples bootstrap resamples, at least 100
     * @param seed      seeds the resampling
     * @throws IllegalArgumentException when a side is empty or a mean is not positive
     */
    public static RatioEstimate bootstrap(List<HistogramBucket> a, double meanA, List<HistogramBucket> b, double meanB,
                                          int resamples, long seed, double confidence) {
        if (resamples < 100) {
            throw new IllegalArgumentException("bootstrap needs at least 100 resamples, got " + resamples);
        }
        if (!(meanA > 0) || !(meanB > 0)) {
            throw new IllegalArgumentException("a ratio of means needs positive means, got " + meanA + " and " + meanB);
        }
        Sampler sa = Sampler.of(a, "A");
        Sampler sb = Sampler.of(b, "B");
        double ratio = meanB / meanA;
        double scale = ratio / (sb.mean() / sa.mean());
        return resampled(ratio, random -> scale * sb.resampledMean(random) / sa.resampledMean(random), resamples, seed,
                confidence);
    }

    /**
     * {@code ratio} with the percentile interval of {@code resamples} draws of {@code draw}, and the two-sided share of
     * draws on the far side of 1 as its p-value.
     */
    private static RatioEstimate resampled(double ratio, ToDoubleFunction<SplittableRandom> draw,
                                           int resamples, long seed, double confidence) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] ratios = new double[resamples];
        int below = 0;
        int above = 0;
        for (int i = 0; i < resamples; i++) {
            double r = draw.applyAsDouble(random);
            ratios[i] = r;
            below += r <= 1 ? 1 : 0;
            above += r >= 1 ? 1 : 0;
        }
        Arrays.sort(ratios);
        double tail = (1 - confidence) / 2;
        double p = Math.max(1.0 / resamples, Math.min(1, 2.0 * Math.min(below, above) / resamples));
        return new RatioEstimate(ratio, quantile(ratios, tail), quantile(ratios, 1 - tail), p, confidence);
    }

    /**
     * The ratio of two distributions' {@code q}-quantiles ({@code B / A}) with a bootstrap interval: each resample
     * draws as many values as each side has from its histogram and takes their {@code q}-quantile (the lowest value
     * with at least {@code q} of the samples at or below it, as HdrHistogram reads a percentile).
     *
     * @param q         the quantile, in (0, 1): 0.99 for P99
     * @param resamples bootstrap resamples, at least 100
     * @throws IllegalArgumentException when a side is empty or a quantile is not positive
     */
    public static RatioEstimate bootstrapQuantile(List<HistogramBucket> a, List<HistogramBucket> b, double q, int resamples,
                                                  long seed, double confidence) {
        if (resamples < 100) {
            throw new IllegalArgumentException("bootstrap needs at least 100 resamples, got " + resamples);
        }
        if (!(q > 0 && q < 1)) {
            throw new IllegalArgumentException("quantile " + q + ": expected a share in (0, 1), e.g. 0.99");
        }
        Sampler sa = Sampler.of(a, "A");
        Sampler sb = Sampler.of(b, "B");
        double qa = sa.quantile(q);
        double qb = sb.quantile(q);
        if (!(qa > 0) || !(qb > 0)) {
            throw new IllegalArgumentException("a ratio of quantiles needs positive quantiles, got " + qa + " and " + qb);
        }
        return resampled(qb / qa, random -> sb.resampledQuantile(random, q) / sa.resampledQuantile(random, q), resamples,
                seed, confidence);
    }

    private static double positiveMean(double[] values, String side) {
        double mean = Statistics.mean(values);
        if (!(mean > 0)) {
            throw new IllegalArgumentException("a ratio of means needs a positive mean; side " + side + " has mean " + mean
                    + " over " + Arrays.toString(values));
        }
        return mean;
    }

    /** Squared standard error of the mean over the mean squared. */
    private static double relativeVariance(double[] values, double mean) {
        double s = Statistics.stdev(values);
        return s * s / values.length / (mean * mean);
    }

    /** Linear interpolation between closest ranks of sorted values. */
    private static double quantile(double[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int lower = (int) Math.floor(position);
        int upper = Math.min(sorted.length - 1, lower + 1);
        return sorted[lower] + (position - lower) * (sorted[upper] - sorted[lower]);
    }

    /**
     * Draws samples from a histogram by inverse transform on its cumulative counts. A draw is a rank in
     * {@code [1, n]}; its bucket is the first whose cumulative count reaches it, found from a guide table (the bucket
     * of the first rank of each of four equal slices of the ranks per bucket) and a short scan forward, not a binary
     * search: the same bucket, so the same resamples as a binary search gives, for a sixth of the time
     * ({@code BootstrapBenchmark}).
     */
    record Sampler(double[] values, long[] cumulative, int[] guide, double slices, double mean) {

        static Sampler of(List<HistogramBucket> buckets, String side) {
            if (buckets.isEmpty()) {
                throw new IllegalArgumentException("side " + side + " has no samples to bootstrap");
            }
            double[] values = new double[buckets.size()];
            long[] cumulative = new long[buckets.size()];
            long total = 0;
            double sum = 0;
            for (int i = 0; i < values.length; i++) {
                values[i] = buckets.get(i).value();
                total += buckets.get(i).count();
                cumulative[i] = total;
                sum += values[i] * buckets.get(i).count();
            }
            if (!(sum > 0)) {
                throw new IllegalArgumentException("side " + side + "'s histogram has mean " + sum / total
                        + "; a ratio of means needs a positive mean");
            }
            int[] guide = new int[4 * values.length];
            double slices = guide.length / (double) total;
            int next = 0;
            for (int k = 0; k < values.length; k++) {
                // the slices whose first rank falls in bucket k: those after the last rank of bucket k - 1, to its own
                for (int last = slice(cumulative[k], slices, guide.length); next <= last; next++) {
                    guide[next] = k;
                }
            }
            return new Sampler(values, cumulative, guide, slices, sum / total);
        }

        /** The slice of a rank: monotone in the rank, so a slice's guide entry is at or before each of its ranks' buckets. */
        private static int slice(long rank, double slices, int count) {
            return Math.min(count - 1, (int) ((rank - 1) * slices));
        }

        /** The bucket of rank {@code rank} in {@code [1, n]}: the first whose cumulative count is at least it. */
        int bucket(long rank) {
            int k = guide[slice(rank, slices, guide.length)];
            while (cumulative[k] < rank) {
                k++;
            }
            return k;
        }

        /** The lowest bucket value with at least {@code q} of the samples at or below it. */
        double quantile(double q) {
            long n = cumulative[cumulative.length - 1];
            return values[bucket(Math.max(1, (long) Math.ceil(q * n)))];
        }

        /** The {@code q}-quantile of as many values as the histogram holds, drawn from it with replacement. */
        double resampledQuantile(SplittableRandom random, double q) {
            long n = cumulative[cumulative.length - 1];
            long[] counts = new long[values.length];
            for (long i = 0; i < n; i++) {
                counts[bucket(random.nextLong(n) + 1)]++;
            }
            long rank = Math.max(1, (long) Math.ceil(q * n));
            long seen = 0;
            for (int k = 0; k < counts.length; k++) {
                seen += counts[k];
                if (seen >= rank) {
                    return values[k];
                }
            }
            return values[values.length - 1];
        }

        double resampledMean(SplittableRandom random) {
            long n = cumulative[cumulative.length - 1];
            double sum = 0;
            for (long i = 0; i < n; i++) {
                sum += values[bucket(random.nextLong(n) + 1)];
            }
            return sum / n;
        }
    }
}
