package io.servebench.runner;

import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.RepetitionResult;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimParams;
import io.servebench.sim.SimulatedEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An engine at two URLs (two replicas, here two simulated engines): the load goes to both by the weights given, every
 * figure is also reported per replica and those add up to the whole, and each replica saw the requests it is said to.
 */
class ReplicasTest {

    @Test
    void requestsAreSpreadByWeightAndReportedPerReplica(@TempDir Path dir) throws Exception {
        SimParams settings = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of());
        try (SimulatedEngine a = SimulatedEngine.startRecording(settings, 0, 7);
             SimulatedEngine b = SimulatedEngine.startRecording(settings, 0, 8)) {
            RunOutcome outcome = new Runner(RunOptions.builder().include(EndpointStudy.class)
                    .engineOverrides(new io.servebench.plan.EngineOverrides("", List.of(), "",
                            a.baseUri() + " " + b.baseUri()))
                    .param("requests", "40").param("warmup", "0").param("rate", "20").param("endpointWeights", "3,1")
                    .settle(java.time.Duration.ZERO).outputDir(dir).progress(false).build(),
                    new PrintWriter(new StringWriter(), true)).run();
            BlockResult block = outcome.blocks("asDeployed").get(0);
            RepetitionResult r = block.repetitions().get(0);
            String ua = a.baseUri().toString();
            String ub = b.baseUri().toString();
            assertThat(r.endpoints().keySet()).hasSize(2);
            RepetitionResult ra = r.endpoints().values().stream().toList().get(0);
            RepetitionResult rb = r.endpoints().values().stream().toList().get(1);
            assertThat(ra.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(30);
            assertThat(rb.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(10);
            assertThat(r.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(40);
            assertThat(ra.value(Metric.TOTAL_OUTPUT_TOKENS).orElseThrow() + rb.value(Metric.TOTAL_OUTPUT_TOKENS).orElseThrow())
                    .isEqualTo(r.value(Metric.TOTAL_OUTPUT_TOKENS).orElseThrow());
            // each replica served the requests it is said to: ids by the smooth weighted round robin a, a, b, a
            long atA = IntStream.range(0, 40).filter(i -> a.groundTruth(Integer.toString(i)).isPresent()).count();
            long atB = IntStream.range(0, 40).filter(i -> b.groundTruth(Integer.toString(i)).isPresent()).count();
            assertThat(atA).isEqualTo(30);
            assertThat(atB).isEqualTo(10);
            assertThat(b.groundTruth("2")).isPresent();
            assertThat(Files.readString(dir.resolve("summary.md"))).contains("Per replica of the engine")
                    .contains("| " + ua + "/ |").contains("| " + ub + "/ |");
        }
    }
}
