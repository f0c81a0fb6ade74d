package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.results.BlockResult;
import io.servebench.workload.TwoCharacterTokenizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A run stopped while it builds prompts stops then, not when they are built: a set counted by a real tokenizer takes
 * seconds to minutes (here every text cut into pieces of two characters), and Ctrl-C or SIGTERM used to wait for all of
 * it. A file's set is read before any engine starts; a {@code synthetic:} set builds a load's prompts just before the
 * load.
 */
class InterruptedDatasetBuildTest {

    private static CompletableFuture<RunOutcome> start(Runner runner) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return runner.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static Runner runner(Path dir, String dataset, StringWriter console) {
        return new Runner(RunOptions.builder().include(SimStudy.class, "baseline").param("rate", "4")
                .param("dataset", dataset).param("requests", "400").param("warmup", "0")
                .simulate(EngineParams.Simulate.VIRTUAL).outputDir(dir.resolve("run")).progress(false).build(),
                new PrintWriter(console, true));
    }

    @Test
    void aStopWhileAFileIsReadEndsTheRunBeforeAnyEngineStartsAndSaysNothingWasMeasured(@TempDir Path dir)
            throws Exception {
        Path file = LongPrompts.jsonl(dir, 500);
        String dataset = "jsonl:" + file + ",tokenizer=" + TwoCharacterTokenizer.in(dir);
        Runner runner = runner(dir, dataset, new StringWriter());
        CompletableFuture<RunOutcome> run = start(runner);
        Thread.sleep(1000);
        assertThat(run).as("the file's counting, seconds long").isNotDone();
        long interruptedNs = System.nanoTime();
        runner.interrupt("the test's stop");

        assertThatThrownBy(() -> run.get(120, TimeUnit.SECONDS)).cause().isInstanceOf(RunnerException.class)
                .hasMessage("interrupted (the test's stop) while the datasets were read, before any engine started:"
                        + " nothing was measured (dataset " + dataset + ": its building was stopped)");
        assertThat(Duration.ofNanos(System.nanoTime() - interruptedNs)).as("from the stop to the run's end")
                .isLessThan(Duration.ofSeconds(20));
        assertThat(Runner.journal(dir.resolve("run"))).doesNotExist();
    }

    @Test
    void aStopWhileALoadsPromptsAreBuiltEndsTheTrialAsInterruptedBeforeItsRepetition(@TempDir Path dir)
            throws Exception {
        // 400 prompts of 20,000 tokens, each cut to length by counting its prefixes: minutes
        StringWriter console = new StringWriter();
        Runner runner = runner(dir, "synthetic:in=fixed(20000),out=fixed(2),tokenizer=" + TwoCharacterTokenizer.in(dir),
                console);
        CompletableFuture<RunOutcome> run = start(runner);
        Thread.sleep(1500);
        assertThat(run).as("the load's prompts, minutes long").isNotDone();
        long interruptedNs = System.nanoTime();
        runner.interrupt("the test's stop");
        RunOutcome outcome = run.get(120, TimeUnit.SECONDS);

        assertThat(Duration.ofNanos(System.nanoTime() - interruptedNs)).as("from the stop to the run's end")
                .isLessThan(Duration.ofSeconds(20));
        assertThat(outcome.interrupted()).singleElement().satisfies(b -> {
            assertThat(b.state()).isEqualTo(BlockResult.State.INTERRUPTED);
            assertThat(b.failure()).contains("interrupted (the test's stop) before repetition 1, while its dataset was"
                    + " built; 0 of 1 repetitions complete");
        });
        assertThat(outcome.failed()).isEmpty();
        assertThat(Files.readString(dir.resolve("run/summary.md"))).contains("while its dataset was built");
    }
}
