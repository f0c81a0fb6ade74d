package io.servebench.cli;

import io.servebench.runner.NeverReadyStudy;
import io.servebench.runner.RunOptions;
import io.servebench.runner.RunOutcome;
import io.servebench.runner.Runner;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.execution.KilledTrials;
import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.IncompleteRepetition;
import io.servebench.results.RepetitionResult;
import io.servebench.results.journal.RunJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line as a child process, interrupted in the middle of its second repetition by SIGTERM, Ctrl-C's SIGINT
 * or SIGKILL, on the simulated engine and on a {@code command} engine: what the first repetition measured is kept and
 * reported (console, {@code summary.md}, {@code results.json}, exit code), the second is kept apart as interrupted, and
 * {@code --resume} ends the trial with both repetitions, each with every request.
 */
// beside other classes, and its tests beside each other: each looks only at its own harness's processes, and one at
// the never-ready engine's, which nothing else starts
@Execution(ExecutionMode.CONCURRENT)
class InterruptedRunTest {

    /** Two repetitions of 40 requests at 8 per second, a hundred tokens each: about six seconds a repetition. */
    private static final List<String> LOAD = List.of("-r", "2", "-p", "rate=8", "-p", "requests=40", "-p", "warmup=0",
            "-p", "dataset=synthetic:in=fixed(100),out=fixed(100)", "--settle", "0");

    @Test
    void sigtermInTheSecondRepetitionOnTheSimulatedEngine(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        Process harness = harness(tmp, args("SimStudy.baseline", "--simulate", "-o", dir.toString()));
        inTheSecondRepetition(harness, dir, tmp);
        harness.destroy();
        assertThat(harness.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String console = Files.readString(tmp.resolve("harness.out"));
        assertThat(harness.exitValue()).as(console).isEqualTo(143);
        interruptedAndKept(dir, console, "SIGTERM");
        resumedWhole(tmp, dir, IncompleteRepetition.Kind.INTERRUPTED, "interrupted");
    }

    /**
     * A second run in a folder another process is running (a {@code --resume} typed while the first still goes) is
     * turned away before it does anything: the journal's lock is held by the first, and the second neither measures nor
     * writes a report over the first's.
     */
    @Test
    void aResumeWhileTheRunStillGoesIsTurnedAwayAndWritesNothing(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        Process harness = harness(tmp, args("SimStudy.baseline", "--simulate", "-o", dir.toString()));
        try {
            inTheSecondRepetition(harness, dir, tmp);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.execute(new String[] {"--resume", dir.toString()}, new PrintWriter(out, true),
                    new PrintWriter(err, true));
            assertThat(code).as(out + "" + err).isEqualTo(Main.BAD_INPUT);
            assertThat(err.toString()).isEqualTo("error: " + dir.resolve(RunJournal.FILE_NAME) + " is being written by"
                    + " another ServeBench run (a run still going in this folder, or one started in it at the same"
                    + " moment); wait for it to end (--resume then continues it), or write this run to another folder"
                    + " with -o" + System.lineSeparator());
            assertThat(out.toString()).doesNotContain("Starting").doesNotContain("Warmed up");
            assertThat(dir.resolve("results.json")).as("no report of the second run's").doesNotExist();
            assertThat(harness.isAlive()).isTrue();
        } finally {
            harness.destroy();
            harness.waitFor(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void sigintInTheSecondRepetitionOnACommandEngine(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        Process harness = harness(tmp, args("CommandStudy", "-o", dir.toString()));
        inTheSecondRepetition(harness, dir, tmp);
        // Ctrl-C, as a terminal sends it to the harness
        assertThat(new ProcessBuilder("kill", "-INT", Long.toString(harness.pid())).start().waitFor()).isZero();
        assertThat(harness.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String console = Files.readString(tmp.resolve("harness.out"));
        assertThat(harness.exitValue()).as(console).isEqualTo(130);
        interruptedAndKept(dir, console, "SIGINT");
        assertThat(console).contains("Ctrl-C again stops at once");
        assertThat(harness.toHandle().descendants()).as("the engine stopped with the harness").isEmpty();
        resumedWhole(tmp, dir, IncompleteRepetition.Kind.INTERRUPTED, "interrupted");
    }

    @Test
    void sigkillInTheSecondRepetitionOnACommandEngineAndTheResume(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        Process harness = harness(tmp, args("CommandStudy", "-o", dir.toString()));
        inTheSecondRepetition(harness, dir, tmp);
        List<ProcessHandle> engine = harness.toHandle().descendants().toList();
        harness.destroyForcibly();
        assertThat(harness.waitFor(10, TimeUnit.SECONDS)).isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (engine.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(engine.stream().filter(ProcessHandle::isAlive)).as("the engine outlived a SIGKILLed harness").isEmpty();
        // no code ran on the way out: the journal has the first repetition, the second only its streamed records
        assertThat(RunJournal.readEntries(dir)).filteredOn(e -> e.repetition() != null).singleElement()
                .satisfies(e -> assertThat(e.repetition().complete()).isNotNull());
        assertThat(RunJournal.read(dir)).isEmpty();
        resumedWhole(tmp, dir, IncompleteRepetition.Kind.INTERRUPTED, "interrupted");
        BlockResult block = RunJournal.read(dir).get(0);
        assertThat(block.incomplete()).singleElement().satisfies(r -> assertThat(r.reason()).isEqualTo(KilledTrials.REASON));
    }

    @Test
    void anEngineStillLoadingIsGivenUpWhenAProgramInterruptsTheRun(@TempDir Path tmp) throws Exception {
        java.io.StringWriter console = new java.io.StringWriter();
        Runner runner = new Runner(RunOptions.builder().include(NeverReadyStudy.class).outputDir(tmp.resolve("run"))
                .readyTimeout(Duration.ofMinutes(10)).build(), new java.io.PrintWriter(console, true));
        java.util.concurrent.CompletableFuture<RunOutcome> run = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return runner.run();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!console.toString().contains("Starting") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        // this JVM runs other test classes alongside: only the never-ready engine's process is this test's; on a busy
        // machine it may appear a while after "Starting" (a fixed second was once too short in CI)
        List<ProcessHandle> engine = List.of();
        while (engine.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            engine = ProcessHandle.current().descendants()
                    .filter(p -> p.info().arguments().map(a -> List.of(a).contains("1001")).orElse(false)).toList();
        }
        assertThat(engine).as("the never-ready engine's process").isNotEmpty();
        Thread.sleep(500);
        long interruptedNs = System.nanoTime();
        runner.interrupt("the test's stop");
        RunOutcome outcome = run.get(60, TimeUnit.SECONDS);
        // given up at once, not at the ten-minute ready timeout, and its process stopped
        assertThat(Duration.ofNanos(System.nanoTime() - interruptedNs)).isLessThan(Duration.ofSeconds(10));
        assertThat(console.toString()).contains("its start was given up: the run was interrupted (the test's stop)");
        assertThat(outcome.interrupted()).singleElement().satisfies(b -> assertThat(b.state())
                .isEqualTo(BlockResult.State.NOT_RUN));
        assertThat(runner.interruptedBy()).hasValue("the test's stop");
        // stopped, not merely signalled: its supervisor reaps it a moment after the run returns
        for (ProcessHandle p : engine) {
            p.onExit().get(10, TimeUnit.SECONDS);
        }
        assertThat(engine.stream().filter(ProcessHandle::isAlive)).isEmpty();
    }

    /**
     * SIGTERM while the datasets are read, before any engine starts (500 prompts of 21,000 characters counted by a
     * tokenizer of a piece per two characters: seconds of counting): the run ends then with the signal's code and says
     * that nothing was measured, rather than after the file is read.
     */
    @Test
    void sigtermWhileTheDatasetsAreReadEndsTheRunThenSayingNothingWasMeasured(@TempDir Path tmp) throws Exception {
        String dataset = "jsonl:" + io.servebench.runner.LongPrompts.jsonl(tmp, 500) + ",tokenizer="
                + io.servebench.workload.TwoCharacterTokenizer.in(tmp);
        Process harness = harness(tmp, List.of("SimStudy.baseline", "-p", "rate=4", "-p", "requests=4", "-p", "warmup=0",
                "-p", "dataset=" + dataset, "--simulate", "-o", tmp.resolve("run").toString()));
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!Files.readString(tmp.resolve("harness.out")).contains("Reading dataset " + dataset)) {
            assertThat(harness.isAlive()).as(Files.readString(tmp.resolve("harness.out"))).isTrue();
            assertThat(System.nanoTime()).as("the datasets are read within a minute").isLessThan(deadline);
            Thread.sleep(50);
        }
        Thread.sleep(1000);
        long stoppedNs = System.nanoTime();
        harness.destroy();
        assertThat(harness.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - stoppedNs)).isLessThan(Duration.ofSeconds(20));
        String console = Files.readString(tmp.resolve("harness.out"));
        assertThat(harness.exitValue()).as(console).isEqualTo(143);
        assertThat(console).contains("error: interrupted (SIGTERM) while the datasets were read, before any engine"
                + " started: nothing was measured (dataset " + dataset + ": its building was stopped)");
        assertThat(tmp.resolve("run").resolve(RunJournal.FILE_NAME)).doesNotExist();
    }

    /** What an interrupted run says everywhere: its first repetition kept and counted, the second kept apart. */
    private static void interruptedAndKept(Path dir, String console, String signal) throws IOException {
        assertThat(console).contains(signal + ": stopping; the load in flight is cut short")
                .contains("Interrupted (" + signal + "): 0 of 1 trials complete; 1 cut short")
                .contains("1 repetition complete; repetition 2 cut short (interrupted at")
                .contains("Continue with: java -jar benchmarks.jar --resume " + dir);
        BlockResult block = RunJournal.read(dir).get(0);
        assertThat(block.state()).isEqualTo(BlockResult.State.INTERRUPTED);
        assertThat(block.repetitions()).singleElement().satisfies(r -> assertThat(measured(r)).isEqualTo(40));
        assertThat(block.incomplete()).singleElement().satisfies(r -> {
            assertThat(r.number()).isEqualTo(2);
            assertThat(r.kind()).isEqualTo(IncompleteRepetition.Kind.INTERRUPTED);
            assertThat(r.reason()).contains("(" + signal + ")");
            assertThat(dir.resolve(r.records())).exists();
        });
        // results.json: the complete repetition as the entry's one fork, the entry saying that its trial is not complete
        JsonNode entry = new ObjectMapper().readTree(dir.resolve("results.json").toFile()).get(0);
        assertThat(entry.get("forks").asInt()).isEqualTo(1);
        assertThat(entry.get("servebench").get("state").asText()).isEqualTo("interrupted");
        String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary).contains("This run is incomplete: 0 of 1 trials complete, 0 failed, 1 interrupted")
                .contains("The trial was interrupted: interrupted (" + signal + ") during repetition 2")
                .contains("The figures below are those of its 1 complete repetitions")
                .contains("Repetitions that did not complete")
                .contains("repetitions: 1");
    }

    /** {@code --resume} runs the second repetition again, whole, and keeps the cut-short one apart. */
    private static void resumedWhole(Path tmp, Path dir, IncompleteRepetition.Kind kept, String suffix) throws Exception {
        Process resume = harness(tmp, List.of("--resume", dir.toString()));
        assertThat(resume.waitFor(3, TimeUnit.MINUTES)).isTrue();
        String console = Files.readString(tmp.resolve("harness.out"));
        assertThat(resume.exitValue()).as(console).isZero();
        assertThat(console).contains("Resuming: 0 of 1 trials complete before").contains("Done: 1 of 1 trials complete.")
                .doesNotContain("Continue with");
        List<BlockResult> lines = RunJournal.read(dir);
        BlockResult block = lines.get(lines.size() - 1);
        assertThat(block.state()).isEqualTo(BlockResult.State.COMPLETE);
        assertThat(block.repetitions()).hasSize(2).allSatisfy(r -> assertThat(measured(r)).isEqualTo(40));
        assertThat(block.incomplete()).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(kept);
            assertThat(r.records()).endsWith("-r2." + suffix + ".jsonl.gz");
            assertThat(dir.resolve(r.records())).exists();
        });
        try (Stream<Path> files = Files.list(dir.resolve("requests"))) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted()).hasSize(3)
                    .anySatisfy(f -> assertThat(f).endsWith("-r1.jsonl.gz"))
                    .anySatisfy(f -> assertThat(f).endsWith("-r2.jsonl.gz"));
        }
        JsonNode entry = new ObjectMapper().readTree(dir.resolve("results.json").toFile()).get(0);
        assertThat(entry.get("forks").asInt()).isEqualTo(2);
        assertThat(entry.get("servebench").has("state")).isFalse();
    }

    private static long measured(RepetitionResult r) {
        return Math.round(r.value(Metric.SUCCESSFUL_REQUESTS).orElse(0) + r.value(Metric.FAILED_REQUESTS).orElse(0));
    }

    private static List<String> args(String study, String... more) {
        List<String> args = new ArrayList<>(List.of(study));
        args.addAll(LOAD);
        args.addAll(List.of(more));
        return args;
    }

    /**
     * The command line in a JVM of its own, its output in {@code tmp/harness.out}. SIGINT is reset to its default first:
     * a process started in the background of a shell (CI's) inherits it ignored, and honours that.
     */
    private static Process harness(Path tmp, List<String> args) throws IOException {
        List<String> argv = new ArrayList<>(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\""));
        argv.addAll(HarnessJvm.command(List.of(), args));
        // each load's start on a line of its own, which the tests wait for
        argv.add("-v");
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("harness.out").toFile());
        builder.environment().put("SERVEBENCH_TEST_CLASSPATH", System.getProperty("java.class.path"));
        return builder.start();
    }

    /** Returns once the harness is a second into its second repetition: the first journalled, the second sending. */
    private static void inTheSecondRepetition(Process harness, Path dir, Path tmp) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            boolean first = Files.exists(dir.resolve(RunJournal.FILE_NAME)) && RunJournal.readEntries(dir).stream()
                    .anyMatch(e -> e.repetition() != null && e.repetition().complete() != null);
            if (first && Files.readString(tmp.resolve("harness.out")).contains("-r2: 40 requests...")) {
                Thread.sleep(1500);
                return;
            }
            if (!harness.isAlive()) {
                throw new AssertionError("the harness ended before its second repetition: "
                        + Files.readString(tmp.resolve("harness.out")));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no second repetition within 2 min: " + Files.readString(tmp.resolve("harness.out")));
    }
}
