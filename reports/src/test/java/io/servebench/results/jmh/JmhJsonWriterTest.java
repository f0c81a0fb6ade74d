package io.servebench.results.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.results.BlockResult;
import io.servebench.results.Fixtures;
import io.servebench.results.Metric;
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
    void singleRepetitionWritesNaNErrorAsJmhDoes() throws Exception {
        RunResult run = twoRates(1);
        JsonNode primary = ours(run).get(0).get("primaryMetric");

        // JMH itself writes an error it cannot compute as the string "NaN" (its one-iteration throughput entry)
        assertThat(primary.get("scoreError").isTextual()).isTrue();
        assertThat(primary.get("scoreError").asText()).isEqualTo("NaN");
        assertThat(jmhSecondary.get("scoreError").asText()).isEqualTo("NaN");
        assertThat(primary.get("scoreConfidence").get(0).asText()).isEqualTo("NaN");
        List<String> problems = new ArrayList<>();
        compare("$", jmhSample, ours(run).get(0), problems);
        assertThat(problems).isEmpty();
    }

    @Test
    void primaryScoreIsMeanOverRepetitionsWithStudentTError() throws Exception {
        JsonNode primary = ours(threeRepetitions()).get(0).get("primaryMetric");

        assertThat(primary.get("score").asDouble()).isCloseTo(2.62, within(1e-12));
        // t(0.9995, 2) = 31.5991; stdev of {2.60, 2.62, 2.64} = 0.02
        assertThat(primary.get("scoreError").asDouble()).isCloseTo(31.5991 * 0.02 / Math.sqrt(3), within(1e-4));
        assertThat(primary.get("scoreUnit").asText()).isEqualTo("s/op");
        assertThat(primary.get("rawDataHistogram").size()).isEqualTo(3);
        assertThat(primary.get("scorePercentiles").get("50.0").asDouble()).isBetween(2.60, 2.64);
        JsonNode ttft = ours(threeRepetitions()).get(0).get("secondaryMetrics").get("·ttft.mean");
        assertThat(ttft.get("score").asDouble()).isCloseTo(41.12, within(1e-9));
        assertThat(ttft.get("scoreUnit").asText()).isEqualTo("ms");
        assertThat(ttft.get("rawData").size()).isEqualTo(3);
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
        assertThat(entry.get("primaryMetric").get("scoreUnit").asText()).isEqualTo("ms");
        assertThat(entry.get("primaryMetric").get("score").asDouble())
                .isEqualTo(ours(run).get(0).get("secondaryMetrics").get("·ttft.p99").get("score").asDouble());
        assertThat(entry.get("secondaryMetrics").has("·ttft.p99")).isFalse();
        assertThat(entry.get("secondaryMetrics").get("·e2e_latency.mean").get("score").asDouble())
                .isEqualTo(ours(run).get(0).get("primaryMetric").get("score").asDouble());
        assertThat(entry.get("params")).isEqualTo(ours(run).get(0).get("params"));
        assertThat(MAPPER.readTree(new JmhJsonWriter("·output_throughput").toJson(run)).get(0).get("mode").asText())
                .isEqualTo("thrpt");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new JmhJsonWriter("ttft.p42"))
                .hasMessageStartingWith("--jmh-primary ttft.p42: no such metric");
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
        assertThat(b.mode()).isEqualTo("sample");
        assertThat(b.forks()).isEqualTo(3);
        assertThat(b.decodedParams()).isEqualTo(trial.params());
        assertThat(b.primaryMetric().score()).isCloseTo(2.62, within(1e-12));
        assertThat(b.primaryMetric().rawDataHistogram()).hasSize(3);
        assertThat(b.primaryMetric().rawDataHistogram().get(0).get(0))
                .isEqualTo(trial.repetitions().get(0).distribution(Metric.E2E_LATENCY).orElseThrow().histogram());
        // secondary metrics are read without JMH's prefix, so compare's names match files of both layouts
        assertThat(b.secondaryMetrics().get("successful_requests").rawData())
                .containsExactly(List.of(1000.0), List.of(1000.0), List.of(1000.0));
        assertThat(b.secondaryMetrics().get("ttft.p99").scoreUnit()).isEqualTo("ms");
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
            // JMH's readers ignore a field they do not know: ServeBench's own object comes last
            if (path.equals("$") && !ourFields.isEmpty() && ourFields.get(ourFields.size() - 1).equals(JmhJsonWriter.EXTRA)) {
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
