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
 * A synthetic dataset's prompt lengths are what the server counts when the client's tokenizer is the server's: the
 * simulated engine reports its own prompt tokens in {@code usage}, which the metrics sum.
 */
class SyntheticLengthsOnTheServerTest {

    @Test
    void theSimulatedEngineCountsExactlyTheDrawnPromptLengths(@TempDir Path dir) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .param("dataset", "synthetic:in=fixed(100),out=fixed(50),count=40").param("rate", "4")
                .param("requests", "40").param("warmup", "0").param("api", "completions")
                .simulate(EngineParams.Simulate.VIRTUAL).outputDir(dir).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run();
        BlockResult block = outcome.blocks("baseline").get(0);
        assertThat(block.repetitions().get(0).value(Metric.TOTAL_INPUT_TOKENS)).hasValue(40 * 100.0);
        assertThat(block.repetitions().get(0).value(Metric.TOTAL_OUTPUT_TOKENS)).hasValue(40 * 50.0);
    }

    @Test
    void overHttpTheSimulatedEnginesCountsAreExactAndTheReportsSaySo(@TempDir Path dir) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .param("dataset", "synthetic:in=fixed(100),out=fixed(4),count=20").param("rate", "20")
                .param("requests", "20").param("warmup", "0").param("api", "completions")
                .simulate(EngineParams.Simulate.IN_PROCESS).settle(java.time.Duration.ZERO).outputDir(dir).progress(false)
                .build(), new PrintWriter(new StringWriter(), true)).run();
        BlockResult block = outcome.blocks("baseline").get(0);
        assertThat(block.repetitions().get(0).value(Metric.TOTAL_INPUT_TOKENS)).hasValue(20 * 100.0);
        assertThat(block.repetitions().get(0).notes()).anySatisfy(n -> assertThat(n)
                .isEqualTo("prompt tokens: the server's usage where it sent it; prompts counted by the simulated engine's own tokenizer"));
    }
}
