package io.servebench.cli;

import io.servebench.sim.SimDialect;
import io.servebench.sim.SimParams;
import io.servebench.sim.SimulatedEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Engines started, watched and stopped by a whole run: nothing may outlive it, and a crash is data. */
// beside other classes: the engines it kills, and those it checks none is left of, are found by its own seed
class EngineLifecycleTest {

    /** The seed of this class's runs, in their engines' command lines, which no other class's runs use. */
    private static final String SEED = "5150";

    private static int run(StringWriter out, String... args) {
        return Main.execute(args, new PrintWriter(out, true), new PrintWriter(out, true));
    }

    private static List<ProcessHandle> simProcesses(ProcessHandle root) {
        // the engine itself, not its supervisor, whose command line holds the engine's
        return root.descendants().filter(ProcessHandle::isAlive)
                .filter(p -> commandLine(p).contains(" io.servebench.sim.SimServer "))
                .filter(p -> commandLine(p).contains(" --seed " + SEED + " "))
                .filter(p -> !commandLine(p).contains(" io.servebench.engine.Supervisor ")).toList();
    }

    /**
     * The whole command line: the JDK's {@code ProcessHandle.Info} reads only the first 4 KiB of
     * {@code /proc/PID/cmdline} on Linux, and a test class path (jars in the local Maven repository) is longer.
     */
    private static String commandLine(ProcessHandle p) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (java.io.IOException e) {
            return p.info().commandLine().orElse("");
        }
    }

    private static Optional<ProcessHandle> awaitSimProcess(ProcessHandle root, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<ProcessHandle> sims = simProcesses(root);
            if (!sims.isEmpty()) {
                return Optional.of(sims.get(0));
            }
            Thread.sleep(50);
        }
        return Optional.empty();
    }

    /**
     * The run's exit code; a run that does not end fails the test with every thread's stack, where it hangs being what
     * such a failure needs to show.
     */
    private static int awaitExit(CompletableFuture<Integer> code, StringWriter out) throws Exception {
        try {
            return code.get(3, TimeUnit.MINUTES);
        } catch (java.util.concurrent.TimeoutException e) {
            StringBuilder stacks = new StringBuilder();
            Thread.getAllStackTraces().forEach((thread, frames) -> {
                stacks.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
                for (StackTraceElement frame : frames) {
                    stacks.append("    at ").append(frame).append('\n');
                }
            });
            throw new AssertionError("the run did not end within 3 minutes; its output:\n" + out + "\nthreads:\n" + stacks, e);
        }
    }

    @Test
    void theSimulatedEngineRunsAsAProcessAndNothingIsLeftAfterwards(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        int code = run(out, "SimStudy.baseline", "--simulate=process", "-p", "rate=8", "-p", "requests=6", "-p", "warmup=0",
                "--seed", SEED, "-o", dir.toString());
        assertThat(code).as(out.toString()).isZero();
        assertThat(simProcesses(ProcessHandle.current())).isEmpty();
        assertThat(dir.resolve("summary.md")).exists();
        try (var logs = Files.list(dir.resolve("logs"))) {
            assertThat(logs.toList()).singleElement().satisfies(log ->
                    assertThat(Files.readString(log)).contains("io.servebench.sim.SimServer Qwen/Qwen3.5-9B --host 127.0.0.1 --port"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void anEndpointStudyRunsAgainstTheUrlGivenOnTheCommandLine(@TempDir Path dir) throws Exception {
        try (SimulatedEngine server = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of()), 0, 7)) {
            StringWriter out = new StringWriter();
            int code = run(out, "EndpointStudy", "--engine-url", server.baseUri() + "/v1", "-o", dir.toString());
            assertThat(code).as(out.toString()).isZero();
            assertThat(Files.readString(dir.resolve("summary.md"))).contains("EndpointStudy.asDeployed")
                    .contains("--engine-url " + server.baseUri());
            // the endpoint is not ours: still serving
            assertThat(server.groundTruth("0")).isPresent();
        }
    }

    @Test
    void anEngineThatDiesMidTrialFailsThatTrialAndTheRunGoesOnWithTheNextServer(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        // short replies: a trial lasts about its schedule
        // -v: the console says when the first trial's load starts, which the test waits for
        CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> run(out, "SimStudy", "--simulate=process",
                "-p", "rate=4,8", "-p", "requests=12", "-p", "warmup=0", "-p", "dataset=synthetic:in=fixed(200),out=fixed(40)",
                "--settle", "0", "--seed", SEED, "-v", "-o", dir.toString()));
        ProcessHandle first = awaitSimProcess(ProcessHandle.current(), Duration.ofSeconds(60)).orElseThrow();
        // let the first trial's load get going (its prompts are counted by the engine first), then crash its engine
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!out.toString().contains("[1/4] t01") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(1500);
        first.destroyForcibly();
        assertThat(awaitExit(code, out)).as(out.toString()).isEqualTo(1);

        String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary).contains("exited with code 137 during the trial")
                .contains("its engine had died during an earlier trial");
        assertThat(out.toString()).contains("Starting s02");
        // every block is journalled, and the second server's trials ran
        assertThat(io.servebench.results.journal.RunJournal.read(dir)).hasSize(4);
        assertThat(io.servebench.results.journal.RunJournal.readServers(dir)).hasSize(2);
        assertThat(summary).containsPattern("SimStudy\\.mtp2 \\| speculative-decoding[^|]* \\| 4 \\| [0-9.]+ ")
                .containsPattern("SimStudy\\.mtp2 \\| speculative-decoding[^|]* \\| 8 \\| [0-9.]+ ");
        // a trial cut short is reported with what it measured, kept apart as a failed repetition, and never used as a
        // baseline
        assertThat(summary).contains("The trial failed: repetition 1 failed: its engine died")
                .contains("Repetitions that did not complete")
                .contains("No baseline with latency results at this workload point: nothing to compare.");
        assertThat(simProcesses(ProcessHandle.current())).isEmpty();
    }

    @Test
    void killingTheHarnessWithSigtermStopsItsEngine(@TempDir Path dir) throws Exception {
        Process harness = new ProcessBuilder(HarnessJvm.command("SimStudy.baseline", "--simulate=process", "-p", "rate=2",
                "-p", "requests=200", "--seed", SEED, "-o", dir.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("harness.out").toFile()).start();
        try {
            ProcessHandle engine = awaitSimProcess(harness.toHandle(), Duration.ofSeconds(60)).orElseThrow(() ->
                    new AssertionError("no engine started; harness output: " + read(dir.resolve("harness.out"))));
            Thread.sleep(2000);
            harness.destroy();
            assertThat(harness.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(engine.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
            // what was measured is kept: the reports are written on the way out
            assertThat(dir.resolve("summary.md")).exists();
        } finally {
            harness.destroyForcibly();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
