package io.servebench.compare;

import io.servebench.results.HistogramBucket;
import io.servebench.results.jmh.JmhBenchmark;
import io.servebench.results.jmh.JmhJsonWriter;
import io.servebench.results.jmh.JmhMetric;
import io.servebench.stats.RatioEstimate;
import io.servebench.stats.Statistics;
import io.servebench.workload.WorkloadSetting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Compares two JMH result files (ServeBench's {@code results.json} or JMH's own) entry by entry and
 * metric by metric.
 *
 * <p>Entries match when their benchmark and their params agree, params in {@link #IGNORED_PARAMS}
 * excepted: a run with fewer requests (say {@code --quick}) measures the same trial, less precisely. A comparison may
 * leave more params out, to set two configurations side by side (the same load before and after a flag changed).
 * A metric is {@link #PRIMARY} (the primary metric) or a secondary metric's name ({@code ttft.p99}).
 *
 * <p>The verdict's interval is on the ratio B / A at 95%: from the forks' values when both sides have
 * two or more forks and they vary ({@link RatioEstimate#ofRepetitions}; for a primary metric with histograms the
 * forks' histogram means), which decides; else a seeded bootstrap of the primary metric's histograms
 * ({@link RatioEstimate#bootstrap}), which covers within-run noise only and leaves the verdict undecided; otherwise
 * the metric is "not tested".
 */
public final class ResultsComparison {

    /** Name of the primary metric (ServeBench's: mean E2E latency). */
    public static final String PRIMARY = "latency";

    /** Params that do not make two entries different trials. */
    public static final Set<String> IGNORED_PARAMS = Set.of(WorkloadSetting.REQUESTS.key(), WorkloadSetting.WARMUP.key());

    /** Metrics compared when none are named: those present of these. */
    public static final List<String> DEFAULT_METRICS = List.of(PRIMARY, "e2e_latency.p99", "ttft.mean", "ttft.p99",
            "tpot.mean", "itl.mean", "request_throughput", "output_throughput", "goodput");

    /** Which way a metric gets better. */
    public enum Better { LOWER, HIGHER, NEITHER }

    /**
     * One metric of one matched entry.
     *
     * @param metric   the metric's name
     * @param unit     its unit (A's)
     * @param a        A's score
     * @param b        B's score
     * @param better   which way is better
     * @param estimate B / A with its interval, {@code null} when not tested
     * @param method   how the interval was obtained, {@code "not tested"} when it was not
     * @param decided  whether the interval covers run-to-run noise (both sides have 2 or more forks that vary), so
     *                 that it can decide; a within-run bootstrap cannot
     */
    public record Row(String metric, String unit, double a, double b, Better better, RatioEstimate estimate, String method,
                      boolean decided) {

        /** {@code (b − a) / a}, as a fraction. */
        public double change() {
            return (b - a) / a;
        }

        /**
         * Whether B moved the bad way by more than {@code threshold} (a fraction) and the move is decided: beyond the
         * run-to-run noise the forks measured. With {@code acceptWithinRun}, a within-run interval decides too, and a
         * metric with no interval at all regresses on its change alone.
         */
        public boolean regressed(double threshold, boolean acceptWithinRun) {
            double bad = switch (better) {
                case LOWER -> change();
                case HIGHER -> -change();
                case NEITHER -> 0;
            };
            if (!(bad > threshold)) {
                return false;
            }
            if (decided) {
                return estimate.significant();
            }
            return acceptWithinRun && (estimate == null || estimate.significant());
        }

        /**
         * "worse [1.02, 1.09]", "better [...]", "no significant difference [...]", "undecided: ... (within one run:
         * worse [...])", "not tested".
         */
        public String verdict() {
            if (estimate == null) {
                return "not tested";
            }
            String interval = String.format(Locale.ROOT, "[%.3f, %.3f]", estimate.low(), estimate.high());
            if (!decided) {
                return "undecided: run-to-run noise not measured (within one run: " + (estimate.significant()
                        ? direction() + " " : "no significant difference ") + interval + ")";
            }
            if (!estimate.significant()) {
                return "no significant difference " + interval;
            }
            return direction() + " " + interval;
        }

        private String direction() {
            boolean higher = estimate.ratio() > 1;
            return switch (better) {
                case LOWER -> higher ? "worse" : "better";
                case HIGHER -> higher ? "better" : "worse";
                case NEITHER -> higher ? "higher" : "lower";
            };
        }
    }

    /**
     * A param left out of the matching whose values differ between two entries.
     *
     * @param name the param's name
     * @param a    its value in A, {@code null} when A's entry has none
     * @param b    its value in B, {@code null} when B's entry has none
     */
    public record ParamDifference(String name, String a, String b) {

        @Override
        public String toString() {
            return name + ": A " + shown(a) + ", B " + shown(b);
        }

        private static String shown(String value) {
            return value == null ? "none" : value.isEmpty() ? "(empty)" : "`" + value + "`";
        }
    }

    /**
     * A pair of matched entries.
     *
     * @param benchmark   the benchmark name
     * @param params      the params that identify it (decoded, ignored ones left out)
     * @param differences the params left out of the matching that differ between the two entries
     * @param rows        one per compared metric present on both sides
     * @param elsewhere   where the two entries' servers ran, as far as it differs (engine, its version, GPUs): each
     *                    difference a reason beside the change under test; empty when both files say the same, or
     *                    either says nothing
     */
    public record Match(String benchmark, Map<String, String> params, List<ParamDifference> differences,
                        List<Row> rows, List<ParamDifference> elsewhere) {
    }

    /**
     * The whole comparison.
     *
     * @param matches entries present in both files
     * @param onlyInA entries of A without a match in B, as "benchmark {params}"
     * @param onlyInB the same for B
     */
    public record Result(List<Match> matches, List<String> onlyInA, List<String> onlyInB) {
    }

    private ResultsComparison() {
    }

    /**
     * Compares {@code a} with {@code b}, entries matched on their benchmark and params ({@link #IGNORED_PARAMS} aside).
     *
     * @param metrics the metrics to compare, {@link #DEFAULT_METRICS} when empty
     */
    public static Result compare(List<JmhBenchmark> a, List<JmhBenchmark> b, List<String> metrics) {
        return compare(a, b, metrics, Set.of());
    }

    /**
     * Compares {@code a} with {@code b}, entries matched on their benchmark and params, {@link #IGNORED_PARAMS} and
     * {@code ignoredParams} aside.
     *
     * @param metrics       the metrics to compare, {@link #DEFAULT_METRICS} when empty
     * @param ignoredParams more params that do not make two entries different trials here, e.g. {@code flags}
     */
    public static Result compare(List<JmhBenchmark> a, List<JmhBenchmark> b, List<String> metrics,
                                 Set<String> ignoredParams) {
        List<String> wanted = metrics.isEmpty() ? DEFAULT_METRICS : metrics;
        Set<String> ignored = ignored(ignoredParams);
        Map<Key, JmhBenchmark> bByKey = new LinkedHashMap<>();
        b.forEach(e -> bByKey.putIfAbsent(Key.of(e, ignored), e));
        List<Match> matches = new ArrayList<>();
        List<String> onlyInA = new ArrayList<>();
        for (JmhBenchmark ea : a) {
            Key key = Key.of(ea, ignored);
            JmhBenchmark eb = bByKey.remove(key);
            if (eb == null) {
                onlyInA.add(key.toString());
                continue;
            }
            List<Row> rows = new ArrayList<>();
            for (String metric : wanted) {
                JmhMetric ma = metric(ea, metric);
                JmhMetric mb = metric(eb, metric);
                if (ma != null && mb != null && Double.isFinite(ma.score()) && Double.isFinite(mb.score())) {
                    // results.json's units changed (s/op to ms/op, ms to us, req/s to req/min, ...): B is compared in A's
                    double factor = JmhMetric.factor(mb.scoreUnit(), ma.scoreUnit());
                    JmhMetric inA = mb.scoreUnit().equals(ma.scoreUnit()) || Double.isNaN(factor) ? mb
                            : mb.scaled(factor, ma.scoreUnit());
                    rows.add(row(metric, ma, inA, metric.equals(PRIMARY)));
                }
            }
            matches.add(new Match(key.benchmark(), key.params(), differences(ea, eb, key.params().keySet()), rows,
                    elsewhere(ea, eb)));
        }
        List<String> onlyInB = bByKey.keySet().stream().map(Key::toString).toList();
        return new Result(matches, onlyInA, onlyInB);
    }

    /**
     * Where nothing of {@code a} matches {@code b}: what sets apart the entries of one benchmark that differ in the
     * fewest params, {@link #IGNORED_PARAMS} and {@code ignoredParams} aside; empty when no benchmark is on both sides.
     */
    public static List<ParamDifference> nearestDifference(List<JmhBenchmark> a, List<JmhBenchmark> b,
                                                          Set<String> ignoredParams) {
        Set<String> ignored = ignored(ignoredParams);
        List<ParamDifference> nearest = List.of();
        for (JmhBenchmark ea : a) {
            for (JmhBenchmark eb : b) {
                if (!ea.identity().equals(eb.identity())) {
                    continue;
                }
                List<ParamDifference> differing = differences(ea, eb, ignored);
                if (nearest.isEmpty() || differing.size() < nearest.size()) {
                    nearest = differing;
                }
            }
        }
        return nearest;
    }

    private static Set<String> ignored(Set<String> ignoredParams) {
        Set<String> ignored = new java.util.HashSet<>(IGNORED_PARAMS);
        ignored.addAll(ignoredParams);
        return Set.copyOf(ignored);
    }

    /** The params of either entry, but for {@code same}, whose values differ between them, in A's order then B's. */
    private static List<ParamDifference> differences(JmhBenchmark a, JmhBenchmark b, Set<String> same) {
        Map<String, String> pa = a.decodedParams();
        Map<String, String> pb = b.decodedParams();
        Set<String> names = new java.util.LinkedHashSet<>(pa.keySet());
        names.addAll(pb.keySet());
        return names.stream().filter(n -> !same.contains(n) && !java.util.Objects.equals(pa.get(n), pb.get(n)))
                .map(n -> new ParamDifference(n, pa.get(n), pb.get(n))).toList();
    }

    /** What the two entries' environments state differently; nothing where either states none. */
    private static List<ParamDifference> elsewhere(JmhBenchmark a, JmhBenchmark b) {
        return a.environment().keySet().stream().filter(k -> b.environment().containsKey(k)
                        && !a.environment().get(k).equals(b.environment().get(k)))
                .map(k -> new ParamDifference(k, a.environment().get(k), b.environment().get(k))).toList();
    }

    /** Which way the unit gets better: times are better lower, rates and shares higher. */
    public static Better better(String unit) {
        if (unit.equals("s") || unit.equals("ms") || unit.equals("us") || unit.equals("ns") || unit.endsWith("/op")) {
            return Better.LOWER;
        }
        if (unit.equals("J") || unit.startsWith("J/") || unit.startsWith("mJ/") || unit.equals("W") || unit.startsWith("per 1M")) {
            // energy, power and cost: less is better
            return Better.LOWER;
        }
        if (unit.endsWith("/s") || unit.endsWith("/min") || unit.endsWith("/J") || unit.endsWith("/kJ") || unit.equals("%")
                || unit.startsWith("ops/")) {
            return Better.HIGHER;
        }
        return Better.NEITHER;
    }

    private static JmhMetric metric(JmhBenchmark e, String name) {
        String bare = name.startsWith(JmhJsonWriter.SECONDARY_PREFIX) ? name.substring(JmhJsonWriter.SECONDARY_PREFIX.length()) : name;
        return bare.equals(PRIMARY) ? e.primaryMetric() : e.secondaryMetrics().get(bare);
    }

    /** @param primary whether the metric is the primary one, whose histogram holds per-request samples to bootstrap */
    private static Row row(String name, JmhMetric a, JmhMetric b, boolean primary) {
        Better better = better(a.scoreUnit());
        if (!(a.score() > 0) || !(b.score() > 0)) {
            return new Row(name, a.scoreUnit(), a.score(), b.score(), better, null, "not tested", false);
        }
        double[] fa = forkValues(a);
        double[] fb = forkValues(b);
        boolean forks = fa.length >= 2 && fb.length >= 2 && positive(fa) && positive(fb);
        if (forks && RatioEstimate.varies(fa, fb)) {
            return new Row(name, a.scoreUnit(), a.score(), b.score(), better,
                    RatioEstimate.ofRepetitions(fa, fb, Comparison.CONFIDENCE),
                    "Welch interval on " + fa.length + " vs " + fb.length + " fork values", true);
        }
        String unmeasured = forks ? "the forks' values do not vary, so they measured no run-to-run noise"
                : "fewer than 2 forks on a side (" + fa.length + " vs " + fb.length + "): no run-to-run noise measured";
        List<HistogramBucket> ha = primary ? histogram(a) : List.of();
        List<HistogramBucket> hb = primary ? histogram(b) : List.of();
        if (ha.size() > 0 && hb.size() > 0 && count(ha) >= 2 && count(hb) >= 2) {
            return new Row(name, a.scoreUnit(), a.score(), b.score(), better,
                    RatioEstimate.bootstrap(ha, a.score(), hb, b.score(), RatioEstimate.DEFAULT_RESAMPLES,
                            Comparison.BOOTSTRAP_SEED, Comparison.CONFIDENCE),
                    "bootstrap on " + count(ha) + " vs " + count(hb) + " samples, within-run noise only: " + unmeasured,
                    false);
        }
        return new Row(name, a.scoreUnit(), a.score(), b.score(), better, null, "not tested: " + unmeasured, false);
    }

    /** One value per fork: the mean of its iterations' raw data, or of its histogram's samples. */
    private static double[] forkValues(JmhMetric m) {
        if (!m.rawData().isEmpty()) {
            return m.rawData().stream().filter(f -> !f.isEmpty())
                    .mapToDouble(f -> f.stream().mapToDouble(Double::doubleValue).average().orElseThrow()).toArray();
        }
        return m.rawDataHistogram().stream().map(f -> f.stream().flatMap(List::stream).toList()).filter(h -> count(h) > 0)
                .mapToDouble(h -> h.stream().mapToDouble(x -> x.value() * x.count()).sum() / count(h)).toArray();
    }

    private static boolean positive(double[] values) {
        return Statistics.mean(values) > 0;
    }

    private static List<HistogramBucket> histogram(JmhMetric m) {
        List<HistogramBucket> all = new ArrayList<>();
        m.rawDataHistogram().forEach(f -> f.forEach(all::addAll));
        return all;
    }

    private static long count(List<HistogramBucket> buckets) {
        return buckets.stream().mapToLong(HistogramBucket::count).sum();
    }

    /** What makes two entries the same trial. */
    private record Key(String benchmark, Map<String, String> params) {

        static Key of(JmhBenchmark e, Set<String> ignored) {
            Map<String, String> p = new LinkedHashMap<>();
            e.decodedParams().forEach((k, v) -> {
                if (!ignored.contains(k)) {
                    p.put(k, v);
                }
            });
            return new Key(e.identity(), p);
        }

        @Override
        public String toString() {
            return params.isEmpty() ? benchmark : benchmark + " " + params;
        }
    }
}
