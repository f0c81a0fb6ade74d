package io.servebench.runner;

import io.servebench.execution.ClientWarmup;

import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The first trial of a run is measured as a later one is: the harness warms its own code first, and the
 * simulated engine's timing follows its model whatever the CPU does meanwhile.
 */
// alone: its 2% agreement of real-time latencies, and the process-wide client warm-up it looks for, need the CPU to itself
@Isolated
class FirstTrialTest {

    @Test
    void theSameConfigurationFirstLaterAndInAnotherRunAgreesWithin2Percent(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        boolean warmedBefore = ClientWarmup.done();
        RunOutcome both = new Runner(RunOptions.builder().include(RepeatStudy.class).settle(Duration.ZERO)
                .outputDir(dir.resolve("one")).progress(false).build(), new PrintWriter(out, true)).run();
        RunOutcome alone = new Runner(RunOptions.builder().include(RepeatStudy.class, "again")
                .settle(Duration.ZERO).outputDir(dir.resolve("two")).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run();

        double first = meanLatency(both, "first");
        double later = meanLatency(both, "again");
        double elsewhere = meanLatency(alone, "again");
        assertThat(later).as("later trial vs first (%s)", out).isCloseTo(first, within(0.02 * first));
        assertThat(elsewhere).as("another run vs first").isCloseTo(first, within(0.02 * first));
        // two server starts in the first run: the flag the engine ignores still makes a server configuration
        assertThat(out.toString()).contains("Starting s02");
        if (!warmedBefore) {
            assertThat(out.toString()).contains("Warmed up the load generator: 800 requests");
        }
    }

    private static double meanLatency(RunOutcome outcome, String variant) {
        BlockResult block = outcome.blocks(variant).get(0);
        assertThat(block.repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS)).hasValue(24);
        return block.repetitions().get(0).number(Metric.E2E_LATENCY, Stat.MEAN).orElseThrow();
    }
}
