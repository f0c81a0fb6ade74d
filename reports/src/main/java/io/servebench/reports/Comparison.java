package io.servebench.reports;

import io.servebench.results.Distribution;
import io.servebench.results.Metric;
import io.servebench.results.TrialResult;
import java.util.List;
import java.util.Locale;

/**
 * A variant's mean E2E latency against its baseline's, with a significance test at 95%.
 *
 * <p>The test is Welch's t-test. When both sides have two or more repetitions it compares the
 * repetition means (run-to-run noise is what decides). Otherwise it compares the per-request
 * latency distributions (mean, standard deviation and count, repetitions pooled), which only
 * captures the noise within one run: it is stated as such.
 *
 * @param baselineName  the baseline's name in the sentence
 * @param baselineMean  the baseline's score: mean over repetitions of the mean E2E latency, s
 * @param variantName   the variant's name in the sentence
 * @param variantMean   the variant's score, s
 * @param method        how significance was tested
 * @param welch         the test's outcome, {@code null} when {@code method} is {@link Method#NONE} or
 *                      {@link Method#UNKNOWN_SPREAD}
 * @param baselineCount what each side's test sample counts (requests or repetitions), baseline side
 * @param variantCount  the same, variant side
 */
public record Comparison(String baselineName, double baselineMean, String variantName, double variantMean,
                         Method method, Statistics.Welch welch, long baselineCount, long variantCount) {

    /** Confidence level of the verdict. */
    public static final double CONFIDENCE = 0.95;

    /** How significance was tested. */
    public enum Method {
        /** Welch on the repetitions' mean latencies. */
        REPETITION_MEANS,
        /** Welch on per-request latencies (mean, stdev, count), repetitions pooled. */
        PER_REQUEST,
        /** Too few samples on a side to test. */
        NONE,
        /** A side's per-request standard deviation is unknown (results imported without it): not tested. */
        UNKNOWN_SPREAD
    }

    /**
     * Compares two blocks on mean E2E latency.
     *
     * @throws IllegalArgumentException when either block has no E2E latency in any repetition
     */
    public static Comparison of(TrialResult baseline, TrialResult variant) {
        List<Distribution> a = latencies(baseline);
        List<Distribution> b = latencies(variant);
        double meanA = a.stream().mapToDouble(Distribution::mean).average().orElseThrow();
        double meanB = b.stream().mapToDouble(Distribution::mean).average().orElseThrow();
        if (a.size() >= 2 && b.size() >= 2) {
            double[] ma = a.stream().mapToDouble(Distribution::mean).toArray();
            double[] mb = b.stream().mapToDouble(Distribution::mean).toArray();
            Statistics.Welch w = Statistics.welch(meanA, Statistics.stdev(ma), ma.length, meanB, Statistics.stdev(mb),
                    mb.length);
            return new Comparison(baseline.displayName(), meanA, variant.displayName(), meanB, Method.REPETITION_MEANS, w,
                    ma.length, mb.length);
        }
        Pooled pa = Pooled.of(a);
        Pooled pb = Pooled.of(b);
        if (pa.count < 2 || pb.count < 2) {
            return new Comparison(baseline.displayName(), meanA, variant.displayName(), meanB, Method.NONE, null, pa.count,
                    pb.count);
        }
        if (Double.isNaN(pa.stdev) || Double.isNaN(pb.stdev)) {
            return new Comparison(baseline.displayName(), meanA, variant.displayName(), meanB, Method.UNKNOWN_SPREAD, null,
                    pa.count, pb.count);
        }
        Statistics.Welch w = Statistics.welch(pa.mean, pa.stdev, pa.count, pb.mean, pb.stdev, pb.count);
        return new Comparison(baseline.displayName(), meanA, variant.displayName(), meanB, Method.PER_REQUEST, w, pa.count,
                pb.count);
    }

    /** Whether the block has an E2E latency in some repetition, so it can be compared. */
    public static boolean comparable(TrialResult trial) {
        return !latencies(trial).isEmpty();
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

    public boolean significant() {
        return welch != null && welch.significantAt(CONFIDENCE);
    }

    /** "A = x s, B = y s, difference d s (r x faster/slower)", in English. */
    public String sentence() {
        return new ComparisonText(ReportLanguage.EN.messages()).sentence(this);
    }

    /**
     * The verdict in a few words, the ratio only when it is significant: "1.74x faster", "1.03x
     * slower", "no significant difference" or "not tested".
     */
    public String shortVerdict() {
        if (welch == null) {
            return "not tested";
        }
        return significant() ? String.format(Locale.ROOT, "%.2fx %s", ratio(), slower() ? "slower" : "faster")
                : "no significant difference";
    }

    /** The test's two-sided p-value as reports print it, "—" when untested. */
    public String pValue() {
        if (welch == null) {
            return Numbers.ABSENT;
        }
        return welch.p() < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "%.3f", welch.p());
    }

    /** The significance verdict with its method in English, e.g. "no significant difference at 95% (Welch t-test on ...)". */
    public String verdict() {
        return new ComparisonText(ReportLanguage.EN.messages()).verdict(this);
    }

    private static List<Distribution> latencies(TrialResult trial) {
        return trial.repetitions().stream().map(r -> r.distribution(Metric.E2E_LATENCY))
                .flatMap(java.util.Optional::stream).toList();
    }

    /** Mean, sample stdev and count of the union of several distributions' samples. */
    record Pooled(double mean, double stdev, long count) {

        static Pooled of(List<Distribution> parts) {
            long n = parts.stream().mapToLong(Distribution::count).sum();
            double mean = parts.stream().mapToDouble(d -> d.mean() * d.count()).sum() / n;
            double m2 = parts.stream().mapToDouble(d -> (d.count() - 1) * d.stdev() * d.stdev()
                    + d.count() * (d.mean() - mean) * (d.mean() - mean)).sum();
            return new Pooled(mean, n > 1 ? Math.sqrt(m2 / (n - 1)) : 0, n);
        }
    }
}
