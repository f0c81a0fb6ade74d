package io.servebench.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * The same trial on the same seed, once on the real-time simulated engine over sockets and once in virtual time:
 * the same answers, and latencies that differ only by what real time adds (the client, the network, a busy CPU).
 */
class VirtualTimeAgreementTest {

    private static JsonNode run(Path dir, String mode) throws IOException {
        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"SimStudy.baseline", mode, "-p", "rate=8", "-p", "requests=40",
            "-p", "warmup=0", "--settle", "0", "-o", dir.toString()}, new PrintWriter(out, true), new PrintWriter(out, true));
        assertThat(code).as(out.toString()).isZero();
        JsonNode results = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
        assertThat(results).hasSize(1);
        return results.get(0);
    }

    private static double secondary(JsonNode block, String name) {
        JsonNode metric = block.path("secondaryMetrics").path(name);
        assertThat(metric.isMissingNode()).as(name).isFalse();
        return metric.path("score").asDouble();
    }

    @Test
    void realTimeAndVirtualTimeAgreeOnTheSameSeed(@TempDir Path dir) throws IOException {
        JsonNode real = run(dir.resolve("real"), "--simulate");
        JsonNode virtual = run(dir.resolve("virtual"), "--simulate=virtual");

        assertThat(secondary(virtual, "·total_output_tokens")).isEqualTo(secondary(real, "·total_output_tokens"));
        assertThat(secondary(virtual, "·total_input_tokens")).isEqualTo(secondary(real, "·total_input_tokens"));
        assertThat(virtual.path("primaryMetric").path("score").asDouble())
                .isCloseTo(real.path("primaryMetric").path("score").asDouble(), withPercentage(5));
        assertThat(secondary(virtual, "·itl.p50")).isCloseTo(secondary(real, "·itl.p50"), withPercentage(5));
        assertThat(secondary(virtual, "·e2e_latency.p95")).isCloseTo(secondary(real, "·e2e_latency.p95"), withPercentage(10));
        // real time adds the client, the socket and late writes to the first token: milliseconds, not the tens of
        // milliseconds of the model's own TTFT
        assertThat(secondary(real, "·ttft.mean") - secondary(virtual, "·ttft.mean")).isBetween(-0.5, 10.0);
        assertThat(secondary(virtual, "·schedule_lag.max")).isZero();
        // the summary's command line repeats the run in virtual time, not on the study's real engine
        assertThat(java.nio.file.Files.readString(dir.resolve("virtual").resolve("summary.md")))
                .containsPattern("- Command line: `java -jar benchmarks.jar SimStudy\\.baseline .*--simulate=virtual");
    }
}
