package io.servebench.runner;

import io.servebench.engine.EngineOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A run interrupted while it reads its datasets (before any engine starts) stops then, not when they are built: a set
 * of long prompts counted by a real tokenizer takes minutes (here a thousand prompts of 20,000 tokens, each cut to
 * length by a tokenizer of a piece per two characters), and Ctrl-C or SIGTERM used to wait for all of it.
 */
class InterruptedDatasetBuildTest {

    @Test
    void aStopWhileTheDatasetsAreReadEndsTheRunAtOnceAndSaysNothingWasMeasured(@TempDir Path dir) throws Exception {
        Path tokenizer = TwoCharacterTokenizer.in(dir);
        StringWriter console = new StringWriter();
        Runner runner = new Runner(RunOptions.builder().include(SimStudy.class, "baseline").param("rate", "4")
                .param("dataset", "synthetic:in=fixed(20000),out=fixed(2),count=1000,tokenizer=" + tokenizer)
                .param("requests", "4").param("warmup", "0").simulate(EngineOptions.Simulate.VIRTUAL)
                .outputDir(dir.resolve("run")).progress(false).build(), new PrintWriter(console, true));
        CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> {
            try {
                return runner.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        // the datasets are read before any engine starts: a second in, the run is counting prompts
        Thread.sleep(1500);
        assertThat(run).as("the dataset's building, minutes long").isNotDone();
        long interruptedNs = System.nanoTime();
        runner.interrupt("the test's stop");

        assertThatThrownBy(() -> run.get(120, TimeUnit.SECONDS)).cause().isInstanceOf(RunnerException.class)
                .hasMessageStartingWith("interrupted (the test's stop) while the datasets were read, before any engine"
                        + " started: nothing was measured (dataset synthetic:in=fixed(20000)")
                .hasMessageEndingWith("its building was stopped)");
        assertThat(Duration.ofNanos(System.nanoTime() - interruptedNs)).as("from the stop to the run's end")
                .isLessThan(Duration.ofSeconds(20));
        assertThat(dir.resolve("run").resolve(Runner.journal(dir.resolve("run")).getFileName())).doesNotExist();
    }
}
