package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code saturationWindowSeconds} on the simulated engine in virtual time: a load below the twin's knee runs to its
 * end, one far past it stops sending once its queue has grown for a window, and says so in the block.
 */
class OverSaturationOnTheTwinTest {

    @Test
    void stopsALoadPastTheKneeAndNotOneBelowIt(@TempDir Path dir) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .param("rate", "8", "80").param("requests", "4000").param("warmup", "0")
                .param("saturationWindowSeconds", "20").simulate(EngineParams.Simulate.VIRTUAL)
                .settle(java.time.Duration.ZERO).outputDir(dir).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run();
        BlockResult below = block(outcome, "8");
        BlockResult past = block(outcome, "80");
        assertThat(below.params()).containsEntry("saturationWindowSeconds", "20");
        assertThat(below.repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS).orElseThrow()).isEqualTo(4000);
        assertThat(below.repetitions().get(0).notes()).noneMatch(n -> n.contains("over-saturated"));
        var r = past.repetitions().get(0);
        assertThat(r.notes()).anyMatch(n -> n.startsWith("stopped sending at ") && n.contains("over-saturated: over the "
                + "last 20.0 s, TTFT rose"));
        double sent = r.value(Metric.SUCCESSFUL_REQUESTS).orElseThrow() + r.value(Metric.FAILED_REQUESTS).orElse(0);
        // 4,000 requests at 80 req/s take 50 s to send: it stopped well before, and every request sent was measured
        assertThat(sent).isLessThan(4000 * 0.8);
        assertThat(r.value(Metric.FAILED_REQUESTS).orElse(0)).isZero();
    }

    private static BlockResult block(RunOutcome outcome, String rate) {
        return outcome.blocks("baseline").stream().filter(b -> rate.equals(b.params().get("rate"))).findFirst()
                .orElseThrow();
    }
}
