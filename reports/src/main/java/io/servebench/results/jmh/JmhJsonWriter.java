package io.servebench.results.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.Distribution;
import io.servebench.results.HistogramBucket;
import io.servebench.results.RepetitionResult;
import io.servebench.results.ResultFormat;
import io.servebench.results.RunResult;
import io.servebench.results.ServerMetric;
import io.servebench.stats.Statistics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Writes {@code results.json} in the format of JMH 1.37's {@code -rf json}: a JSON array with one object per result
 * block, the field names, order and JSON types JMH writes, computed as JMH computes them, so that JMH's readers
 * (jmh-visualizer, the Jenkins jmh-report plugin, github-action-benchmark, Bencher, JMH's own) show what ServeBench
 * measured.
 *
 * <p>Mapping: mode {@code "sample"}; a repetition is a fork of one iteration; the primary metric is the E2E latency
 * per request in {@code ms/op}, whose {@code rawDataHistogram} holds each fork's latencies (the block's histogram,
 * 3 significant digits) and whose score, error, confidence and percentiles are computed from all of them at once,
 * forks merged, as JMH does for a sample-mode benchmark ({@link JmhStatistics}): the score is the exact mean latency of
 * every measured request, the error the 99.9% interval of that mean over the requests, so within-run noise, the
 * percentiles numpy's over the histogram within the exact minimum and maximum; with one repetition they equal the
 * secondary metrics {@code ·e2e_latency.mean}, {@code .p99}, {@code .min}, ... to the digit, and with several the
 * secondaries are means over the forks while the primary pools their requests (the entry's {@value #EXTRA} object says
 * so). Every other number a
 * repetition has is a secondary metric, named as JMH up to 1.36 names its profilers' results (jmh-visualizer lists
 * only names that start with {@value #SECONDARY_PREFIX}):
 * {@code ·<metric id>} (scalars), {@code ·<metric id>.<stat>} (distributions, e.g. {@code ·ttft.p99}),
 * {@code ·server.<id>} (the engine's own {@link ServerMetric}s); its score, error and percentiles are over the
 * repetitions' values, as JMH computes them for secondary metrics (the error NaN for 2 repetitions or fewer). Times
 * are written one unit finer than the reports give them (seconds as {@code ms}, milliseconds as {@code us}), so
 * that a reader that rounds scores above 5 to whole numbers (jmh-visualizer) still shows three significant digits.
 * A secondary metric of a sample-mode entry also has a {@code rawDataHistogram} of its per-fork values, which the
 * Jenkins plugin's visualizer reads for every metric of such an entry. Every entry carries the same secondary
 * metrics: one that some blocks of the run lack is left out of every entry ({@link #omittedSecondaryMetrics} says
 * which, and the reports say so).
 *
 * <p>{@code benchmark} and {@code params} are as {@link JmhAxes} names them: the variant with its own {@code @Param}
 * values, and the class's axes. The entry's {@value #EXTRA} object holds its block's name and every param as it was
 * (model, dataset, the flags, ...), its trial and server ids; JMH tools ignore fields they do not know. The
 * {@code jvm}/{@code jdk}/{@code vm} fields describe the JVM that wrote the file (the harness's), since an engine has
 * none. Blocks without any E2E latency (trial failed, or every request failed) are left out: JMH writes no entry for
 * a benchmark that produced no score. Non-finite numbers are written as the strings {@code "NaN"}, {@code "+INF"},
 * {@code "-INF"}, as JMH does, but never in a primary metric's {@code score} or {@code scoreConfidence}: where JMH
 * would write a NaN interval (two samples or fewer) the interval is {@code [score, score]}, as JMH writes it for the
 * results whose error it does not compute, so that Bencher, which reads those as numbers, accepts the file.
 *
 * <p>With a primary metric named ({@code --jmh-primary ttft.p99}) the file is the same with that metric as the
 * primary one, the mean latency among the secondary metrics: a second series for a CI tracker, which follows the
 * primary score only. A time is then in mode {@code avgt} and a unit {@code X/op}, a rate in mode {@code thrpt} and
 * {@code ops/s} (an op being what the rate counts: a token, a request), the units Bencher and jmh-visualizer read
 * as lower and higher is better; other metrics (counts, shares) keep their own unit, which Bencher does not accept.
 */
public final class JmhJsonWriter implements ResultFormat {

    /** The JMH version whose format is written. */
    public static final String JMH_VERSION = "1.37";

    /** Unit of the primary metric. */
    public static final String PRIMARY_UNIT = "ms/op";

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
    private final boolean paramsInName;

    /** The writer of {@code results.json}: mean E2E latency as the primary metric, the axes as params. */
    public JmhJsonWriter() {
        this(null, false);
    }

    /**
     * A writer whose primary metric is {@code metric}, a secondary metric's name ({@code ttft.p99},
     * {@code output_throughput}; with or without the {@value #SECONDARY_PREFIX}), the axes as params.
     *
     * @throws IllegalArgumentException when no repetition could have a metric of that name
     */
    public JmhJsonWriter(String metric) {
        this(metric, false);
    }

    /**
     * A writer whose primary metric is {@code metric} ({@code null} for the mean E2E latency), with the axes in each
     * entry's name instead of its params when {@code paramsInName} ({@link JmhAxes}).
     *
     * @throws IllegalArgumentException when no repetition could have a metric of that name
     */
    public JmhJsonWriter(String metric, boolean paramsInName) {
        this.paramsInName = paramsInName;
        if (metric == null) {
            this.primary = null;
            return;
        }
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
        java.util.regex.Matcher turn = TURN_NAME.matcher(name);
        if (turn.matches()) {
            return TURN_METRICS.stream().anyMatch(m -> TURN_STATS.stream().anyMatch(s ->
                    turn.group(1).equals(m.id() + "." + s.id())));
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
        JmhAxes axes = JmhAxes.of(written, paramsInName);
        java.util.Set<String> common = commonSecondaryNames(written);
        Map<String, io.servebench.results.ServerEnvironment> servers = new LinkedHashMap<>();
        run.servers().forEach(e -> servers.putIfAbsent(e.serverId(), e));
        ArrayNode array = nodes.arrayNode();
        for (BlockResult block : written) {
            ObjectNode entry = entry(block, axes, common);
            io.servebench.results.ServerEnvironment server = block.serverId() == null ? null : servers.get(block.serverId());
            if (server != null) {
                environment((ObjectNode) entry.get(EXTRA), server);
            }
            array.add(entry);
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

    /** How many of {@link #entries}' blocks have {@code metric}, a secondary metric's name: a file of it as the primary has that many. */
    public static int entriesWith(RunResult run, String metric) {
        return (int) written(run).stream().filter(b -> secondaryValues(b.repetitions()).containsKey(metric)).count();
    }

    private ObjectNode entry(BlockResult trial, JmhAxes axes, java.util.Set<String> common) {
        List<RepetitionResult> reps = trial.repetitions();
        ObjectNode o = nodes.objectNode();
        o.put("jmhVersion", JMH_VERSION);
        o.put("benchmark", axes.benchmark(trial));
        Map<String, SecondaryValues> values = secondaryValues(reps);
        SecondaryValues primaryValues = primary == null ? null : values.get(primary);
        String mode = primary == null ? "sample" : primaryValues.unit().endsWith("/s") ? "thrpt" : "avgt";
        o.put("mode", mode);
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
        o.set("primaryMetric", primary == null ? primary(reps) : chosenPrimary(primaryValues));
        ObjectNode secondary = o.putObject("secondaryMetrics");
        boolean histograms = mode.equals("sample");
        if (primary != null) {
            secondary.set(SECONDARY_PREFIX + LATENCY_MEAN, secondary(LATENCY_MEAN, new SecondaryValues(Metric.E2E_LATENCY.unit(),
                    reps.stream().map(r -> r.distribution(Metric.E2E_LATENCY)).flatMap(java.util.Optional::stream)
                            .map(Distribution::mean).toList()), histograms));
        }
        values.forEach((name, metric) -> {
            if (common.contains(name) && !name.equals(primary)) {
                secondary.set(SECONDARY_PREFIX + name, secondary(name, metric, histograms));
            }
        });
        ObjectNode extra = o.putObject(EXTRA);
        extra.put("benchmark", trial.benchmark());
        extra.put("trial", trial.trialId());
        if (trial.serverId() != null) {
            extra.put("server", trial.serverId());
        }
        ObjectNode all = extra.putObject("params");
        trial.params().forEach(all::put);
        extra.put("statistics", "primary: the requests of all forks pooled (exact mean and extremes, numpy percentiles);"
                + " secondary: one value per fork, score the mean over forks");
        if (!trial.succeeded()) {
            // its forks are its complete repetitions; a reader of this file learns that the trial itself is not complete
            extra.put("state", trial.state().name().toLowerCase(java.util.Locale.ROOT));
            extra.put("why", trial.failure());
        }
        return o;
    }

    /**
     * Where the entry's server ran, as {@code compare} sets two files side by side: the engine, its version and the GPUs
     * (for the simulated engine, those it imitates), each only when known.
     */
    private static void environment(ObjectNode extra, io.servebench.results.ServerEnvironment server) {
        ObjectNode e = extra.putObject("environment");
        e.put("engine", server.engine());
        if (server.engineVersion() != null && !server.engineVersion().isEmpty()) {
            e.put("engine version", server.engineVersion());
        }
        if (!server.gpus().isEmpty()) {
            e.put("GPUs", String.join("; ", server.gpus()));
        }
    }

    /** Mean measurement window over repetitions, in JMH's {@code TimeValue} form ("130 s"). */
    private static String measurementTime(List<RepetitionResult> reps) {
        double[] durations = reps.stream().map(r -> r.value(Metric.DURATION)).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).toArray();
        return durations.length == 0 ? "0 s" : Math.round(Statistics.mean(durations)) + " s";
    }

    /** The mean E2E latency: every request's latency, each fork's in its histogram, in {@link #PRIMARY_UNIT}. */
    private ObjectNode primary(List<RepetitionResult> reps) {
        double scale = finer(Metric.E2E_LATENCY.unit()).scale();
        List<Distribution> distributions = reps.stream().map(r -> r.distribution(Metric.E2E_LATENCY))
                .flatMap(java.util.Optional::stream).toList();
        List<List<HistogramBucket>> forks = distributions.stream()
                .map(d -> d.histogram().stream().map(b -> new HistogramBucket(b.value() * scale, b.count())).toList())
                .toList();
        ObjectNode m = statistics(JmhStatistics.ofDistributions(distributions, scale), true);
        m.put("scoreUnit", PRIMARY_UNIT);
        ArrayNode raw = m.putArray("rawDataHistogram");
        for (List<HistogramBucket> fork : forks) {
            ArrayNode iteration = raw.addArray().addArray();
            for (HistogramBucket b : fork) {
                ArrayNode pair = iteration.addArray();
                putNumber(pair, b.value());
                pair.add(b.count());
            }
        }
        return m;
    }

    /**
     * A metric chosen as the primary one ({@code --jmh-primary}): per-fork values as in avgt or thrpt mode, a time in
     * {@code X/op}, a rate in {@code ops/s}.
     */
    private ObjectNode chosenPrimary(SecondaryValues metric) {
        Unit unit = finer(metric.unit());
        List<Double> values = metric.values().stream().map(v -> v * unit.scale()).toList();
        ObjectNode m = statistics(JmhStatistics.ofValues(values), true);
        m.put("scoreUnit", unit.time() ? unit.name() + "/op" : metric.unit().endsWith("/s") ? "ops/s" : unit.name());
        rawData(m, values);
        return m;
    }

    private ObjectNode secondary(String name, SecondaryValues metric, boolean histograms) {
        Unit unit = readable(name, metric.unit());
        List<Double> values = metric.values().stream().map(v -> v * unit.scale()).toList();
        ObjectNode m = statistics(JmhStatistics.ofValues(values), false);
        m.put("scoreUnit", unit.name());
        rawData(m, values);
        if (histograms) {
            // the Jenkins plugin's visualizer reads a histogram for every metric of a sample-mode entry
            ArrayNode forks = m.putArray("rawDataHistogram");
            for (double v : values) {
                ArrayNode pair = forks.addArray().addArray().addArray();
                putNumber(pair, v);
                pair.add(1);
            }
        }
        return m;
    }

    /** Each fork's one iteration. */
    private static void rawData(ObjectNode m, List<Double> values) {
        ArrayNode raw = m.putArray("rawData");
        for (double v : values) {
            putNumber(raw.addArray(), v);
        }
    }

    /**
     * {@code score}, {@code scoreError}, {@code scoreConfidence} and {@code scorePercentiles} of the samples; a
     * primary metric's interval is {@code [score, score]} where JMH's would be NaN.
     */
    private ObjectNode statistics(JmhStatistics samples, boolean primaryMetric) {
        ObjectNode m = nodes.objectNode();
        double score = samples.mean();
        double error = samples.error();
        putNumber(m, "score", score);
        putNumber(m, "scoreError", error);
        ArrayNode confidence = m.putArray("scoreConfidence");
        double halfWidth = primaryMetric && Double.isNaN(error) ? 0 : error;
        putNumber(confidence, score - halfWidth);
        putNumber(confidence, score + halfWidth);
        ObjectNode percentiles = m.putObject("scorePercentiles");
        for (double p : PERCENTILES) {
            putNumber(percentiles, String.valueOf(p), samples.percentile(p));
        }
        return m;
    }

    /**
     * A unit as written: a time one unit finer than the model's ({@code s} as {@code ms}, {@code ms} as {@code us}),
     * other units as they are.
     *
     * @param name  the unit written
     * @param scale what a value in the model's unit is multiplied by
     * @param time  whether it is a time
     */
    private record Unit(String name, double scale, boolean time) {
    }

    private static Unit finer(String unit) {
        return switch (unit) {
            case "s" -> new Unit("ms", 1000, true);
            case "ms" -> new Unit("us", 1000, true);
            default -> new Unit(unit, 1, false);
        };
    }

    /**
     * A secondary metric's unit as written: times one unit finer ({@link #finer}), and the rates and energies whose
     * values sit in single digits in a unit that gives them three ({@link JmhMetric#READABLE}): requests per minute,
     * tokens per kJ, mJ per token, and the mean requests in flight in thousandths ({@link JmhMetric#READABLE_METRICS}).
     * jmh-visualizer rounds a metric to whole numbers, where 7.86 and 8.10 req/s were one 8.
     */
    private static Unit readable(String name, String unit) {
        JmhMetric.Readable r = JmhMetric.READABLE_METRICS.getOrDefault(name, JmhMetric.READABLE.get(unit));
        return r == null ? finer(unit) : new Unit(r.unit(), r.scale(), false);
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
        turns(out, reps);
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

    /** The figures of each turn of multi-turn conversations: {@code turnK.METRIC.STAT}. */
    private static final List<Metric> TURN_METRICS = List.of(Metric.TTFT, Metric.E2E_LATENCY);
    private static final List<Stat> TURN_STATS = List.of(Stat.MEAN, Stat.P99);
    private static final java.util.regex.Pattern TURN_NAME = java.util.regex.Pattern.compile("turn[1-9][0-9]*\\.(.+)");

    /**
     * A multi-turn block's turns as secondary metrics of their own ({@code turn3.ttft.mean}), so that a tracker or a
     * visualizer follows the later turns, where what keeps the history (a prefix cache) shows.
     */
    private static void turns(Map<String, SecondaryValues> out, List<RepetitionResult> reps) {
        java.util.TreeSet<Integer> turns = new java.util.TreeSet<>();
        reps.forEach(r -> r.turns().keySet().forEach(k -> turns.add(Integer.parseInt(k))));
        for (int turn : turns) {
            String key = Integer.toString(turn);
            for (Metric metric : TURN_METRICS) {
                for (Stat stat : TURN_STATS) {
                    collect(out, "turn" + key + "." + metric.id() + "." + stat.id(), metric.unit(), reps.stream()
                            .map(r -> r.turns().containsKey(key) ? r.turns().get(key).number(metric, stat)
                                    : OptionalDouble.empty()).toList());
                }
            }
        }
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
