package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A load that calls a share of its requests off, on the simulated engine over HTTP: counted apart, the rest measured. */
class CancellationOnTheTwinTest {

    private static RunOptions.Builder options(Path dir) {
        return RunOptions.builder().include(SimStudy.class, "baseline").param("rate", "8").param("requests", "40")
                .param("warmup", "0").param("cancellationRate", "25").param("cancellationDelaySeconds", "0.5")
                .settle(java.time.Duration.ZERO).outputDir(dir).progress(false);
    }

    @Test
    void aQuarterIsCalledOffAndCountedApartFromSuccessesAndFailures(@TempDir Path dir) throws Exception {
        RunOutcome outcome = new Runner(options(dir).simulate(EngineParams.Simulate.IN_PROCESS).build(),
                new PrintWriter(new StringWriter(), true)).run();
        BlockResult block = outcome.blocks("baseline").get(0);
        RepetitionResult r = block.repetitions().get(0);
        double cancelled = r.value(Metric.CANCELLED_REQUESTS).orElseThrow();
        assertThat(cancelled).isBetween(2.0, 20.0);
        assertThat(r.value(Metric.FAILED_REQUESTS)).hasValue(0);
        assertThat(r.value(Metric.SUCCESSFUL_REQUESTS).orElseThrow() + cancelled).isEqualTo(40);
        assertThat(block.params()).containsEntry("cancellationRate", "25").containsEntry("cancellationDelaySeconds", "0.5");
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("| Cancelled requests |");
    }

    @Test
    void virtualTimeRefusesItBeforeAnythingStartsWithWhatToDoInstead(@TempDir Path dir) {
        StringWriter console = new StringWriter();
        Runner runner = new Runner(options(dir).simulate(EngineParams.Simulate.VIRTUAL).build(),
                new PrintWriter(console, true));
        assertThatThrownBy(runner::run).isInstanceOf(RunnerException.class)
                .hasMessageStartingWith("cancellationRate (io.servebench.runner.SimStudy.baseline) calls requests off")
                .hasMessageContaining("--simulate=virtual has none: run it with --simulate");
        assertThat(console.toString()).doesNotContain("Starting");
        assertThat(dir.resolve("journal.jsonl")).doesNotExist();
    }
}
