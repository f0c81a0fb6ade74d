package io.servebench.runner;

import io.servebench.execution.ClientOptions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Sweeps, stop conditions and the API key through the runner, against the simulated engine. */
class RunnerLoadOptionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "sk-do-not-write-me";

    private static boolean run(Path dir, Map<String, List<String>> overrides, ClientOptions client) throws Exception {
        return run(dir, "SimStudy\\.baseline", io.servebench.plan.EngineOverrides.NONE, overrides, client);
    }

    private static boolean run(Path dir, String include, io.servebench.plan.EngineOverrides engine,
                               Map<String, List<String>> overrides, ClientOptions client) throws Exception {
        RunOptions.Builder options = RunOptions.builder().include(include).outputDir(dir).settle(Duration.ZERO)
                .readyTimeout(Duration.ofSeconds(20)).engineOverrides(engine).client(client);
        overrides.forEach((name, values) -> options.param(name, values.toArray(String[]::new)));
        StringWriter out = new StringWriter();
        return new Runner(options.build(), new PrintWriter(out, true), name -> "SB_TEST_KEY".equals(name) ? SECRET : null)
                .run().allTrialsRan();
    }

    @Test
    void aSweepBecomesSynchronousThroughputAndRatesBetweenEachItsOwnBlockAndNoFileHoldsTheApiKey(@TempDir Path dir)
            throws Exception {
        ClientOptions client = new ClientOptions("SB_TEST_KEY", Duration.ofSeconds(5), Duration.ofSeconds(60));
        // short replies: the synchronous step waits for each one before it sends the next
        assertThat(run(dir, Map.of("profile", List.of("sweep"), "sweepRates", List.of("1"), "rate", List.of("4"),
                "requests", List.of("2"), "warmup", List.of("0"), "dataset",
                List.of("synthetic:in=fixed(200),out=fixed(40)")), client)).isTrue();

        JsonNode results = JSON.readTree(dir.resolve("results.json").toFile());
        assertThat(results).hasSize(3);
        List<String> steps = new ArrayList<>();
        results.forEach(r -> steps.add(r.get("params").get("sweep").asText()));
        assertThat(steps).containsExactly("s1-synchronous", "s2-throughput", "s3-constant");
        // the steps' own params, as the blocks have them: the first two have no rate of their own
        assertThat(results.get(0).get("servebench").get("params").has("rate")).isFalse();
        assertThat(results.get(1).get("servebench").get("params").has("rate")).isFalse();
        // as JMH params, the step is the axis; the rates the sweep chose as it ran are no param (no "-" placeholder)
        results.forEach(r -> assertThat(r.get("params").has("rate")).isFalse());
        double rate = results.get(2).get("servebench").get("params").get("rate").asDouble();
        double syncRate = requestThroughput(results.get(0));
        double maxRate = requestThroughput(results.get(1));
        // strictly between the two measured rates, at the middle for one rate
        assertThat(rate).isCloseTo((syncRate + maxRate) / 2, org.assertj.core.api.Assertions.within(0.01 * rate));
        assertThat(io.servebench.results.journal.RunJournal.read(dir)).hasSize(3);
        assertThat(io.servebench.results.journal.RunJournal.readServers(dir)).hasSize(1);
        try (Stream<Path> files = Files.list(dir.resolve("requests"))) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted()).hasSize(3)
                    .allSatisfy(name -> assertThat(name).matches("t01-sim-[0-9a-f]{8}-sweep1-s[1-3]-[a-z]+\\.jsonl\\.gz"));
        }

        String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary).contains("--api-key-env SB_TEST_KEY").contains("SimStudy.baseline[s3-constant]");
        for (String file : List.of("summary.md", "results.json", "journal.jsonl")) {
            assertThat(Files.readString(dir.resolve(file))).as(file).doesNotContain(SECRET);
        }
    }

    @Test
    void anEndpointThatWantsTheApiKeyGetsItFromTheReadinessWaitOnAndNoFileHoldsIt(@TempDir Path dir) throws Exception {
        ClientOptions client = new ClientOptions("SB_TEST_KEY", Duration.ofSeconds(5), Duration.ofSeconds(60));
        try (io.servebench.sim.SimulatedEngine server = io.servebench.sim.SimulatedEngine.start(io.servebench.sim.SimParams
                .fromFlags(io.servebench.sim.SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of("--api-key=" + SECRET)), 0, 7)) {
            io.servebench.plan.EngineOverrides url = new io.servebench.plan.EngineOverrides("", List.of(), "",
                    server.baseUri().toString());
            assertThat(run(dir, "EndpointStudy", url, Map.of("requests", List.of("3")), client)).isTrue();
        }
        assertThat(JSON.readTree(dir.resolve("results.json").toFile()).get(0).get("secondaryMetrics")
                .get("·successful_requests").get("score").asDouble()).isEqualTo(3);
        for (String file : List.of("summary.md", "results.json", "journal.jsonl")) {
            assertThat(Files.readString(dir.resolve(file))).as(file).doesNotContain(SECRET);
        }
    }

    @Test
    void aDurationLimitIsReportedInTheBlock(@TempDir Path dir) throws Exception {
        assertThat(run(dir, Map.of("rate", List.of("8"), "requests", List.of("40"), "warmup", List.of("0"),
                "durationSeconds", List.of("0.3")), ClientOptions.DEFAULTS)).isTrue();
        String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary).containsPattern("> \\*\\*Note:\\*\\* stopped after 0\\.300 s \\(duration limit\\): [1-3] of 40 requests sent");
        JsonNode params = JSON.readTree(dir.resolve("results.json").toFile()).get(0).get("servebench").get("params");
        assertThat(params.get("durationSeconds").asText()).isEqualTo("0.3");
    }

    @Test
    void aMissingApiKeyVariableIsACommandLineError(@TempDir Path dir) {
        ClientOptions client = new ClientOptions("SB_NOT_SET", Duration.ofSeconds(5), Duration.ofSeconds(60));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> run(dir, Map.of("requests", List.of("1")), client))
                .isInstanceOf(RunnerException.class)
                .hasMessage("--api-key-env SB_NOT_SET: the environment variable SB_NOT_SET is not set or empty;"
                        + " expected it to hold the API key");
    }

    /** Requests per second: results.json writes them per minute, for its readers' three digits. */
    private static double requestThroughput(JsonNode result) {
        JsonNode metric = result.get("secondaryMetrics").get("·request_throughput");
        assertThat(metric.get("scoreUnit").asText()).isEqualTo("req/min");
        return metric.get("score").asDouble() / 60;
    }
}
