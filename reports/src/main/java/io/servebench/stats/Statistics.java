package io.servebench.stats;

/**
 * The few statistics the reports need: Student's t distribution, JMH's score error and Welch's
 * t-test. Implemented here to keep the reports module free of a maths library.
 */
public final class Statistics {

    /** Confidence level of JMH's {@code scoreError}. */
    public static final double SCORE_CONFIDENCE = 0.999;

    private Statistics() {
    }

    /**
     * Outcome of a two-sided Welch t-test of two means.
     *
     * @param t  the statistic {@code (mean2 − mean1) / se}
     * @param df Welch–Satterthwaite degrees of freedom
     * @param p  two-sided p-value
     */
    public record Welch(double t, double df, double p) {

        /** Whether the means differ at the given confidence (e.g. 0.95). */
        public boolean significantAt(double confidence) {
            return p < 1 - confidence;
        }
    }

    /** Arithmetic mean; NaN for no values. */
    public static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return values.length == 0 ? Double.NaN : sum / values.length;
    }

    /** Sample standard deviation ({@code n − 1}); NaN for fewer than two values. */
    public static double stdev(double[] values) {
        if (values.length < 2) {
            return Double.NaN;
        }
        double mean = mean(values);
        double ss = 0;
        for (double v : values) {
            ss += (v - mean) * (v - mean);
        }
        return Math.sqrt(ss / (values.length - 1));
    }

    /**
     * JMH's {@code scoreError}: half-width of the {@link #SCORE_CONFIDENCE} Student-t confidence
     * interval of the mean of {@code values}; NaN for two values or fewer, as JMH reports it.
     */
    public static double scoreError(double[] values) {
        int n = values.length;
        if (n <= 2) {
            return Double.NaN;
        }
        double t = studentTQuantile(1 - (1 - SCORE_CONFIDENCE) / 2, n - 1);
        return t * stdev(values) / Math.sqrt(n);
    }

    /**
     * Welch's t-test from summary statistics (sample standard deviations).
     *
     * <p>When both standard errors are zero the samples are constant: the means differ with
     * certainty ({@code p = 0}) unless they are equal ({@code p = 1}).
     */
    public static Welch welch(double mean1, double stdev1, long n1, double mean2, double stdev2, long n2) {
        if (n1 < 2 || n2 < 2) {
            throw new IllegalArgumentException("Welch's test needs at least 2 samples per side, got " + n1 + " and " + n2);
        }
        double v1 = stdev1 * stdev1 / n1;
        double v2 = stdev2 * stdev2 / n2;
        double se = Math.sqrt(v1 + v2);
        if (se == 0) {
            boolean same = mean1 == mean2;
            return new Welch(same ? 0 : Math.copySign(Double.POSITIVE_INFINITY, mean2 - mean1), n1 + n2 - 2.0,
                    same ? 1 : 0);
        }
        double t = (mean2 - mean1) / se;
        double df = (v1 + v2) * (v1 + v2) / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1));
        double p = 2 * (1 - studentTCdf(Math.abs(t), df));
        return new Welch(t, df, Math.max(0, Math.min(1, p)));
    }

    /** Cumulative distribution function of Student's t with {@code df > 0} degrees of freedom. */
    public static double studentTCdf(double t, double df) {
        if (!(df > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be positive, got " + df);
        }
        if (Double.isInfinite(t)) {
            return t > 0 ? 1 : 0;
        }
        double tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
        return t > 0 ? 1 - tail : tail;
    }

    /** The {@code p}-quantile ({@code 0 < p < 1}) of Student's t with {@code df} degrees of freedom. */
    public static double studentTQuantile(double p, double df) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("quantile probability must be in (0, 1), got " + p);
        }
        double lo = -1;
        double hi = 1;
        while (studentTCdf(lo, df) > p) {
            lo *= 2;
        }
        while (studentTCdf(hi, df) < p) {
            hi *= 2;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, Math.abs(hi)); i++) {
            double mid = (lo + hi) / 2;
            if (studentTCdf(mid, df) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** The regularized incomplete beta function {@code I_x(a, b)} (continued fraction, Numerical Recipes §6.4). */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
        // the continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise
        if (x < (a + 1) / (a + b + 2)) {
            return front * betaContinuedFraction(x, a, b) / a;
        }
        return 1 - front * betaContinuedFraction(1 - x, b, a) / b;
    }

    private static double betaContinuedFraction(double x, double a, double b) {
        final double tiny = 1e-300;
        double qab = a + b;
        double qap = a + 1;
        double qam = a - 1;
        double c = 1;
        double d = 1 - qab * x / qap;
        d = Math.abs(d) < tiny ? tiny : d;
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 10_000; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < 1e-15) {
                break;
            }
        }
        return h;
    }

    /** ln Γ(x) for {@code x > 0} (Lanczos, g = 7, 9 terms; ~15 significant digits). */
    static double logGamma(double x) {
        final double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7};
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        double z = x - 1;
        double sum = c[0];
        for (int i = 1; i < 9; i++) {
            sum += c[i] / (z + i);
        }
        double t = z + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
