package io.servebench.execution.slurm;

import io.servebench.execution.BlockResults;
import io.servebench.execution.ExecutionException;
import io.servebench.execution.ExecutionParams;
import io.servebench.execution.Executor;
import io.servebench.execution.ShutdownHooks;
import io.servebench.execution.TrialListener;
import io.servebench.execution.TrialOutcomes;
import io.servebench.load.LoadJvm;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.results.BlockResult;
import io.servebench.results.ServerEnvironment;
import io.servebench.load.Interruption;
import io.servebench.results.journal.JournalledRepetition;
import io.servebench.results.journal.RunJournal;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Measures each batch as a SLURM job ({@code --executor slurm}): one job per server configuration, its trials back to
 * back in it (each engine starts once). The job runs a {@link SlurmWorker} on the node it got, which reads what to
 * measure from {@code jobs/KEY.json} (a {@link SlurmJob}: the trials, their blocks, how to measure them), starts the
 * engine there, sends the load from there and journals to {@code jobs/KEY.jsonl} in the run folder, which must be
 * shared with the nodes. A run that lists its trials submits them all at once, keyed by server id; an adaptive run (a
 * tuner, a capacity search) submits each of its measuring rounds, keyed by round and server id, and waits for it before
 * choosing the next. This coordinator submits the jobs with {@code sbatch}, follows them with
 * {@code squeue} and, once one has ended, reads how with {@code scontrol} (or {@code sacct}), merges its journal into
 * the run's and fails the trials it did not finish with that reason and its log's tail. Ctrl-C or SIGTERM cancels the
 * jobs still queued or running ({@code scancel}). Every command is an argument list; the job scripts are written to
 * {@code jobs/} for inspection.
 */
public final class SlurmExecutor implements Executor {

    /** The first poll's wait, half as long again after each poll that sees no change, up to {@link #POLL_MAX_MS}. */
    private static final long POLL_MIN_MS = 250;
    /** A run of hour-long jobs asks slurmctld about them six times a minute, not every second. */
    private static final long POLL_MAX_MS = 10_000;
    private static final Pattern STATE = Pattern.compile("JobState=(\\S+)");
    private static final Pattern EXIT = Pattern.compile("ExitCode=(\\S+)");
    private static final Pattern REASON = Pattern.compile("Reason=(\\S+)");
    private static final Pattern NODE = Pattern.compile(" NodeList=(\\S+)");

    private final ExecutionParams params;
    private final SlurmParams slurm;
    private final PrintWriter out;
    private TrialListener listener = TrialListener.NONE;
    private final Path dir;
    private final Path jobs;
    private final Interruption interruption;
    /** The lines and servers the run's journal holds, read when jobs are first submitted and kept up to date. */
    private final Set<String> journalledLines = new java.util.HashSet<>();
    private final Set<String> journalledServers = new java.util.HashSet<>();
    private boolean journalRead;

    /**
     * @param params       how each job's worker measures; its run folder must be shared with the nodes
     * @param interruption the run's stop request: its jobs are cancelled, and what they journalled kept
     */
    public SlurmExecutor(ExecutionParams params, SlurmParams slurm, PrintWriter out, Interruption interruption) {
        this.interruption = interruption;
        this.dir = params.outputDir().toAbsolutePath();
        // a job's log (jobs/KEY.out) is the only view of it while it runs: its trials' progress lines always go there
        this.params = new ExecutionParams(dir, params.engines(), params.repetitions(), params.seed(), params.freshServer(),
                params.settle(), params.slice(), params.client(), params.slo(), true, true, params.quick(),
                params.telemetry(), params.maxFailedShare());
        this.slurm = slurm;
        this.out = out;
        this.jobs = dir.resolve("jobs");
    }

    /** One submitted job: its SLURM id, its request, and how it ended once it has. */
    private static final class Job {
        final String id;
        final String key;
        final List<Trial> trials;
        String state = "PENDING";
        /** Why SLURM keeps it waiting, as squeue last said; {@code None} while it does not. */
        String reason = "None";
        /** Trials the listener was told have ended. */
        final Set<String> reported = new java.util.HashSet<>();
        String ending;

        Job(String id, String key, List<Trial> trials) {
            this.id = id;
            this.key = key;
            this.trials = trials;
        }
    }

    /**
     * Submits a job per batch, follows the jobs to their ends and merges what they measured into {@code journal} and
     * {@code outcomes}. A batch whose key has a job of an earlier coordinator of this run (one that died) still queued
     * or running is followed instead; one whose earlier job ended keeps what that job finished and submits the rest.
     */
    @Override
    public void measure(List<Batch> batches, TrialPlan plan, int repetitions, RunJournal journal, TrialOutcomes outcomes,
                        TrialListener listener) throws IOException {
        this.listener = listener;
        Files.createDirectories(jobs);
        if (!journalRead) {
            for (RunJournal.Entry entry : RunJournal.readEntries(dir)) {
                journalledLines.add(entry.block() != null ? lineKey(entry.block()) : lineKey(entry.repetition()));
            }
            RunJournal.readServers(dir).forEach(e -> journalledServers.add(e.serverId()));
            journalRead = true;
        }
        List<Job> submitted = new ArrayList<>();
        Thread cancel = new Thread(() -> cancel(submitted), "servebench-scancel");
        Runtime.getRuntime().addShutdownHook(cancel);
        try {
            List<Job> previousJobs = previousJobs(batches);
            Map<String, Queued> before = queued(previousJobs);
            Map<String, String> previousIds = previousJobs.stream().collect(Collectors.toMap(j -> j.key, j -> j.id));
            for (Batch batch : batches) {
                String key = batch.key();
                List<Trial> trials = batch.trials();
                String previous = previousIds.get(key);
                if (previous != null && before.containsKey(previous)) {
                    // a job of the coordinator before this one (which died) is still queued or running: follow it
                    Job job = new Job(previous, key, trials);
                    synchronized (submitted) {
                        submitted.add(job);
                    }
                    out.printf("Following SLURM job %s: %s, submitted before the run was resumed%n", job.id, key);
                    continue;
                }
                if (previous != null) {
                    // it ended while no coordinator followed it: what it finished is kept, the rest runs again
                    mergeFinished(key, journal, outcomes);
                    Set<String> done = trials.stream().map(Trial::id).filter(id -> outcomes.state(id) == BlockResult.State.COMPLETE
                            || outcomes.state(id) == BlockResult.State.FAILED).collect(Collectors.toSet());
                    out.printf("SLURM job %s (%s) ended before the run was resumed; %d of its trials finished%n", previous,
                            key, trials.stream().filter(t -> done.contains(t.id())).count());
                    trials = trials.stream().filter(t -> !done.contains(t.id())).toList();
                    if (trials.isEmpty()) {
                        continue;
                    }
                }
                List<Trial> jobTrials = trials;
                List<ResultBlock> blocks = plan.blocks().stream().filter(b -> jobTrials.contains(b.trial())).toList();
                Path jobFile = jobs.resolve(key + ".json");
                new SlurmJob(key, params, repetitions, trials, blocks).write(jobFile);
                Path script = writeScript(key, trials, jobFile);
                String id = command(submitCommand(key, script)).strip();
                if (!id.matches("\\d+(;\\S+)?")) {
                    throw new ExecutionException("sbatch answered \"" + id + "\" for " + script + "; expected a job id");
                }
                Job job = new Job(id.split(";")[0], key, trials);
                Files.writeString(jobs.resolve(key + ".job"), job.id + "\n");
                synchronized (submitted) {
                    submitted.add(job);
                }
                out.printf("Submitted SLURM job %s: %s, %d trials (%s)%n", job.id, key, trials.size(), script);
            }
            follow(submitted, plan, journal, outcomes);
        } finally {
            // when the hook is running, it cancels the jobs
            ShutdownHooks.remove(cancel);
        }
    }

    /** The jobs send their load from their nodes, queued and side by side. */
    @Override
    public boolean measuresHere() {
        return false;
    }

    /** The job script: the worker's command, as an argument list quoted word by word. */
    private Path writeScript(String key, List<Trial> trials, Path jobFile) throws IOException {
        // the job's worker sends the loads
        List<String> worker = LoadJvm.command(absoluteClassPath(), SlurmWorker.class, jobFile.toString());
        String script = "#!/bin/bash\n"
                + "# ServeBench: job " + key + " of the run in " + dir + ", server configuration " + trials.get(0).serverId()
                + ", trials "
                + trials.stream().map(Trial::id).collect(Collectors.joining(", ")) + "\n"
                + "exec " + worker.stream().map(SlurmExecutor::quote).collect(Collectors.joining(" ")) + "\n";
        Path file = jobs.resolve(key + ".sh");
        Files.writeString(file, script, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /**
     * The {@code sbatch} command that submits {@code script}; its output is appended to, so that a job requeued after
     * preemption keeps its first run's log (its worker then skips the trials that run journalled).
     */
    List<String> submitCommand(String key, Path script) {
        List<String> command = new ArrayList<>(List.of("sbatch", "--parsable", "--job-name=servebench-" + key,
                "--output=" + jobs.resolve(key + ".out"), "--open-mode=append", "--chdir=" + dir));
        command.addAll(slurm.sbatchOptions());
        command.add(script.toString());
        return command;
    }

    /** One word for bash: single-quoted, a quote inside closed, escaped and reopened. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(p -> Path.of(p).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
    }

    private void follow(List<Job> submitted, TrialPlan plan, RunJournal journal, TrialOutcomes outcomes)
            throws IOException {
        List<Job> live = new ArrayList<>(submitted);
        long pollMs = POLL_MIN_MS;
        boolean cancelled = false;
        while (!live.isEmpty()) {
            if (interruption.interrupted() && !cancelled) {
                // the jobs' workers keep what they measured (SIGTERM) and end; their journals are merged as they do
                out.printf("Interrupted (%s): cancelling %d SLURM jobs%n", interruption.cause().orElseThrow(), live.size());
                cancel(live);
                cancelled = true;
            }
            boolean changed = false;
            Map<String, Queued> queued = queued(live);
            for (Job job : List.copyOf(live)) {
                Queued q = queued.get(job.id);
                if (q != null) {
                    String now = q.state();
                    String reason = q.reason();
                    if ("PENDING".equals(now) && !reason.equals(job.reason) && !"None".equals(reason)) {
                        // a job can wait for ever on what it asks for: the user sees why as soon as SLURM says it
                        out.printf("SLURM job %s (%s): PENDING, %s%n", job.id, job.key, pendingReason(job.id, reason));
                    }
                    job.reason = reason;
                    if (!now.equals(job.state)) {
                        out.printf("SLURM job %s (%s): %s%n", job.id, job.key, now);
                        if ("RUNNING".equals(now) && !"RUNNING".equals(job.state)) {
                            listener.serverStarting(job.trials);
                            job.trials.stream().filter(t -> !job.reported.contains(t.id())).findFirst()
                                    .ifPresent(listener::trialStarting);
                        }
                        job.state = now;
                        changed = true;
                    }
                    if (reportFinished(job) > 0) {
                        out.printf("SLURM job %s (%s): %d of %d trials finished%n", job.id, job.key, job.reported.size(),
                                job.trials.size());
                        changed = true;
                    }
                    continue;
                }
                job.ending = ending(job.id);
                out.printf("SLURM job %s (%s) ended: %s%n", job.id, job.key, job.ending);
                merge(job, plan, journal, outcomes);
                live.remove(job);
                changed = true;
            }
            if (!live.isEmpty()) {
                pollMs = changed ? POLL_MIN_MS : Math.min(POLL_MAX_MS, pollMs * 3 / 2);
                sleep(pollMs);
            }
        }
    }

    /** A job in the queue: its state, and why it waits as squeue says it ({@code None} when it does not). */
    private record Queued(String state, String reason) {
    }

    /** Each of {@code jobs} still queued or running, by id; a job that has left the queue is absent. */
    private Map<String, Queued> queued(List<Job> jobs) {
        Set<String> ids = jobs.stream().map(j -> j.id).collect(Collectors.toSet());
        Map<String, Queued> states = new LinkedHashMap<>();
        // this user's jobs, not -j IDS: squeue fails the whole query when one of the ids is no longer known
        for (String line : command(List.of("squeue", "-h", "--me", "-o", "%i %T %r")).split("\n")) {
            String[] parts = line.strip().split("\\s+", 3);
            if (parts.length >= 2 && ids.contains(parts[0]) && !Set.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "PREEMPTED", "NODE_FAIL",
                    "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE").contains(parts[1])) {
                states.put(parts[0], new Queued(parts[1], parts.length == 3 ? parts[2].strip() : "None"));
            }
        }
        return states;
    }

    /**
     * Why a job waits, in SLURM's word and, where that word says the job may never start as asked, what to look at
     * (slurm.schedmd.com/job_reason_codes.html: the partition's limits or configuration, constraints no node meets, a
     * node asked for that is not available; the other reasons, Priority, Resources, limits of an association or QOS,
     * pass as other jobs end).
     */
    private static String pendingReason(String id, String reason) {
        boolean asked = reason.startsWith("Partition") || reason.equals("BadConstraints") || reason.equals("ReqNodeNotAvail");
        return reason + (asked ? ": SLURM cannot give this job what it asks as the cluster is set up now, and it may wait"
                + " for ever; compare its request (--partition, --gpus-per-server, --time, --sbatch-arg) with scontrol"
                + " show partition and scontrol show job " + id + ", or Ctrl-C (the run is kept; --resume submits again)"
                : "");
    }

    /** How a job that left the queue ended: its state, exit code and reason, from scontrol (or sacct). */
    private String ending(String id) {
        String shown = commandOrEmpty(List.of("scontrol", "show", "job", "-o", id));
        Matcher state = STATE.matcher(shown);
        if (state.find()) {
            Matcher exit = EXIT.matcher(shown);
            Matcher reason = REASON.matcher(shown);
            Matcher node = NODE.matcher(shown);
            return state.group(1) + (exit.find() ? ", exit code " + exit.group(1) : "")
                    + (reason.find() && !"None".equals(reason.group(1)) ? ", reason " + reason.group(1) : "")
                    + (node.find() ? ", node " + node.group(1) : "");
        }
        String accounted = commandOrEmpty(List.of("sacct", "-n", "-P", "-X", "-j", id, "-o", "State,ExitCode")).strip();
        return accounted.isEmpty() ? "no longer known to scontrol or sacct" : accounted.replace("|", ", exit code ");
    }

    /** The jobs an earlier coordinator of this run submitted for {@code batches}, as they were recorded. */
    private List<Job> previousJobs(List<Batch> batches) throws IOException {
        List<Job> previous = new ArrayList<>();
        for (Batch batch : batches) {
            Path idFile = jobs.resolve(batch.key() + ".job");
            if (Files.exists(idFile)) {
                previous.add(new Job(Files.readString(idFile).strip(), batch.key(), List.of()));
            }
        }
        return previous;
    }

    /**
     * Tells the listener about each of the job's trials its journal holds and it was not told of yet: a worker appends
     * each trial as it ends.
     *
     * @return how many it told of now
     */
    private int reportFinished(Job job) throws IOException {
        List<BlockResult> journalled = RunJournal.read(jobs.resolve(job.key + ".jsonl"));
        int told = 0;
        for (Trial trial : job.trials) {
            List<BlockResult> blocks = journalled.stream().filter(b -> b.trialId().equals(trial.id())).toList();
            if (!blocks.isEmpty() && job.reported.add(trial.id())) {
                listener.trialFinished(trial, blocks);
                told++;
            }
        }
        return told;
    }

    /**
     * A journal line's identity: a trial journalled again (a tuner added a repetition) is a new line, the same line
     * merged twice (a resumed coordinator merging a job its predecessor had merged) is not.
     */
    private static String lineKey(BlockResult block) {
        return block.trialId() + "\n" + block.benchmark() + "\n" + block.params().get(BlockResult.SWEEP_STEP) + "\n"
                + block.repetitions().size() + "\n" + block.failure();
    }

    /**
     * The trials and repetitions a server's job journalled, into the run's journal (those not there yet) and
     * {@code outcomes}.
     */
    private void mergeFinished(String key, RunJournal journal, TrialOutcomes outcomes) throws IOException {
        Path file = jobs.resolve(key + ".jsonl");
        List<RunJournal.Entry> entries = Files.exists(file) ? RunJournal.readEntries(file) : List.of();
        List<ServerEnvironment> servers = Files.exists(file) ? RunJournal.readServers(file) : List.of();
        for (ServerEnvironment server : servers) {
            if (journalledServers.add(server.serverId())) {
                journal.append(server);
            }
        }
        for (RunJournal.Entry entry : entries) {
            if (entry.block() != null && journalledLines.add(lineKey(entry.block()))) {
                journal.append(entry.block());
            } else if (entry.repetition() != null && journalledLines.add(lineKey(entry.repetition()))) {
                journal.append(entry.repetition());
            }
        }
        outcomes.load(entries, servers);
    }

    /** A repetition line's identity: a repetition ends once per attempt. */
    private static String lineKey(JournalledRepetition r) {
        return r.trialId() + "\n" + r.number() + "\n" + (r.incomplete() == null ? "complete" : r.incomplete().reason());
    }

    /**
     * The job's journal into the run's, and its trials that did not end there failed with how the job ended (interrupted
     * when this run was, and cancelled the job), with the worker's own account of the trial where it gave one.
     */
    private void merge(Job job, TrialPlan plan, RunJournal journal, TrialOutcomes outcomes) throws IOException {
        mergeFinished(job.key, journal, outcomes);
        reportFinished(job);
        for (Trial trial : job.trials) {
            BlockResult.State state = outcomes.state(trial.id());
            if (state == BlockResult.State.COMPLETE || state == BlockResult.State.FAILED) {
                continue;
            }
            String worker = outcomes.failure(trial.id()).map(why -> ": " + why).orElse("");
            if (interruption.interrupted()) {
                outcomes.interrupted(trial.id(), "interrupted (" + interruption.cause().orElseThrow() + "): its SLURM job "
                        + job.id + " was cancelled (" + job.ending + ") before this trial finished" + worker + "; "
                        + outcomes.repetitions(trial.id()) + " repetitions complete, kept");
                listener.trialFinished(trial, BlockResults.of(plan.blocksOf(trial), outcomes, params));
            } else {
                outcomes.failed(trial.id(), "SLURM job " + job.id + " ended (" + job.ending + ") before this trial finished"
                        + worker + "; " + io.servebench.engine.LogTail.describe(jobs.resolve(job.key + ".out")));
                listener.trialFinished(trial, BlockResults.of(plan.blocksOf(trial), outcomes, params));
            }
        }
    }

    /** Cancels the jobs not known to have ended, so that none keeps holding GPUs after the coordinator. */
    private void cancel(List<Job> submitted) {
        List<String> ids;
        synchronized (submitted) {
            ids = submitted.stream().filter(j -> j.ending == null).map(j -> j.id).toList();
        }
        if (!ids.isEmpty()) {
            List<String> command = new ArrayList<>(List.of("scancel"));
            command.addAll(ids);
            commandOrEmpty(command);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExecutionException("interrupted while following the SLURM jobs");
        }
    }

    /** Runs a SLURM command and returns its output. */
    private static String command(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new ExecutionException(String.join(" ", command) + " failed: " + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new ExecutionException("cannot run " + command.get(0) + ": " + e.getMessage()
                    + " (is this a SLURM login node, with sbatch, squeue and scancel on the PATH?)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExecutionException("interrupted while running " + command.get(0));
        }
    }

    private static String commandOrEmpty(List<String> command) {
        try {
            return command(command);
        } catch (ExecutionException e) {
            return "";
        }
    }
}
