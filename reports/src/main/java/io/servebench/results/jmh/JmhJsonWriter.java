package io.servebench.results.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.results.BlockResult;
import io.servebench.results.Distribution;
import io.servebench.results.HistogramBucket;
import io.servebench.results.Metric;
import io.servebench.results.RepetitionResult;
import io.servebench.results.ResultFormat;
import io.servebench.results.RunResult;
import io.servebench.results.ServerMetric;
import io.servebench.results.Stat;
import io.servebench.stats.Statistics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Writes {@code results.json} in the format of JMH 1.37's {@code -rf json}: a JSON array with one
 * object per result block, the field names, order and JSON types JMH writes, so JMH tools
 * (jmh-visualizer, JMH's own reader, github-action-benchmark) accept it.
 *
 * <p>Mapping: mode {@code "sample"}; a repetition is a fork of one iteration; the primary metric is
 * the mean E2E latency in {@code s/op} (score: mean of the repetitions' means; {@code scoreError}:
 * 99.9% Student-t half-width over repetitions, NaN for 2 or fewer; percentiles and
 * {@code rawDataHistogram} from the request latencies of all repetitions). Every other number a
 * repetition has is a secondary metric, named as JMH names the secondary results of its profilers, with a
 * {@value #SECONDARY_PREFIX} in front: {@code ·<metric id>} (scalars), {@code ·<metric id>.<stat>} (distributions,
 * e.g. {@code ·ttft.p99}), {@code ·server.<id>} (the engine's own {@link ServerMetric}s), with its unit; its
 * percentiles are over the repetitions' values, as JMH computes them for secondary metrics. Every entry carries the
 * same secondary metrics: one that some blocks of the run lack is left out of every entry
 * ({@link #omittedSecondaryMetrics} says which, and the reports say so).
 *
 * <p>{@code params} are the axes of the entry's study ({@link JmhAxes}): what varies across its entries, the same
 * names in every entry of a class, values free of {@code :}, {@code =} and spaces. Every param of the block as it was
 * (model, dataset, the flags, ...) is in the entry's {@value #EXTRA} object, with its trial and server ids; JMH tools
 * ignore fields they do not know. The {@code jvm}/{@code jdk}/{@code vm} fields describe the JVM that wrote the file
 * (the harness's), since an engine has none. Blocks without any E2E latency (trial failed, or every request failed)
 * are left out: JMH writes no entry for a benchmark that produced no score. Non-finite numbers are written as the
 * strings {@code "NaN"}, {@code "+INF"}, {@code "-INF"}, as JMH does.
 *
 * <p>With a primary metric named ({@code --jmh-primary ttft.p99}) the file is the same with that metric as the
 * primary one (mode {@code avgt}, or {@code thrpt} for a rate) and the mean latency among the secondary metrics: a
 * second series for a CI tracker, which follows the primary score only.
 */
public final class JmhJsonWriter implements ResultFormat {

    /** The JMH version whose format is written. */
    public static final String JMH_VERSION = "1.37";

    /** Unit of the primary metric. */
    public static final String PRIMARY_UNIT = "s/op";

    /** What JMH puts in front of the names of secondary results ({@code ·gc.alloc.rate}), and so ServeBench. */
    public static final String SECONDARY_PREFIX = "\u00b7";

    /** The field of an entry that holds what ServeBench knows beyond JMH's fields: the block's params as they were. */
    public static final String EXTRA = "servebench";

    /** The secondary name of the mean E2E latency, the primary metric of {@code results.json}. */
    static final String LATENCY_MEAN = Metric.E2E_LATENCY.id() + "." + Stat.MEAN.id();

    /** Percentile keys JMH writes, in its order. */
    static final double[] PERCENTILES = {0.0, 50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 99.999, 99.9999, 100.0};

    private static final Stat[] SECONDARY_STATS = {Stat.MEAN, Stat.MEDIAN, Stat.P90, Stat.P95, Stat.P99, Stat.P999,
        Stat.MIN, Stat.MAX};

    private final JsonNodeFactory nodes = JsonNodeFactory.instance;
    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final String primary;

    /** The writer of {@code results.json}: mean E2E latency as the primary metric. */
    public JmhJsonWriter() {
        this.primary = null;
    }

    /**
     * A writer whose primary metric is {@code metric}, a secondary metric's name ({@code ttft.p99},
     * {@code output_throughput}; with or without the {@value #SECONDARY_PREFIX}).
     *
     * @throws IllegalArgumentException when no repetition could have a metric of that name
     */
    public JmhJsonWriter(String metric) {
        String name = metric.startsWith(SECONDARY_PREFIX) ? metric.substring(SECONDARY_PREFIX.length()) : metric;
        if (!knownSecondary(name)) {
            throw new IllegalArgumentException("--jmh-primary " + metric + ": no such metric; expected a secondary"
                    + " metric's name such as ttft.p99, itl.mean, tpot.p90, output_throughput or goodput");
        }
        this.primary = name;
    }

    /** Whether some repetition could have a secondary metric of this name (without its prefix). */
    static boolean knownSecondary(String name) {
        if (name.startsWith("server.") || name.startsWith("error_kind.") || name.startsWith("output_tokens_source.")
                || name.equals("token_events") || name.equals("coalesced_events")) {
            return true;
        }
        for (Metric m : Metric.values()) {
            if (m.kind() == Metric.Kind.SCALAR ? name.equals(m.id())
                    : java.util.Arrays.stream(SECONDARY_STATS).anyMatch(s -> name.equals(m.id() + "." + s.id()))) {
                return true;
            }
        }
        return false;
    }

    /** Writes {@code results.json} for the run's blocks to {@code file} (replacing it). */
    @Override
    public void write(RunResult run, Path file) throws IOException {
        Files.writeString(file, toJson(run), StandardCharsets.UTF_8);
    }

    /** The pretty-printed JSON array. */
    public String toJson(RunResult run) {
        try {
            return mapper.writeValueAsString(toTree(run)) + System.lineSeparator();
        } catch (IOException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }

    /**
     * The JSON array as a tree: one object per block that has an E2E latency in some repetition (and, with another
     * primary metric, that metric).
     */
    public ArrayNode toTree(RunResult run) {
        List<BlockResult> written = written(run).stream()
                .filter(b -> primary == null || secondaryValues(b.repetitions()).containsKey(primary)).toList();
        JmhAxes axes = JmhAxes.of(written);
        java.util.Set<String> common = commonSecondaryNames(written);
        ArrayNode array = nodes.arrayNode();
        for (BlockResult block : written) {
            array.add(entry(block, axes, common));
        }
        return array;
    }

    /** The blocks the file has an entry for: those with an E2E latency in some repetition. */
    private static List<BlockResult> written(RunResult run) {
        return run.blocks().stream()
                .filter(b -> b.repetitions().stream().anyMatch(r -> r.distribution(Metric.E2E_LATENCY).isPresent())).toList();
    }

    /** The secondary metrics every written block has, in catalogue order. */
    private static java.util.Set<String> commonSecondaryNames(List<BlockResult> written) {
        java.util.Set<String> common = null;
        for (BlockResult block : written) {
            java.util.Set<String> names = secondaryValues(block.repetitions()).keySet();
            if (common == null) {
                common = new java.util.LinkedHashSet<>(names);
            } else {
                common.retainAll(names);
            }
        }
        return common == null ? java.util.Set.of() : common;
    }

    /**
     * The secondary metrics some but not all of the file's entries would have had, each with the number of entries
     * that had it: left out of every entry, so that each has the same set.
     */
    public static Map<String, Integer> omittedSecondaryMetrics(RunResult run) {
        List<BlockResult> written = written(run);
        java.util.Set<String> common = commonSecondaryNames(written);
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (BlockResult block : written) {
            secondaryValues(block.repetitions()).keySet().stream().filter(n -> !common.contains(n))
                    .forEach(n -> counts.merge(n, 1, Integer::sum));
        }
        return counts;
    }

    /** How many blocks the file has an entry for. */
    public static int entries(RunResult run) {
        return written(run).size();
    }

    private ObjectNode entry(BlockResult trial, JmhAxes axes, java.util.Set<String> common) {
        List<RepetitionResult> reps = trial.repetitions();
        ObjectNode o = nodes.objectNode();
        o.put("jmhVersion", JMH_VERSION);
        o.put("benchmark", trial.benchmark());
        Map<String, SecondaryValues> values = secondaryValues(reps);
        SecondaryValues primaryValues = primary == null ? null : values.get(primary);
        o.put("mode", primary == null ? "sample" : primaryValues.unit().endsWith("/s") ? "thrpt" : "avgt");
        o.put("threads", 1);
        o.put("forks", reps.size());
        o.put("jvm", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ArrayNode jvmArgs = o.putArray("jvmArgs");
        ManagementFactory.getRuntimeMXBean().getInputArguments().forEach(jvmArgs::add);
        o.put("jdkVersion", System.getProperty("java.version"));
        o.put("vmName", System.getProperty("java.vm.name"));
        o.put("vmVersion", System.getProperty("java.vm.version"));
        o.put("warmupIterations", 0);
        o.put("warmupTime", "0 s");
        o.put("warmupBatchSize", 1);
        o.put("measurementIterations", 1);
        o.put("measurementTime", measurementTime(reps));
        o.put("measurementBatchSize", 1);
        Map<String, String> axisValues = axes.params(trial);
        if (!axisValues.isEmpty()) {
            ObjectNode params = o.putObject("params");
            axisValues.forEach(params::put);
        }
        o.set("primaryMetric", primary == null ? primary(reps) : secondary(primaryValues));
        ObjectNode secondary = o.putObject("secondaryMetrics");
        if (primary != null) {
            secondary.set(SECONDARY_PREFIX + LATENCY_MEAN, secondary(new SecondaryValues(Metric.E2E_LATENCY.unit(),
                    reps.stream().map(r -> r.distribution(Metric.E2E_LATENCY)).flatMap(java.util.Optional::stream)
                            .map(Distribution::mean).toList())));
        }
        values.forEach((name, metric) -> {
            if (common.contains(name) && !name.equals(primary)) {
                secondary.set(SECONDARY_PREFIX + name, secondary(metric));
            }
        });
        ObjectNode extra = o.putObject(EXTRA);
        extra.put("trial", trial.trialId());
        if (trial.serverId() != null) {
            extra.put("server", trial.serverId());
        }
        ObjectNode all = extra.putObject("params");
        trial.params().forEach(all::put);
        return o;
    }

    /** Mean measurement window over repetitions, in JMH's {@code TimeValue} form ("130 s"). */
    private static String measurementTime(List<RepetitionResult> reps) {
        double[] durations = reps.stream().map(r -> r.value(Metric.DURATION)).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).toArray();
        return durations.length == 0 ? "0 s" : Math.round(Statistics.mean(durations)) + " s";
    }

    private ObjectNode primary(List<RepetitionResult> reps) {
        List<Distribution> latencies = reps.stream().map(r -> r.distribution(Metric.E2E_LATENCY))
                .flatMap(java.util.Optional::stream).toList();
        double[] means = latencies.stream().mapToDouble(Distribution::mean).toArray();
        ObjectNode m = score(means);
        ObjectNode percentiles = nodes.objectNode();
        List<HistogramBucket> merged = merge(latencies);
        for (double p : PERCENTILES) {
            putNumber(percentiles, String.valueOf(p), histogramPercentile(merged, p));
        }
        m.set("scorePercentiles", percentiles);
        m.put("scoreUnit", PRIMARY_UNIT);
        ArrayNode forks = m.putArray("rawDataHistogram");
        for (Distribution d : latencies) {
            ArrayNode iteration = forks.addArray().addArray();
            for (HistogramBucket b : d.histogram()) {
                ArrayNode pair = iteration.addArray();
                putNumber(pair, b.value());
                pair.add(b.count());
            }
        }
        return m;
    }

    private ObjectNode secondary(SecondaryValues metric) {
        double[] values = metric.values().stream().mapToDouble(Double::doubleValue).toArray();
        ObjectNode m = score(values);
        ObjectNode percentiles = nodes.objectNode();
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        for (double p : PERCENTILES) {
            putNumber(percentiles, String.valueOf(p), percentile(sorted, p));
        }
        m.set("scorePercentiles", percentiles);
        m.put("scoreUnit", metric.unit());
        ArrayNode raw = m.putArray("rawData");
        for (double v : values) {
            putNumber(raw.addArray(), v);
        }
        return m;
    }

    /** {@code score}, {@code scoreError} and {@code scoreConfidence} of per-repetition values. */
    private ObjectNode score(double[] values) {
        ObjectNode m = nodes.objectNode();
        double score = Statistics.mean(values);
        double error = Statistics.scoreError(values);
        putNumber(m, "score", score);
        putNumber(m, "scoreError", error);
        ArrayNode confidence = m.putArray("scoreConfidence");
        putNumber(confidence, score - error);
        putNumber(confidence, score + error);
        return m;
    }

    private record SecondaryValues(String unit, List<Double> values) {
    }

    /** Secondary metric name to its per-repetition values, in catalogue order. */
    private static Map<String, SecondaryValues> secondaryValues(List<RepetitionResult> reps) {
        Map<String, SecondaryValues> out = new LinkedHashMap<>();
        for (Metric metric : Metric.values()) {
            if (metric.kind() == Metric.Kind.SCALAR) {
                collect(out, metric.id(), metric.unit(), reps.stream().map(r -> r.value(metric)).toList());
            } else {
                for (Stat stat : SECONDARY_STATS) {
                    if (metric == Metric.E2E_LATENCY && stat == Stat.MEAN) {
                        continue; // the primary metric
                    }
                    collect(out, metric.id() + "." + stat.id(), metric.unit(),
                            reps.stream().map(r -> r.number(metric, stat)).toList());
                }
            }
        }
        collect(out, "token_events", "events", reps.stream().map(r -> OptionalDouble.of(r.tokenEvents())).toList());
        collect(out, "coalesced_events", "events",
                reps.stream().map(r -> OptionalDouble.of(r.coalescedEvents())).toList());
        for (ServerMetric metric : ServerMetric.values()) {
            collect(out, "server." + metric.id(), metric.unit(), reps.stream().map(r -> r.value(metric)).toList());
        }
        countsByKey(out, "output_tokens_source.", reps, RepetitionResult::outputTokenSources);
        countsByKey(out, "error_kind.", reps, RepetitionResult::errorKinds);
        return out;
    }

    private static void countsByKey(Map<String, SecondaryValues> out, String prefix, List<RepetitionResult> reps,
                                    java.util.function.Function<RepetitionResult, Map<String, Long>> counts) {
        TreeMap<String, Boolean> keys = new TreeMap<>();
        reps.forEach(r -> counts.apply(r).keySet().forEach(k -> keys.put(k, true)));
        for (String key : keys.keySet()) {
            collect(out, prefix + key, "requests",
                    reps.stream().map(r -> OptionalDouble.of(counts.apply(r).getOrDefault(key, 0L))).toList());
        }
    }

    private static void collect(Map<String, SecondaryValues> out, String name, String unit, List<OptionalDouble> values) {
        List<Double> present = new ArrayList<>();
        values.forEach(v -> v.ifPresent(present::add));
        if (!present.isEmpty()) {
            out.put(name, new SecondaryValues(unit, present));
        }
    }

    private static List<HistogramBucket> merge(List<Distribution> distributions) {
        TreeMap<Double, Long> counts = new TreeMap<>();
        distributions.forEach(d -> d.histogram().forEach(b -> counts.merge(b.value(), b.count(), Long::sum)));
        List<HistogramBucket> merged = new ArrayList<>();
        counts.forEach((v, c) -> merged.add(new HistogramBucket(v, c)));
        return merged;
    }

    /** Nearest-rank percentile of a histogram; 0 gives the lowest bucket, 100 the highest. */
    static double histogramPercentile(List<HistogramBucket> buckets, double p) {
        long total = buckets.stream().mapToLong(HistogramBucket::count).sum();
        long rank = Math.max(1, (long) Math.ceil(p / 100 * total));
        long seen = 0;
        for (HistogramBucket b : buckets) {
            seen += b.count();
            if (seen >= rank) {
                return b.value();
            }
        }
        return buckets.isEmpty() ? Double.NaN : buckets.get(buckets.size() - 1).value();
    }

    /** Percentile of sorted values by linear interpolation between closest ranks. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double position = p / 100 * (sorted.length - 1);
        int lower = (int) Math.floor(position);
        int upper = Math.min(sorted.length - 1, lower + 1);
        return sorted[lower] + (position - lower) * (sorted[upper] - sorted[lower]);
    }

    private static void putNumber(ObjectNode node, String field, double v) {
        node.set(field, number(v));
    }

    private static void putNumber(ArrayNode node, double v) {
        node.add(number(v));
    }

    private static JsonNode number(double v) {
        if (Double.isNaN(v)) {
            return JsonNodeFactory.instance.textNode("NaN");
        }
        if (Double.isInfinite(v)) {
            return JsonNodeFactory.instance.textNode(v > 0 ? "+INF" : "-INF");
        }
        return JsonNodeFactory.instance.numberNode(v);
    }
}
