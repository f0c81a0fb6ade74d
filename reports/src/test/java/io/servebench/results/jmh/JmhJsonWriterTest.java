package io.servebench.results.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.Fixtures;
import io.servebench.results.HistogramBucket;
import io.servebench.results.RepetitionResult;
import io.servebench.results.RunResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class JmhJsonWriterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** JMH's own output for the sample-mode benchmark (with a histogram) and the one with a secondary metric. */
    private static JsonNode jmhSample;
    private static JsonNode jmhSecondary;

    @BeforeAll
    static void runRealJmh(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("jmh.json");
        new Runner(new OptionsBuilder()
                .include(io.servebench.reports.jmhfixture.TinyBenchmark.class.getName())
                .forks(0).warmupIterations(0).measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(50))
                .result(out.toString()).resultFormat(ResultFormatType.JSON)
                .build()).run();
        JsonNode root = MAPPER.readTree(out.toFile());
        for (JsonNode entry : root) {
            if (entry.get("mode").asText().equals("sample")) {
                jmhSample = entry;
            } else if (entry.get("secondaryMetrics").has("tokens")) {
                jmhSecondary = entry.get("secondaryMetrics").get("tokens");
            }
        }
        assertThat(jmhSample).as("JMH wrote a sample-mode entry (its annotation processor ran on test sources)").isNotNull();
        assertThat(jmhSecondary).as("JMH wrote the @AuxCounters secondary metric").isNotNull();
    }

    private static JsonNode ours(RunResult run) throws Exception {
        return MAPPER.readTree(new JmhJsonWriter().toJson(run));
    }

    /** A baseline at 4 and 8 req/s: the rate is the study's axis, so its entries have params as JMH's fixture has. */
    private static RunResult twoRates(int repetitions) {
        List<BlockResult> blocks = new ArrayList<>();
        for (String rate : List.of("4", "8")) {
            List<io.servebench.results.RepetitionResult> reps = new ArrayList<>();
            for (int r = 0; r < repetitions; r++) {
                reps.add(Fixtures.repetition(2.60 + 0.02 * r, 1.8));
            }
            blocks.add(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, rate, reps));
        }
        return Fixtures.run(blocks);
    }

    private static RunResult threeRepetitions() {
        return Fixtures.run(List.of(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8",
                List.of(Fixtures.repetition(2.60, 1.8), Fixtures.repetition(2.62, 1.8), Fixtures.repetition(2.64, 1.8)))));
    }

    @Test
    void sameFieldNamesAndJsonTypesAsJmhAtEveryLevel() throws Exception {
        JsonNode entry = ours(twoRates(3)).get(0);

        List<String> problems = new ArrayList<>();
        compare("$", jmhSample, entry, problems);
        assertThat(problems).isEmpty();
        assertThat(entry.get("secondaryMetrics").size()).isGreaterThan(20);
    }

    @Test
    void eachEntryNamesWhereItsServerRanAndTheReaderReadsItBack(@TempDir Path dir) throws Exception {
        RunResult bare = twoRates(2);
        String serverId = bare.blocks().get(0).serverId();
        io.servebench.results.ServerEnvironment server = new io.servebench.results.ServerEnvironment(serverId, "vllm",
                "0.17.1", "Qwen/Qwen3.5-9B", "vllm serve Qwen/Qwen3.5-9B", List.of("NVIDIA H100 80GB HBM3, 81559 MiB, 570.86",
                "NVIDIA H100 80GB HBM3, 81559 MiB, 570.86"), "AMD EPYC, 16 logical cores", "gpu-1", "Linux", "17", "0.1.0",
                "2026-03-01T12:00:00Z", List.of(), List.of(), List.of());
        RunResult run = new RunResult(bare.startTime(), bare.servebenchVersion(), bare.commandLine(), bare.engines(),
                bare.quick(), bare.blocks(), List.of(server));
        JsonNode environment = ours(run).get(0).get(JmhJsonWriter.EXTRA).get("environment");
        assertThat(environment.get("engine").asText()).isEqualTo("vllm");
        assertThat(environment.get("engine version").asText()).isEqualTo("0.17.1");
        assertThat(environment.get("GPUs").asText()).isEqualTo("NVIDIA H100 80GB HBM3, 81559 MiB, 570.86; NVIDIA H100 80GB"
                + " HBM3, 81559 MiB, 570.86");
        Path file = dir.resolve("results.json");
        new JmhJsonWriter().write(run, file);
        assertThat(new JmhJsonReader().read(file).get(0).environment()).containsEntry("engine version", "0.17.1")
                .containsKey("GPUs");
        // a block whose server the run did not record says nothing of it
        assertThat(ours(bare).get(0).get(JmhJsonWriter.EXTRA).has("environment")).isFalse();
    }

    @Test
    void jmhProcessorRanOnTestSourcesOnly() throws Exception {
        Path mainClasses = Path.of(JmhJsonWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(mainClasses.resolve("META-INF/BenchmarkList")).doesNotExist();
        Path testClasses = Path.of(getClass().getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(Files.readString(testClasses.resolve("META-INF/BenchmarkList"))).contains("TinyBenchmark");
    }

    @Test
    void schemaComparisonDetectsDifferences() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode entry =
                (com.fasterxml.jackson.databind.node.ObjectNode) ours(twoRates(3)).get(0);
        entry.put("forks", "3");
        entry.remove("jvm");
        ((com.fasterxml.jackson.databind.node.ArrayNode) entry.get("primaryMetric").get("rawDataHistogram").get(0).get(0)
                .get(0)).set(1, MAPPER.getNodeFactory().numberNode(1.5));

        List<String> problems = new ArrayList<>();
        compare("$", jmhSample, entry, problems);
        assertThat(problems).hasSize(3)
                .anySatisfy(p -> assertThat(p).startsWith("$.forks: JMH has INT, ours STRING"))
                .anySatisfy(p -> assertThat(p).startsWith("$: JMH fields"))
                .anySatisfy(p -> assertThat(p).contains("rawDataHistogram[0][0][0][1]: JMH has INT, ours FLOAT"));
    }

    @Test
    void aSingleRepetitionsPrimaryErrorComesFromItsRequestsAndItsSecondariesAreNaNAsJmhWrites() throws Exception {
        RunResult run = twoRates(1);
        JsonNode entry = ours(run).get(0);
        JsonNode primary = entry.get("primaryMetric");

        // 1000 requests: JMH's error over every sample of a sample-mode benchmark, never NaN where samples exist
        assertThat(primary.get("scoreError").isNumber()).isTrue();
        assertThat(primary.get("scoreConfidence").get(0).isNumber()).isTrue();
        // one value per secondary metric: JMH writes an error it cannot compute as the string "NaN"
        JsonNode ttft = entry.get("secondaryMetrics").get("·ttft.mean");
        assertThat(ttft.get("scoreError").asText()).isEqualTo("NaN");
        assertThat(jmhSecondary.get("scoreError").asText()).isEqualTo("NaN");
        assertThat(ttft.get("scoreConfidence").get(0).asText()).isEqualTo("NaN");
        List<String> problems = new ArrayList<>();
        compare("$", jmhSample, entry, problems);
        assertThat(problems).isEmpty();
    }

    @Test
    void scoresAndErrorsAreJmhsOwnAndEveryPercentileIsNumpysWithRepetitionsAndWithout() throws Exception {
        for (RunResult run : List.of(twoRates(1), threeRepetitions(), Fixtures.run(List.of(Fixtures.trial("baseline",
                "", true, Fixtures.BASE_FLAGS, "8", List.of(Fixtures.repetition(2.6, 1.8), Fixtures.repetition(3.1, 2.2))))))) {
            for (JsonNode entry : ours(run)) {
                // the primary: JMH's own statistics classes fed what the file says, every [value, count] of every fork
                JsonNode primary = entry.get("primaryMetric");
                org.openjdk.jmh.util.MultisetStatistics samples = new org.openjdk.jmh.util.MultisetStatistics();
                List<Double> all = new java.util.ArrayList<>();
                primary.get("rawDataHistogram").forEach(fork -> fork.forEach(iteration -> iteration.forEach(pair -> {
                    samples.addValue(pair.get(0).asDouble(), pair.get(1).asInt());
                    for (int i = 0; i < pair.get(1).asInt(); i++) {
                        all.add(pair.get(0).asDouble());
                    }
                })));
                // its mean is the requests' exact one (these fixtures' buckets hold it exactly too)
                assertThat(number(primary.get("score"))).isCloseTo(samples.getMean(), within(1e-9 * samples.getMean()));
                // its percentiles numpy's over those samples, within the exact extremes, which are its 0 and 100
                double[] sorted = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                JsonNode percentiles = primary.get("scorePercentiles");
                double min = number(percentiles.get("0.0"));
                double max = number(percentiles.get("100.0"));
                for (double p : new double[] {50.0, 90.0, 95.0, 99.0, 99.9}) {
                    assertThat(number(percentiles.get(String.valueOf(p)))).as("primary p" + p)
                            .isCloseTo(Math.max(min, Math.min(max, numpy(sorted, p))), within(1e-9 * max));
                }
                entry.get("secondaryMetrics").properties().forEach(m -> {
                    org.openjdk.jmh.util.ListStatistics values = new org.openjdk.jmh.util.ListStatistics();
                    List<Double> forks = new java.util.ArrayList<>();
                    m.getValue().get("rawData").forEach(fork -> fork.forEach(v -> {
                        values.addValue(v.asDouble());
                        forks.add(v.asDouble());
                    }));
                    assertSameAsJmh(m.getKey(), m.getValue(), values, forks.stream().mapToDouble(Double::doubleValue)
                            .sorted().toArray());
                    // and the histogram the Jenkins plugin reads holds the same values, one per fork
                    assertThat(m.getValue().get("rawDataHistogram").size()).isEqualTo(m.getValue().get("rawData").size());
                });
            }
        }
    }

    @Test
    void oneRepetitionsPrimaryHasTheValuesOfItsSecondariesToTheDigit() throws Exception {
        // a distribution as the aggregator makes one: histogram, exact moments and extremes, numpy's percentiles of it
        double[] latencies = new double[1000];
        for (int i = 0; i < latencies.length; i++) {
            latencies[i] = 0.3 + 0.004 * i + (i % 97 == 0 ? 6 : 0);
        }
        java.util.TreeMap<Double, Long> buckets = new java.util.TreeMap<>();
        for (double v : latencies) {
            // 3 significant digits, as HdrHistogram keeps them
            buckets.merge(new java.math.BigDecimal(v).round(new java.math.MathContext(3)).doubleValue(), 1L, Long::sum);
        }
        double[] sorted = buckets.entrySet().stream().flatMapToDouble(e -> java.util.stream.DoubleStream.generate(
                e::getKey).limit(e.getValue())).toArray();
        double mean = java.util.Arrays.stream(latencies).average().orElseThrow();
        double min = java.util.Arrays.stream(latencies).min().orElseThrow();
        double max = java.util.Arrays.stream(latencies).max().orElseThrow();
        double sd = Math.sqrt(java.util.Arrays.stream(latencies).map(v -> (v - mean) * (v - mean)).sum() / 999);
        io.servebench.results.Distribution e2e = new io.servebench.results.Distribution("s", 1000, mean, sd, min,
                clamp(numpy(sorted, 50), min, max), clamp(numpy(sorted, 90), min, max), clamp(numpy(sorted, 95), min, max),
                clamp(numpy(sorted, 99), min, max), clamp(numpy(sorted, 99.9), min, max), max,
                buckets.entrySet().stream().map(e -> new HistogramBucket(e.getKey(), e.getValue())).toList());
        RepetitionResult rep = new RepetitionResult(Map.of(Metric.SUCCESSFUL_REQUESTS.id(), 1000.0),
                Map.of(Metric.E2E_LATENCY.id(), e2e), 1000, 0, Map.of(), Map.of());
        JsonNode entry = ours(Fixtures.run(List.of(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8",
                List.of(rep))))).get(0);
        JsonNode percentiles = entry.get("primaryMetric").get("scorePercentiles");
        JsonNode secondaries = entry.get("secondaryMetrics");
        // the mean is the primary itself (no secondary repeats it): the requests' exact mean, in ms
        assertThat(number(entry.get("primaryMetric").get("score"))).isCloseTo(mean * 1000, within(1e-9));
        for (String[] pair : new String[][] {{"0.0", "min"}, {"50.0", "p50"}, {"90.0", "p90"}, {"95.0", "p95"},
                {"99.0", "p99"}, {"99.9", "p99.9"}, {"100.0", "max"}}) {
            assertThat(number(percentiles.get(pair[0]))).as("primary p" + pair[0] + " against ·e2e_latency." + pair[1])
                    .isCloseTo(number(secondaries.get("\u00b7e2e_latency." + pair[1]).get("score")), within(1e-9));
        }
    }

    private static double clamp(double v, double min, double max) {
        return Math.max(min, Math.min(max, v));
    }

    /** numpy's {@code np.percentile(x, p)}: linear between the closest ranks of the sorted samples. */
    private static double numpy(double[] sorted, double p) {
        double h = (sorted.length - 1) * p / 100;
        int low = (int) Math.floor(h);
        return low + 1 < sorted.length ? sorted[low] + (h - low) * (sorted[low + 1] - sorted[low]) : sorted[low];
    }

    /** A secondary metric's score and error equal JMH's from its fork values, its percentiles numpy's. */
    private static void assertSameAsJmh(String name, JsonNode metric, org.openjdk.jmh.util.Statistics jmh, double[] sorted) {
        assertThat(number(metric.get("score"))).as(name + " score").isCloseTo(jmh.getMean(), within(1e-9 * Math.abs(jmh.getMean())));
        double error = jmh.getMeanErrorAt(0.999);
        if (Double.isNaN(error)) {
            assertThat(metric.get("scoreError").asText()).as(name + " error").isEqualTo("NaN");
            for (JsonNode bound : metric.get("scoreConfidence")) {
                assertThat(bound.asText()).as(name).isEqualTo("NaN");
            }
        } else {
            assertThat(number(metric.get("scoreError"))).as(name + " error").isCloseTo(error, within(1e-7 * error));
            double[] interval = jmh.getConfidenceIntervalAt(0.999);
            assertThat(number(metric.get("scoreConfidence").get(0))).as(name).isCloseTo(interval[0], within(1e-7 * error));
            assertThat(number(metric.get("scoreConfidence").get(1))).as(name).isCloseTo(interval[1], within(1e-7 * error));
        }
        for (double p : new double[] {0.0, 50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 99.999, 99.9999, 100.0}) {
            double expected = numpy(sorted, p);
            assertThat(number(metric.get("scorePercentiles").get(String.valueOf(p)))).as(name + " p" + p)
                    .isCloseTo(expected, within(1e-9 * Math.abs(expected) + 1e-12));
        }
    }

    private static double number(JsonNode n) {
        return n.isTextual() ? Double.parseDouble(n.asText()) : n.asDouble();
    }

    @Test
    void latenciesAreInUnitsJmhVisualizerShowsToThreeDigits() throws Exception {
        JsonNode entry = ours(threeRepetitions()).get(0);
        JsonNode primary = entry.get("primaryMetric");
        assertThat(primary.get("scoreUnit").asText()).isEqualTo("ms/op");
        assertThat(primary.get("score").asDouble()).isCloseTo(2620, within(1e-6));
        assertThat(primary.get("rawDataHistogram").size()).isEqualTo(3);
        JsonNode ttft = entry.get("secondaryMetrics").get("·ttft.mean");
        assertThat(ttft.get("score").asDouble()).isCloseTo(41_120, within(1e-6));
        assertThat(ttft.get("scoreUnit").asText()).isEqualTo("us");
        assertThat(entry.get("secondaryMetrics").get("·e2e_latency.p99").get("scoreUnit").asText()).isEqualTo("ms");
        assertThat(entry.get("secondaryMetrics").get("·output_throughput").get("scoreUnit").asText()).isEqualTo("tok/s");
        assertThat(ttft.get("rawData").size()).isEqualTo(3);
        // 7.68 req/s, which the visualizer would show as 8, written as 460.8 requests a minute
        JsonNode requests = entry.get("secondaryMetrics").get("·request_throughput");
        assertThat(requests.get("scoreUnit").asText()).isEqualTo("req/min");
        assertThat(requests.get("score").asDouble()).isCloseTo(7.68 * 60, within(1e-9));
        // 20.1 requests in flight on average as 20,100 thousandths; counts of requests stay whole requests
        JsonNode inFlight = entry.get("secondaryMetrics").get("·mean_concurrency");
        assertThat(inFlight.get("scoreUnit").asText()).isEqualTo("mreq");
        assertThat(inFlight.get("score").asDouble()).isCloseTo(20.1 * 1000, within(1e-9));
        assertThat(entry.get("secondaryMetrics").get("·successful_requests").get("scoreUnit").asText()).isEqualTo("requests");
        assertThat(entry.get("secondaryMetrics").get("·successful_requests").get("score").asDouble()).isEqualTo(1000);
    }

    @Test
    void compareReadsAFileOfTheOlderUnitsInTheNewer() {
        // a file written before results.json wrote rates per minute and energy per kJ and mJ
        assertThat(JmhMetric.factor("req/s", "req/min")).isEqualTo(60);
        assertThat(JmhMetric.factor("req/min", "req/s")).isCloseTo(1 / 60.0, within(1e-15));
        assertThat(JmhMetric.factor("tokens/J", "tokens/kJ")).isEqualTo(1000);
        assertThat(JmhMetric.factor("J/token", "mJ/token")).isEqualTo(1000);
        assertThat(JmhMetric.factor("s/op", "ms/op")).isEqualTo(1000);
        assertThat(JmhMetric.factor("req/s", "tok/s")).isNaN();
        assertThat(JmhMetric.factor("requests", "mreq")).isEqualTo(1000);
        assertThat(JmhMetric.factor("mreq", "requests")).isEqualTo(0.001);
        assertThat(io.servebench.compare.ResultsComparison.better("mreq"))
                .isEqualTo(io.servebench.compare.ResultsComparison.Better.NEITHER);
        assertThat(io.servebench.compare.ResultsComparison.better("req/min"))
                .isEqualTo(io.servebench.compare.ResultsComparison.Better.HIGHER);
        assertThat(io.servebench.compare.ResultsComparison.better("tokens/kJ"))
                .isEqualTo(io.servebench.compare.ResultsComparison.Better.HIGHER);
        assertThat(io.servebench.compare.ResultsComparison.better("mJ/token"))
                .isEqualTo(io.servebench.compare.ResultsComparison.Better.LOWER);
    }

    @Test
    void paramsAreTheAxesAndEveryParamAsItWasIsInServeBenchsOwnObject() throws Exception {
        String flags = Fixtures.BASE_FLAGS + " --speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}"
                + " --enable-prefix-caching";
        RunResult run = Fixtures.run(List.of(Fixtures.trial("spec", "speculative", false, flags, "4",
                List.of(Fixtures.repetition(2.39, 1.5))), Fixtures.trial("spec", "speculative", false, flags, "8",
                List.of(Fixtures.repetition(2.59, 1.5)))));
        JsonNode entry = ours(run).get(1);

        assertThat(entry.get("params").toString()).isEqualTo("{\"rate\":\"8\"}");
        JsonNode extra = entry.get(JmhJsonWriter.EXTRA);
        assertThat(extra.get("trial").asText()).isEqualTo("spec@8");
        assertThat(extra.get("params").get("flags").asText()).isEqualTo(flags);
        assertThat(extra.get("params").get("model").asText()).isEqualTo("Qwen/Qwen3.5-9B");
        List<String> fields = new ArrayList<>();
        entry.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).last().isEqualTo(JmhJsonWriter.EXTRA);
    }

    @Test
    void aVariantsOwnParamValuesAreInItsNameAndASweepsStepIsAnAxisButNotTheRatesItChose() throws Exception {
        List<BlockResult> blocks = new ArrayList<>();
        blocks.add(Fixtures.trial("vllm", "", true, Fixtures.BASE_FLAGS, "8", List.of(Fixtures.repetition(2.6, 1.8))));
        for (String seqs : List.of("128", "0.5")) {
            BlockResult t = Fixtures.trial("maxNumSeqs", "", false, Fixtures.BASE_FLAGS, "8",
                    List.of(Fixtures.repetition(2.6, 1.8)));
            java.util.Map<String, String> params = new java.util.LinkedHashMap<>(t.params());
            params.put("maxNumSeqs", seqs);
            blocks.add(new BlockResult(t.benchmark(), t.className(), t.variant(), t.group(), false, params, t.trialId() + seqs,
                    t.serverId(), t.repetitions(), null));
        }
        JsonNode entries = ours(Fixtures.run(blocks));
        assertThat(entries).extracting(e -> e.get("benchmark").asText()).containsExactly(Fixtures.CLASS + ".vllm",
                Fixtures.CLASS + ".maxNumSeqs[128]", Fixtures.CLASS + ".maxNumSeqs[0_5]");
        assertThat(entries).allSatisfy(e -> assertThat(e.has("params")).isFalse());
        assertThat(entries.get(2).get(JmhJsonWriter.EXTRA).get("params").get("maxNumSeqs").asText()).isEqualTo("0.5");
        assertThat(entries.get(2).get(JmhJsonWriter.EXTRA).get("benchmark").asText()).isEqualTo(Fixtures.CLASS + ".maxNumSeqs");

        // a sweep: its steps are the axis; the rates of its constant steps, chosen as it ran, are no param
        List<BlockResult> sweep = new ArrayList<>();
        String[][] steps = {{"s1-synchronous", null}, {"s2-throughput", null}, {"s3-constant", "3.21"}};
        for (String[] step : steps) {
            BlockResult t = Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8", List.of(Fixtures.repetition(2.6, 1.8)));
            java.util.Map<String, String> params = new java.util.LinkedHashMap<>(t.params());
            params.remove("rate");
            if (step[1] != null) {
                params.put("rate", step[1]);
            }
            params.put(BlockResult.SWEEP_STEP, step[0]);
            sweep.add(new BlockResult(t.benchmark(), t.className(), t.variant(), t.group(), true, params, t.trialId() + step[0],
                    t.serverId(), t.repetitions(), null));
        }
        JsonNode swept = ours(Fixtures.run(sweep));
        assertThat(swept).extracting(e -> e.get("params").toString()).containsExactly("{\"sweep\":\"s1-synchronous\"}",
                "{\"sweep\":\"s2-throughput\"}", "{\"sweep\":\"s3-constant\"}");
    }

    @Test
    void paramsOfTheOldLayoutDecodeBack() {
        assertThat(JmhParamCodec.decode("flags", "a:b%20c;d;-x:1;e:50%25%3Bf")).isEqualTo("--a=b c --d -x=1 --e=50%;f");
        assertThat(JmhParamCodec.decode("flags", "")).isEmpty();
        assertThat(JmhParamCodec.decode("model", "my%20model%3Dv2%3B100%25")).isEqualTo("my model=v2;100%");
        assertThat(JmhParamCodec.decode("flags", "max-model-len:32768;reasoning-parser:qwen3"))
                .isEqualTo("--max-model-len=32768 --reasoning-parser=qwen3");
    }

    @Test
    void anotherPrimaryMetricMakesASecondSeries() throws Exception {
        RunResult run = twoRates(3);
        JsonNode entry = MAPPER.readTree(new JmhJsonWriter("ttft.p99").toJson(run)).get(0);
        assertThat(entry.get("mode").asText()).isEqualTo("avgt");
        // a time per request, in a unit Bencher reads as a latency
        assertThat(entry.get("primaryMetric").get("scoreUnit").asText()).isEqualTo("us/op");
        assertThat(entry.get("primaryMetric").get("score").asDouble())
                .isEqualTo(ours(run).get(0).get("secondaryMetrics").get("·ttft.p99").get("score").asDouble());
        assertThat(entry.get("secondaryMetrics").has("·ttft.p99")).isFalse();
        assertThat(entry.get("secondaryMetrics").get("·e2e_latency.mean").get("score").asDouble())
                .isCloseTo(ours(run).get(0).get("primaryMetric").get("score").asDouble(), within(1e-6));
        assertThat(entry.get("params")).isEqualTo(ours(run).get(0).get("params"));
        JsonNode throughput = MAPPER.readTree(new JmhJsonWriter("·output_throughput").toJson(run)).get(0);
        assertThat(throughput.get("mode").asText()).isEqualTo("thrpt");
        assertThat(throughput.get("primaryMetric").get("scoreUnit").asText()).isEqualTo("ops/s");
        // one repetition: no error, and an interval Bencher reads as numbers
        JsonNode single = MAPPER.readTree(new JmhJsonWriter("ttft.p99").toJson(twoRates(1))).get(0).get("primaryMetric");
        assertThat(single.get("scoreError").asText()).isEqualTo("NaN");
        assertThat(single.get("scoreConfidence").get(0).asDouble()).isEqualTo(single.get("score").asDouble());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new JmhJsonWriter("ttft.p42"))
                .hasMessageStartingWith("--jmh-primary ttft.p42: no such metric");
        // every entry has ttft.p99; none has goodput (no SLO): that file would be empty, which the run then says
        assertThat(JmhJsonWriter.entriesWith(run, "ttft.p99")).isEqualTo(JmhJsonWriter.entries(run)).isPositive();
        assertThat(JmhJsonWriter.entriesWith(run, "goodput")).isZero();
        assertThat(MAPPER.readTree(new JmhJsonWriter("goodput").toJson(run))).isEmpty();
    }

    @Test
    void eachTurnOfAConversationIsASecondaryMetricOfItsOwnAndCanBeThePrimary() throws Exception {
        // two repetitions, each with two turns whose TTFTs are Fixtures' 41.12 ms and 2.5 times that
        List<RepetitionResult> reps = new java.util.ArrayList<>();
        for (int r = 0; r < 2; r++) {
            RepetitionResult whole = Fixtures.repetition(2.0 + r * 0.1, 1.0);
            RepetitionResult first = Fixtures.repetition(1.0, 0.5);
            RepetitionResult second = Fixtures.repetition(3.0, 0.5);
            java.util.Map<String, io.servebench.results.Distribution> slower = new java.util.LinkedHashMap<>(
                    second.distributions());
            io.servebench.results.Distribution ttft = second.distribution(Metric.TTFT).orElseThrow();
            slower.put(Metric.TTFT.id(), new io.servebench.results.Distribution("ms", ttft.count(), ttft.mean() * 2.5,
                    ttft.stdev(), ttft.min(), ttft.p50(), ttft.p90(), ttft.p95(), ttft.p99() * 2.5, ttft.p999(),
                    ttft.max(), List.of()));
            second = new RepetitionResult(second.scalars(), slower, second.tokenEvents(), second.coalescedEvents(),
                    Map.of(), Map.of());
            reps.add(whole.withTurns(Map.of("1", first, "2", second)));
        }
        RunResult run = Fixtures.run(List.of(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8", reps)));
        JsonNode secondary = ours(run).get(0).get("secondaryMetrics");
        // TTFT is in ms in the reports, so one unit finer here
        assertThat(secondary.get("·turn1.ttft.mean").get("score").asDouble()).isCloseTo(41_120, within(1e-6));
        assertThat(secondary.get("·turn2.ttft.mean").get("score").asDouble()).isCloseTo(41_120 * 2.5, within(1e-6));
        assertThat(secondary.get("·turn2.ttft.mean").get("scoreUnit").asText())
                .isEqualTo(secondary.get("·ttft.mean").get("scoreUnit").asText()).isEqualTo("us");
        assertThat(secondary.has("·turn2.e2e_latency.p99")).isTrue();
        assertThat(secondary.has("·turn3.ttft.mean")).isFalse();
        JsonNode primary = MAPPER.readTree(new JmhJsonWriter("turn2.ttft.mean").toJson(run)).get(0).get("primaryMetric");
        assertThat(primary.get("score").asDouble()).isCloseTo(41_120 * 2.5, within(1e-6));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new JmhJsonWriter("turn2.tpot.p42"))
                .hasMessageStartingWith("--jmh-primary turn2.tpot.p42: no such metric");
    }

    @Test
    void readerRoundTripsOurFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("results.json");
        RunResult run = threeRepetitions();
        new JmhJsonWriter().write(run, file);

        List<JmhBenchmark> read = new JmhJsonReader().read(file);
        assertThat(read).hasSize(1);
        JmhBenchmark b = read.get(0);
        BlockResult trial = run.blocks().get(0);
        assertThat(b.benchmark()).isEqualTo(trial.benchmark());
        assertThat(b.identity()).isEqualTo(trial.benchmark());
        assertThat(b.mode()).isEqualTo("sample");
        assertThat(b.forks()).isEqualTo(3);
        assertThat(b.decodedParams()).isEqualTo(trial.params());
        assertThat(b.primaryMetric().score()).isCloseTo(2620, within(1e-6));
        assertThat(b.primaryMetric().rawDataHistogram()).hasSize(3);
        assertThat(b.primaryMetric().rawDataHistogram().get(0).get(0)).isEqualTo(trial.repetitions().get(0)
                .distribution(Metric.E2E_LATENCY).orElseThrow().histogram().stream()
                .map(h -> new io.servebench.results.HistogramBucket(h.value() * 1000, h.count())).toList());
        // secondary metrics are read without JMH's prefix, so compare's names match files of both layouts
        assertThat(b.secondaryMetrics().get("successful_requests").rawData())
                .containsExactly(List.of(1000.0), List.of(1000.0), List.of(1000.0));
        assertThat(b.secondaryMetrics().get("ttft.p99").scoreUnit()).isEqualTo("us");
    }

    @Test
    void readerReadsJmhsOwnOutputWithNaN() throws Exception {
        String json = "[" + jmhSample + "]";
        JmhBenchmark b = new JmhJsonReader().readString(json).get(0);
        assertThat(b.mode()).isEqualTo("sample");
        assertThat(b.params()).containsEntry("rate", "8");
        assertThat(b.primaryMetric().rawDataHistogram()).isNotEmpty();
        assertThat(b.secondaryMetrics()).isNotEmpty();
        JmhMetric secondary = new JmhJsonReader().readString("[{\"benchmark\":\"x\",\"mode\":\"thrpt\",\"primaryMetric\":"
                + jmhSecondary + "}]").get(0).primaryMetric();
        assertThat(secondary.scoreError()).isNaN();
    }

    @Test
    void blocksWithoutLatencyAreLeftOut() throws Exception {
        BlockResult failed = new BlockResult("C.v", "C", "v", "", false, Map.of(), "t", "s", List.of(),
                "engine did not start: see logs/s.log");
        RunResult run = Fixtures.run(List.of(failed, threeRepetitions().blocks().get(0)));
        assertThat(ours(run).size()).isEqualTo(1);
    }

    /**
     * Records every difference in field names (and their order) and JSON types between JMH's node
     * and ours. Objects keyed by data (params, secondary metrics) compare their values with JMH's
     * first value; arrays compare every element with JMH's first element. JMH writes non-finite
     * numbers as strings ("NaN"), so those count as floating-point numbers.
     */
    private static void compare(String path, JsonNode jmh, JsonNode ours, List<String> problems) {
        String jmhKind = kind(jmh);
        String ourKind = kind(ours);
        if (!jmhKind.equals(ourKind)) {
            problems.add(path + ": JMH has " + jmhKind + ", ours " + ourKind);
            return;
        }
        if (jmh.isObject()) {
            if (path.endsWith(".params") || path.endsWith(".secondaryMetrics")) {
                JsonNode model = path.endsWith(".secondaryMetrics") ? jmhSecondary : jmh.elements().next();
                ours.properties().forEach(f -> compare(path + "." + f.getKey(), model, f.getValue(), problems));
                return;
            }
            List<String> jmhFields = new ArrayList<>();
            jmh.fieldNames().forEachRemaining(jmhFields::add);
            List<String> ourFields = new ArrayList<>();
            ours.fieldNames().forEachRemaining(ourFields::add);
            // JMH's readers ignore a field they do not know: ServeBench's own object comes last, and a secondary
            // metric's histogram, for the Jenkins plugin's visualizer, after JMH's fields
            String extra = path.equals("$") ? JmhJsonWriter.EXTRA : path.contains(".secondaryMetrics.") ? "rawDataHistogram" : null;
            if (extra != null && !ourFields.isEmpty() && ourFields.get(ourFields.size() - 1).equals(extra)) {
                ourFields.remove(ourFields.size() - 1);
            }
            if (!jmhFields.equals(ourFields)) {
                problems.add(path + ": JMH fields " + jmhFields + ", ours " + ourFields);
            }
            for (String field : jmhFields) {
                if (ours.has(field)) {
                    compare(path + "." + field, jmh.get(field), ours.get(field), problems);
                }
            }
        } else if (jmh.isArray() && !jmh.isEmpty()) {
            if (isHistogramPair(path)) {
                // a [value, count] pair: positional types
                for (int i = 0; i < ours.size(); i++) {
                    compare(path + "[" + i + "]", jmh.get(Math.min(i, 1)), ours.get(i), problems);
                }
                if (ours.size() != 2) {
                    problems.add(path + ": a histogram pair of " + ours.size() + " elements");
                }
                return;
            }
            for (int i = 0; i < ours.size(); i++) {
                compare(path + "[" + i + "]", jmh.get(0), ours.get(i), problems);
            }
        }
    }

    /** Whether {@code path} is {@code ...rawDataHistogram[fork][iteration][bucket]}, a [value, count] pair. */
    private static boolean isHistogramPair(String path) {
        int at = path.indexOf("rawDataHistogram");
        return at >= 0 && path.substring(at).chars().filter(c -> c == '[').count() == 3;
    }

    private static String kind(JsonNode n) {
        if (n.isTextual() && List.of("NaN", "+INF", "-INF").contains(n.asText())) {
            return "FLOAT";
        }
        if (n.isIntegralNumber()) {
            return "INT";
        }
        if (n.isFloatingPointNumber()) {
            return "FLOAT";
        }
        return n.getNodeType().toString();
    }
}
