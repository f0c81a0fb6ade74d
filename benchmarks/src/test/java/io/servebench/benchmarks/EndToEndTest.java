package io.servebench.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.cli.Main;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.journal.RunJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole path, over real sockets: the compiled study list, the planner, the simulated engine, the load, the reports. */
class EndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    void listShowsTheReferenceStudyFromTheCompiledBenchmarkList() {
        String[] r = run("-l", "qwen");
        assertThat(r[0]).isEqualTo("0");
        List<String> lines = r[1].lines().toList();
        assertThat(lines).hasSize(10)
                .contains("io.servebench.benchmarks.qwen.LatencyTuning.vllm", "io.servebench.benchmarks.qwen.RateValidation.recommended");
    }

    @Test
    void dryRunOfTheReferenceStudyShows18BlocksAs16TrialsOn10Servers() {
        String[] r = run("--dry-run", "qwen");
        assertThat(r[0]).isEqualTo("0");
        List<String> lines = r[1].lines().toList();
        assertThat(lines.get(lines.size() - 1)).isEqualTo("16 trials, 10 server starts");
        assertThat(lines.get(lines.size() - 2)).startsWith("18 result blocks");
        assertThat(lines).hasSize(18);
    }

    @Test
    void quickStartRunsAgainstTheSimulatedEngineAndWritesTheRunFolder(@TempDir Path dir) throws Exception {
        String[] r = run("QuickStart", "-p", "rate=8", "-p", "requests=12", "-p", "warmup=2", "-o", dir.toString());
        assertThat(r[0]).as("exit code; stdout:%n%s%nstderr:%n%s", r[1], r[2]).isEqualTo("0");

        // one line per result block, and one per server start with its environment
        assertThat(RunJournal.read(dir)).hasSize(2);
        assertThat(RunJournal.readServers(dir)).extracting(ServerEnvironment::engineVersion)
                .allSatisfy(v -> assertThat(v).startsWith("ServeBench simulated engine"));
        // its GPUs are the ones it imitates (--simulate-gpu's default, one H100 for one tensor-parallel rank), not the
        // host's: a simulated server is never said to have run without a GPU
        assertThat(RunJournal.readServers(dir)).extracting(ServerEnvironment::gpus)
                .allSatisfy(g -> assertThat(g).containsExactly("NVIDIA H100 80GB HBM3 (simulated)"));

        JsonNode results = JSON.readTree(dir.resolve("results.json").toFile());
        assertThat(results.isArray()).isTrue();
        assertThat(results).hasSize(2);
        JsonNode baseline = results.get(0);
        assertThat(baseline.get("benchmark").asText()).isEqualTo("io.servebench.benchmarks.QuickStart.baseline");
        // one rate: nothing varies, so no JMH params; the block's own params are in ServeBench's object
        assertThat(baseline.has("params")).isFalse();
        assertThat(baseline.get("servebench").get("params").get("rate").asText()).isEqualTo("8");
        double meanLatency = baseline.get("primaryMetric").get("score").asDouble();
        assertThat(baseline.get("primaryMetric").get("scoreUnit").asText()).isEqualTo("ms/op");
        assertThat(meanLatency).isGreaterThan(50).isLessThan(30_000);

        String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary).contains("Serving Benchmark Result").contains("QuickStart.mtp2")
                .containsPattern("(faster|slower|no significant difference)")
                .contains("QuickStart recommends **mtp2**:\n\n```sh\nvllm serve Qwen/Qwen3.5-9B --max-model-len=32768 "
                        + "'--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}'\n```");
        assertThat(Files.readString(dir.resolve("report.html"))).startsWith("<!DOCTYPE html>")
                .contains("<h3>CDF of ITL (ms): QuickStart</h3>");

        try (var files = Files.list(dir.resolve("requests"))) {
            List<Path> gz = files.toList();
            assertThat(gz).hasSize(2);
            try (var in = new GZIPInputStream(Files.newInputStream(gz.get(0)))) {
                List<String> lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
                assertThat(lines).hasSize(14);
                JsonNode first = JSON.readTree(lines.get(2));
                assertThat(first.get("output_tokens").asInt()).isPositive();
                assertThat(first.get("events").size()).isPositive();
            }
        }
    }

    @Test
    void badCommandLinesGetOneLineAndExitCode2() {
        String[] noMatch = run("--dry-run", "NoSuchStudy");
        assertThat(noMatch[0]).isEqualTo("2");
        assertThat(noMatch[2].strip()).contains("no benchmark matches \"NoSuchStudy\"").doesNotContain("\n");

        String[] badLang = run("--dry-run", "--lang", "fr", "QuickStart");
        assertThat(badLang[0]).isEqualTo("2");
        assertThat(badLang[2].strip()).isEqualTo("error: report language \"fr\" is not supported; expected en or zh-CN");

        String[] badValue = run("--dry-run", "-p", "rate=-1", "QuickStart");
        assertThat(badValue[0]).isEqualTo("2");
        assertThat(badValue[2].strip()).contains("-p rate=-1");

        String[] badOption = run("--no-such-option");
        assertThat(badOption[0]).isEqualTo("2");
        assertThat(badOption[2].strip()).contains("--no-such-option").doesNotContain("\n");

        String[] missingData = run("-p", "requests=1", "LatencyTuning.vllm$", "-p", "rate=8");
        assertThat(missingData[0]).isEqualTo("2");
        assertThat(missingData[2].strip()).contains("ShareGPT_V3_unfiltered_cleaned_split.json does not exist")
                .contains("-p dataset=synthetic-sharegpt").doesNotContain("\n");
    }

    @Test
    void aRealEngineThatIsNotInstalledFailsItsTrialsOnceAndTheRunReportsIt(@TempDir Path dir) throws Exception {
        String[] r = run("LatencyTuning.vllm$", "-p", "rate=8", "-p", "requests=1", "-p", "dataset=synthetic-sharegpt",
                "--engine-exe", "/nonexistent/bin/vllm", "-o", dir.toString());
        assertThat(r[0]).as(r[1]).isEqualTo("1");
        assertThat(r[1]).contains("did not start").contains("cannot start /nonexistent/bin/vllm");
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("engine did not start");
        assertThat(RunJournal.read(dir)).singleElement().satisfies(t -> assertThat(t.failure()).contains("/nonexistent/bin/vllm"));
    }
}
