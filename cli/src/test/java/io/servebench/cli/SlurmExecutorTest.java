package io.servebench.cli;

import io.servebench.execution.slurm.SlurmParams;
import io.servebench.runner.RunOptions;
import io.servebench.runner.RunOutcome;
import io.servebench.runner.Runner;
import io.servebench.runner.SimStudy;
import io.servebench.runner.SimTuning;

import io.servebench.engine.EngineParams;
import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.journal.RunJournal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A study through real {@code sbatch} jobs on the one-node cluster of {@code scripts/slurm-local} (which {@code .ci/run}
 * starts; without a cluster these tests are skipped, saying why).
 */
class SlurmExecutorTest {

    private static final SlurmParams SLURM = new SlurmParams(null, null, null, 0, List.of());

    @BeforeAll
    static void aClusterTakesJobs() {
        assumeThat(run("sinfo", "-h", "-o", "%t")).as("a SLURM node that takes jobs (scripts/slurm-local start)")
                .containsAnyOf("idle", "mix", "alloc");
    }

    private static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            return out;
        } catch (Exception e) {
            return "cannot run " + command[0] + ": " + e.getMessage();
        }
    }

    /**
     * Simulated engines (or their supervisors) that a SLURM job started: processes whose environment holds the
     * {@code SLURM_JOB_ID} a job gives everything it starts, which stays theirs if they outlive the job; the engines that
     * other test classes run beside this one at the same time do not have it.
     */
    private static List<String> enginesUnderSlurm() {
        return ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(" io.servebench.sim.SimServer "))
                .filter(p -> {
                    try {
                        String environment = new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()),
                                "environ")), StandardCharsets.UTF_8);
                        return ("\0" + environment).contains("\0SLURM_JOB_ID=");
                    } catch (IOException e) {
                        return false; // it ended
                    }
                })
                .map(p -> p.pid() + " " + commandLine(p)).toList();
    }

    /** A process's whole command line ({@code ProcessHandle.Info} reads only its first 4 KiB on Linux). */
    private static String commandLine(ProcessHandle p) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return p.info().commandLine().orElse("");
        }
    }

    private static RunOptions.Builder study(Path dir, EngineParams.Simulate simulate, String requests) {
        return RunOptions.builder().include(SimStudy.class).param("rate", "8").param("requests", requests)
                .param("warmup", "0").simulate(simulate).settle(Duration.ZERO).outputDir(dir).progress(false);
    }

    private static Map<String, Double> requestsByTrial(RunOutcome outcome) {
        return outcome.result().blocks().stream().collect(Collectors.toMap(BlockResult::trialId,
                b -> b.repetitions().isEmpty() ? 0 : b.repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS).orElse(0)));
    }

    private static Map<String, Integer> repetitionsByTrial(RunOutcome outcome) {
        return outcome.result().blocks().stream().collect(Collectors.toMap(BlockResult::trialId, b -> b.repetitions().size(),
                Math::max));
    }

    @Test
    void jobsOutliveAKilledCoordinatorAndTheResumedRunFollowsThemToTheLocalRunsResults(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("slurm");
        Path coordinatorOut = tmp.resolve("coordinator.out");
        Process coordinator = new ProcessBuilder(HarnessJvm.command("SimStudy", "-p", "rate=8", "-p", "requests=30", "-p",
                "warmup=0", "--settle", "0", "--simulate=virtual", "--executor", "slurm", "-o", dir.toString()))
                .redirectErrorStream(true).redirectOutput(coordinatorOut.toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline && (!Files.exists(coordinatorOut)
                || Files.readString(coordinatorOut).split("Submitted SLURM job", -1).length < 3)) {
            Thread.sleep(50);
        }
        // SIGKILL: no hook runs, no job is cancelled
        coordinator.destroyForcibly().waitFor();
        String first = Files.readString(coordinatorOut);
        assertThat(first).containsPattern("Submitted SLURM job \\d+: s01-sim-\\w+, 1 trials")
                .containsPattern("Submitted SLURM job \\d+: s02-sim-\\w+, 1 trials");

        StringWriter out = new StringWriter();
        int code = io.servebench.cli.Main.execute(new String[] {"--resume", dir.toString()}, new PrintWriter(out, true),
                new PrintWriter(out, true));
        assertThat(code).as(out.toString()).isZero();
        // the jobs of the killed coordinator are followed (or, had they ended, merged), never submitted again
        assertThat(out.toString()).doesNotContain("Submitted SLURM job")
                .containsAnyOf("submitted before the run was resumed", "ended before the run was resumed");
        RunOutcome local = new Runner(study(tmp.resolve("local"), EngineParams.Simulate.VIRTUAL, "30").build(),
                new PrintWriter(new StringWriter(), true)).run();
        Map<String, Double> merged = RunJournal.read(dir).stream().collect(Collectors.toMap(BlockResult::trialId,
                b -> b.repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS).orElse(0), (x, y) -> y));
        assertThat(merged).isEqualTo(requestsByTrial(local)).hasSize(2).containsValue(30.0);
        assertThat(RunJournal.read(dir)).as("each trial journalled once").hasSize(2);
        assertThat(dir.resolve("summary.md")).exists();
        // the job scripts stay for inspection, the worker's command word by word, beside the job each worker read
        try (var scripts = Files.list(dir.resolve("jobs"))) {
            List<Path> sh = scripts.filter(p -> p.toString().endsWith(".sh")).toList();
            assertThat(sh).hasSize(2);
            Path job = Path.of(sh.get(0).toString().replaceFirst("\\.sh$", ".json"));
            assertThat(Files.readString(sh.get(0))).contains("'io.servebench.execution.slurm.SlurmWorker'")
                    .contains("'" + job + "'");
            assertThat(io.servebench.execution.slurm.SlurmJob.read(job).trials()).hasSize(1);
        }
        assertThat(run("squeue", "-h", "--me", "-o", "%j")).doesNotContain("servebench-s0");
    }

    @Test
    void aTuningStudyRunsItsRoundsAsJobsAndResumedAfterItsCoordinatorWasKilledTunesAsALocalRunDoes(@TempDir Path tmp)
            throws Exception {
        Path localDir = tmp.resolve("local");
        RunOutcome local = new Runner(RunOptions.builder().include(SimTuning.class).simulate(EngineParams.Simulate.VIRTUAL)
                .settle(Duration.ZERO).progress(false).outputDir(localDir).build(), new PrintWriter(new StringWriter(), true))
                .run();
        Path dir = tmp.resolve("slurm");
        Path coordinatorOut = tmp.resolve("coordinator.out");
        Process coordinator = new ProcessBuilder(HarnessJvm.command("SimTuning", "--settle", "0", "--simulate=virtual",
                "--executor", "slurm", "-o", dir.toString()))
                .redirectErrorStream(true).redirectOutput(coordinatorOut.toFile()).start();
        // SIGKILL once the option group's round is submitted: the tuner's first round is merged, its second in flight
        Pattern secondRound = Pattern.compile("Submitted SLURM job \\d+: (r\\d\\d)-s02-");
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        Matcher submitted = secondRound.matcher("");
        while (System.nanoTime() < deadline && !(Files.exists(coordinatorOut)
                && (submitted = secondRound.matcher(Files.readString(coordinatorOut))).find())) {
            Thread.sleep(50);
        }
        coordinator.destroyForcibly().waitFor();
        assertThat(submitted.hitEnd()).as(Files.readString(coordinatorOut)).isFalse();
        String round = submitted.group(1);

        StringWriter out = new StringWriter();
        int code = io.servebench.cli.Main.execute(new String[] {"--resume", dir.toString()}, new PrintWriter(out, true),
                new PrintWriter(out, true));
        assertThat(code).as(out.toString()).isZero();
        // the replayed tuner numbers its rounds as the killed one did: it finds the round in flight, never submits it
        // or the rounds before it again, and goes on from there
        assertThat(out.toString()).doesNotContainPattern("Submitted SLURM job \\d+: r01-").doesNotContainPattern(
                "Submitted SLURM job \\d+: " + round + "-").containsPattern("SLURM job \\d+ \\(" + round
                + "-s02-\\S+\\)(,| ended before the run was resumed)|Following SLURM job \\d+: " + round + "-s02-");
        // virtual time: the jobs measure what this machine would have, to the token, so the tuner decides alike
        assertThat(tuningSection(dir)).isEqualTo(tuningSection(localDir)).contains("mtp2");
        Map<String, Integer> repetitions = RunJournal.read(dir).stream().collect(Collectors.toMap(BlockResult::trialId,
                b -> b.repetitions().size(), Math::max));
        // the tuner's close call took more repetitions than the first, in the jobs as here
        assertThat(repetitions).isEqualTo(repetitionsByTrial(local)).hasSize(2);
        assertThat(repetitions.values()).anySatisfy(r -> assertThat(r).isGreaterThan(1));
        try (var files = Files.list(dir.resolve("jobs"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")))
                    .allMatch(n -> n.matches("r\\d\\d-s\\d\\d-.*")).isNotEmpty();
        }
        assertThat(run("squeue", "-h", "--me", "-o", "%j")).doesNotContain("servebench-r");
    }

    /** The summary's account of the tuner's steps, with their figures. */
    private static String tuningSection(Path dir) throws java.io.IOException {
        String summary = Files.readString(dir.resolve("summary.md"));
        int from = summary.indexOf("## How the tuner chose");
        assertThat(from).as(summary).isNotNegative();
        int to = summary.indexOf("\n## ", from + 1);
        return summary.substring(from, to < 0 ? summary.length() : to);
    }

    @Test
    void sigtermOfTheCoordinatorCancelsItsJobs(@TempDir Path tmp) throws Exception {
        Path coordinatorOut = tmp.resolve("coordinator.out");
        Process coordinator = new ProcessBuilder(HarnessJvm.command("SimStudy", "-p", "rate=8", "-p", "requests=400", "-p",
                "warmup=0", "--settle", "0", "--simulate", "--executor", "slurm", "-o", tmp.resolve("run").toString()))
                .redirectErrorStream(true).redirectOutput(coordinatorOut.toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline && (!Files.exists(coordinatorOut)
                || Files.readString(coordinatorOut).split("Submitted SLURM job", -1).length < 3)) {
            Thread.sleep(50);
        }
        Matcher ids = Pattern.compile("Submitted SLURM job (\\d+)")
                .matcher(Files.readString(coordinatorOut));
        List<String> jobs = new ArrayList<>();
        while (ids.find()) {
            jobs.add(ids.group(1));
        }
        assertThat(jobs).hasSize(2);

        coordinator.destroy();
        assertThat(coordinator.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // the jobs were cancelled on the way out: none is queued or running any more
        String left = run("squeue", "-h", "--me", "-o", "%i %T");
        for (String job : jobs) {
            assertThat(left.lines().filter(l -> l.startsWith(job + " ") && !l.contains("CANCELLED") && !l.contains("COMPLETED")))
                    .as("job %s: %s", job, left).isEmpty();
            assertThat(run("scontrol", "show", "job", "-o", job)).contains("JobState=CANCELLED");
        }
    }

    @Test
    void aJobCancelledMidTrialFailsOnlyItsOwnTrialsAndARequeuedOneRunsAgainOnlyWhatItHadNotFinished(@TempDir Path tmp)
            throws Exception {
        StringWriter out = new StringWriter();
        // two server configurations of two trials each, engines as processes: two jobs
        CompletableFuture<RunOutcome> running = CompletableFuture.supplyAsync(() -> {
            try {
                // short replies, so a trial lasts about its schedule: a second at 16 req/s, then four at 4 req/s (the
                // requeue's window, so that it lands within the second trial however slow this machine is)
                return new Runner(RunOptions.builder().include(SimStudy.class).param("rate", "16", "4")
                        .param("requests", "16").param("warmup", "0")
                        .param("dataset", "synthetic:in=fixed(200),out=fixed(40)").simulate(EngineParams.Simulate.PROCESS)
                        .settle(Duration.ZERO).outputDir(tmp).progress(false).slurm(SLURM).build(),
                        new PrintWriter(out, true)).run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Pattern submitted = Pattern.compile("Submitted SLURM job (\\d+): (s0\\d-\\S+),");
        Map<String, String> jobs = new java.util.TreeMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (jobs.size() < 2 && System.nanoTime() < deadline) {
            Matcher m = submitted.matcher(out.toString());
            while (m.find()) {
                jobs.put(m.group(2), m.group(1));
            }
            Thread.sleep(50);
        }
        assertThat(jobs).as(out.toString()).hasSize(2);
        String requeued = jobs.keySet().stream().filter(k -> k.startsWith("s01-")).findFirst().orElseThrow();
        String cancelled = jobs.keySet().stream().filter(k -> k.startsWith("s02-")).findFirst().orElseThrow();
        Path jobFiles = tmp.resolve("jobs");
        boolean requeueDone = false;
        boolean cancelDone = false;
        Path cancelledLog = jobFiles.resolve(cancelled + ".out");
        while (!(requeueDone && cancelDone) && System.nanoTime() < deadline) {
            cancelDone = cancelDone || cancelOnceItsLoadStarted(cancelledLog, jobs.get(cancelled));
            if (!requeueDone && !RunJournal.read(jobFiles.resolve(requeued + ".jsonl")).isEmpty()) {
                // the first job, after its first trial: as a preemption with PreemptMode=REQUEUE does
                String job = jobs.get(requeued);
                assertThat(run("scontrol", "requeue", job)).isBlank();
                // once the killed run has left the node (its worker stops its engine first), let it start again now:
                // SLURM would hold it some two minutes. The other job is watched meanwhile: its first trial lasts
                // about a second, and a cancel that waited for this would come after it (a CI run failed so)
                while (System.nanoTime() < deadline && !run("squeue", "-h", "-j", job, "-o", "%T").strip()
                        .equals("PENDING")) {
                    cancelDone = cancelDone || cancelOnceItsLoadStarted(cancelledLog, jobs.get(cancelled));
                    Thread.sleep(100);
                }
                assertThat(run("scontrol", "update", "job=" + job, "StartTime=now")).isBlank();
                requeueDone = true;
            }
            Thread.sleep(100);
        }
        RunOutcome outcome = running.get(3, TimeUnit.MINUTES);

        // the cancel is sent once the job's first load has begun, and lands within a second on an idle machine, in
        // that trial; on a busy one the trial (a second long) may end first (a CI run saw it), and the cancel lands in
        // the second: the trials it cut fail, saying so, and one that completed before it stays complete
        List<BlockResult> cancelledBlocks = outcome.result().blocks().stream()
                .filter(b -> b.serverId().equals(cancelled)).sorted(java.util.Comparator.comparing(BlockResult::trialId))
                .toList();
        assertThat(cancelledBlocks).hasSize(2);
        assertThat(cancelledBlocks.get(1).failure()).contains("ended (CANCELLED").contains(cancelled + ".out");
        assertThat(cancelledBlocks.get(0)).satisfiesAnyOf(
                b -> assertThat(b.failure()).contains("ended (CANCELLED").contains(cancelled + ".out"),
                b -> assertThat(b.repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS)).hasValue(16.0));
        assertThat(outcome.result().blocks()).filteredOn(b -> b.serverId().equals(requeued)).hasSize(2)
                .allSatisfy(b -> assertThat(b.failure()).as(out.toString()).isNull())
                .allSatisfy(b -> assertThat(b.repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS)).hasValue(16.0));
        assertThat(run("scontrol", "show", "job", jobs.get(requeued))).contains("Restarts=1");
        // the requeued job's log holds both of its runs; the second ran only the trial the first had not journalled
        assertThat(Files.readString(jobFiles.resolve(requeued + ".out"))).contains(", 2 trials, results in")
                .contains(", 1 trials, results in");
        // the first trial journalled once; the second as the requeue's SIGTERM interrupted it (what it had measured
        // kept; no line when the signal came before it began), then complete
        List<BlockResult> lines = RunJournal.read(jobFiles.resolve(requeued + ".jsonl"));
        assertThat(lines).extracting(BlockResult::trialId).filteredOn(id -> id.startsWith("t01-")).hasSize(1);
        List<BlockResult.State> second = lines.stream().filter(b -> b.trialId().startsWith("t02-"))
                .map(BlockResult::state).toList();
        assertThat(second).endsWith(BlockResult.State.COMPLETE).hasSizeBetween(1, 2);
        // before the complete line, an interrupted one or none (AssertJ's containsOnly would refuse the empty list)
        assertThat(second.subList(0, second.size() - 1)).allSatisfy(s -> assertThat(s).isEqualTo(BlockResult.State.INTERRUPTED));
        assertThat(run("squeue", "-h", "-o", "%j")).doesNotContain("servebench-s0");
        // the jobs took their engines with them: no simulated engine, nor its supervisor, is left on the node
        assertThat(enginesUnderSlurm()).isEmpty();
    }

    @Test
    void anInterruptedCoordinatorCancelsItsJobsAndKeepsWhatTheyMeasured(@TempDir Path tmp) throws Exception {
        StringWriter out = new StringWriter();
        // two server configurations, a job each, two repetitions of 30 s of load each on the simulated engine over
        // HTTP: the interruption comes about 3 s into the first. 30 s, not 10: on a loaded 2-core CI machine the
        // SIGTERM that scancel delivers once came more than 7 s late, after the first repetition had ended
        Runner runner = new Runner(study(tmp, EngineParams.Simulate.IN_PROCESS, "240").repetitions(2).param("dataset", "synthetic:in=fixed(100),out=fixed(20)").slurm(SLURM).build(),
                new PrintWriter(out, true));
        CompletableFuture<RunOutcome> running = inBackground(runner);
        Path jobs = tmp.resolve("jobs");
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        // both jobs' loads begun: one whose job started later was once interrupted before it had sent a request
        while (System.nanoTime() < deadline && !(Files.isDirectory(jobs) && Files.list(jobs)
                .filter(f -> f.toString().endsWith(".out") && read(f).contains("240 requests...")).count() >= 2)) {
            Thread.sleep(100);
        }
        Thread.sleep(3000);
        runner.interrupt("SIGINT");
        RunOutcome outcome = running.get(2, TimeUnit.MINUTES);

        assertThat(out.toString()).contains("Interrupted (SIGINT): cancelling 2 SLURM jobs");
        // each worker, sent SIGTERM by scancel, kept the repetition it was in as interrupted; the trials are interrupted
        assertThat(outcome.blocks()).hasSize(2).allSatisfy(b -> {
            assertThat(b.state()).as(out.toString()).isEqualTo(BlockResult.State.INTERRUPTED);
            assertThat(b.failure()).startsWith("interrupted (SIGINT): its SLURM job").contains("was cancelled (CANCELLED")
                    .contains("interrupted (SIGTERM) during repetition 1");
            assertThat(b.incomplete()).singleElement().satisfies(r -> {
                assertThat(r.kind()).isEqualTo(io.servebench.results.IncompleteRepetition.Kind.INTERRUPTED);
                assertThat(r.measured().value(Metric.SUCCESSFUL_REQUESTS).orElse(0)).isPositive();
                assertThat(tmp.resolve(r.records())).exists();
            });
        });
        assertThat(run("squeue", "-h", "-o", "%j")).doesNotContain("servebench-s0");
    }

    @Test
    void aJobsLoadSpreadOverWorkersRunsThemAsJobStepsAndKeepsEveryRecord(@TempDir Path tmp) throws Exception {
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(study(tmp, EngineParams.Simulate.IN_PROCESS, "40")
                .param("dataset", "synthetic:in=fixed(100),out=fixed(20)")
                .client(new io.servebench.execution.ClientOptions(null, Duration.ofSeconds(10), Duration.ofMinutes(5), 2))
                .slurm(SLURM).build(), new PrintWriter(out, true)).run();
        assertThat(outcome.blocks()).hasSize(2).allSatisfy(b -> {
            assertThat(b.state()).as(out.toString()).isEqualTo(BlockResult.State.COMPLETE);
            assertThat(b.repetitions().get(0).notes()).as(out.toString())
                    .contains("load: spread over 2 worker processes, SLURM job steps over 1 node");
            assertThat(b.repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS)).hasValue(40.0);
        });
        try (var files = Files.list(tmp.resolve("requests"))) {
            assertThat(files.toList()).hasSize(2).allSatisfy(f -> assertThat(
                    io.servebench.load.RequestRecordReader.read(f).stream().map(io.servebench.load.RequestRecord::id)
                            .distinct().count()).isEqualTo(40));
        }
    }

    @Test
    void aLoadSpreadOverTheNodesAfterTheEnginesReachesItOverTheNetwork(@TempDir Path tmp) throws Exception {
        // scripts/slurm-local's partition "pair": the first node and a second in a network namespace of its own, whose
        // loopback address is not the first's
        assumeThat(run("sinfo", "-h", "-p", "pair", "-o", "%D").strip()).as("a partition of two nodes, pair"
                + " (scripts/slurm-local start where network namespaces can be made)").isEqualTo("2");
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(study(tmp, EngineParams.Simulate.PROCESS, "40")
                .param("dataset", "synthetic:in=fixed(100),out=fixed(20)")
                .client(new io.servebench.execution.ClientOptions(null, Duration.ofSeconds(10), Duration.ofMinutes(5), 2))
                .slurm(new SlurmParams("pair", null, null, 0, List.of("--nodes=2"))).build(), new PrintWriter(out, true))
                .run();
        assertThat(outcome.blocks()).hasSize(2).allSatisfy(b -> {
            assertThat(b.state()).as(out.toString()).isEqualTo(BlockResult.State.COMPLETE);
            assertThat(b.repetitions().get(0).notes()).as(out.toString())
                    .anySatisfy(n -> assertThat(n).contains("load: spread over 2 worker processes, SLURM job steps over 2"
                            + " nodes (the 1 after the engine's").containsPattern("; the other nodes' clocks aligned to this"
                            + " one's within ±\\d+\\.\\d{3} ms \\(half the shortest of the round trips to each worker\\)"));
            assertThat(b.repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS)).as(out.toString()).hasValue(40.0);
        });
        try (var files = Files.list(tmp.resolve("requests"))) {
            assertThat(files.toList()).hasSize(2).allSatisfy(f -> assertThat(
                    io.servebench.load.RequestRecordReader.read(f).stream().map(io.servebench.load.RequestRecord::id)
                            .distinct().count()).isEqualTo(40));
        }
    }

    @Test
    void aJobTheClusterCannotStartAsAskedIsSaidToWaitAndWhy(@TempDir Path tmp) throws Exception {
        StringWriter out = new StringWriter();
        // more nodes than the partition has: SLURM queues the job, which would wait for ever
        Runner runner = new Runner(study(tmp, EngineParams.Simulate.VIRTUAL, "20")
                .slurm(new SlurmParams(null, null, null, 0, List.of("--nodes=9"))).build(), new PrintWriter(out, true));
        CompletableFuture<RunOutcome> running = inBackground(runner);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && !out.toString().contains("PENDING, ")) {
            Thread.sleep(100);
        }
        runner.interrupt("SIGINT");
        RunOutcome outcome = running.get(2, TimeUnit.MINUTES);
        assertThat(out.toString()).containsPattern("SLURM job \\d+ \\(s0[12]-sim-[0-9a-f]+\\): PENDING, Partition\\w+:"
                + " SLURM cannot give this job what it asks as the cluster is set up now, and it may wait for ever;"
                + " compare its request \\(--partition, --gpus-per-server, --time, --sbatch-arg\\) with scontrol show"
                + " partition and scontrol show job \\d+");
        assertThat(outcome.blocks()).hasSize(2).allSatisfy(b -> assertThat(b.state()).as(out.toString())
                .isIn(BlockResult.State.INTERRUPTED, BlockResult.State.NOT_RUN));
        assertThat(run("squeue", "-h", "-o", "%j")).doesNotContain("servebench-s0");
    }

    /** {@code runner}'s run on a thread of its own, for a test that interrupts it or watches it meanwhile. */
    private static CompletableFuture<RunOutcome> inBackground(Runner runner) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return runner.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /** Cancels job {@code jobId} once its log shows its first trial's load began; whether it did. */
    private static boolean cancelOnceItsLoadStarted(Path log, String jobId) throws Exception {
        if (!Files.exists(log) || !Files.readString(log).contains("16 requests...")) {
            return false;
        }
        assertThat(run("scancel", jobId)).isBlank();
        return true;
    }
}
