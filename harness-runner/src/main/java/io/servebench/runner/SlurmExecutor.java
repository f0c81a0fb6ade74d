package io.servebench.runner;

import io.servebench.plan.Trial;
import io.servebench.results.BlockResult;
import io.servebench.results.ServerEnvironment;
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
 * Runs a run's server configurations as SLURM jobs ({@code --executor slurm}): one job per configuration, its trials
 * back to back in it (each engine starts once), the job running ServeBench itself as a worker ({@code --worker ID})
 * that starts the engine on its node, sends the load from there and journals to {@code jobs/ID.jsonl} in the run
 * folder, which must be shared with the nodes. This coordinator submits the jobs with {@code sbatch}, follows them with
 * {@code squeue} and, once one has ended, reads how with {@code scontrol} (or {@code sacct}), merges its journal into
 * the run's and fails the trials it did not finish with that reason and its log's tail. Ctrl-C or SIGTERM cancels the
 * jobs still queued or running ({@code scancel}). Every command is an argument list; the job scripts are written to
 * {@code jobs/} for inspection.
 */
final class SlurmExecutor {

    private static final long POLL_MS = 1000;
    private static final Pattern STATE = Pattern.compile("JobState=(\\S+)");
    private static final Pattern EXIT = Pattern.compile("ExitCode=(\\S+)");
    private static final Pattern REASON = Pattern.compile("Reason=(\\S+)");
    private static final Pattern NODE = Pattern.compile(" NodeList=(\\S+)");

    private final RunOptions options;
    private final PrintWriter out;
    private final Path dir;
    private final Path jobs;
    /** The trials and servers the run's journal holds, read once when the jobs are started and kept up to date. */
    private final Set<String> journalledTrials = new java.util.HashSet<>();
    private final Set<String> journalledServers = new java.util.HashSet<>();

    SlurmExecutor(RunOptions options, PrintWriter out) {
        this.options = options;
        this.out = out;
        this.dir = options.outputDir().toAbsolutePath();
        this.jobs = dir.resolve("jobs");
    }

    /** One submitted job: its SLURM id, its server configuration and trials, and how it ended once it has. */
    private static final class Job {
        final String id;
        final String serverId;
        final List<Trial> trials;
        String state = "PENDING";
        String ending;

        Job(String id, String serverId, List<Trial> trials) {
            this.id = id;
            this.serverId = serverId;
            this.trials = trials;
        }
    }

    /**
     * Submits a job per server configuration of {@code toRun}, follows them to their ends and merges what they
     * measured into {@code journal} and {@code outcomes}.
     */
    void run(List<Trial> toRun, RunJournal journal, TrialOutcomes outcomes) throws IOException {
        Files.createDirectories(jobs);
        RunJournal.read(dir).forEach(b -> journalledTrials.add(b.trialId()));
        RunJournal.readServers(dir).forEach(e -> journalledServers.add(e.serverId()));
        Map<String, List<Trial>> byServer = new LinkedHashMap<>();
        toRun.forEach(t -> byServer.computeIfAbsent(t.serverId(), k -> new ArrayList<>()).add(t));
        List<Job> submitted = new ArrayList<>();
        Thread cancel = new Thread(() -> cancel(submitted), "servebench-scancel");
        Runtime.getRuntime().addShutdownHook(cancel);
        try {
            Map<String, String> before = queued(previousJobs(byServer.keySet()));
            for (Map.Entry<String, List<Trial>> server : byServer.entrySet()) {
                String serverId = server.getKey();
                List<Trial> trials = server.getValue();
                Path idFile = jobs.resolve(serverId + ".job");
                String previous = Files.exists(idFile) ? Files.readString(idFile).strip() : null;
                if (previous != null && before.containsKey(previous)) {
                    // a job of the coordinator before this one (which died) is still queued or running: follow it
                    Job job = new Job(previous, serverId, trials);
                    synchronized (submitted) {
                        submitted.add(job);
                    }
                    out.printf("Following SLURM job %s: %s, submitted before the run was resumed%n", job.id, serverId);
                    continue;
                }
                if (previous != null) {
                    // it ended while no coordinator followed it: what it finished is kept, the rest runs again
                    Set<String> done = mergeFinished(serverId, journal, outcomes);
                    out.printf("SLURM job %s (%s) ended before the run was resumed; %d of its trials finished%n", previous,
                            serverId, done.size());
                    trials = trials.stream().filter(t -> !done.contains(t.id())).toList();
                    if (trials.isEmpty()) {
                        continue;
                    }
                }
                Path script = writeScript(serverId, trials);
                String id = command(submitCommand(serverId, script)).strip();
                if (!id.matches("\\d+(;\\S+)?")) {
                    throw new RunnerException("sbatch answered \"" + id + "\" for " + script + "; expected a job id");
                }
                Job job = new Job(id.split(";")[0], serverId, trials);
                Files.writeString(idFile, job.id + "\n");
                synchronized (submitted) {
                    submitted.add(job);
                }
                out.printf("Submitted SLURM job %s: %s, %d trials (%s)%n", job.id, serverId, trials.size(), script);
            }
            follow(submitted, journal, outcomes);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cancel);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it cancels the jobs
            }
        }
    }

    /** The job script: the worker's command, as an argument list quoted word by word. */
    private Path writeScript(String serverId, List<Trial> trials) throws IOException {
        List<String> worker = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", absoluteClassPath(), SlurmParams.ENTRY_POINT));
        List<String> args = RunCommandLine.args(options.asWorker(serverId));
        args.stream().filter(a -> a.endsWith(io.servebench.engine.Redaction.MASK)).findFirst().ifPresent(masked -> {
            throw new RunnerException("--executor slurm: the command line gives a secret (" + masked + "), which a job"
                    + " script would hold; export it in the environment instead (sbatch passes it on to the job)");
        });
        worker.addAll(args);
        worker.addAll(List.of("--worker", serverId, "-o", dir.toString()));
        String script = "#!/bin/bash\n"
                + "# ServeBench: server configuration " + serverId + " of the run in " + dir + ", trials "
                + trials.stream().map(Trial::id).collect(Collectors.joining(", ")) + "\n"
                + "exec " + worker.stream().map(SlurmExecutor::quote).collect(Collectors.joining(" ")) + "\n";
        Path file = jobs.resolve(serverId + ".sh");
        Files.writeString(file, script, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** The {@code sbatch} command that submits {@code script}. */
    List<String> submitCommand(String serverId, Path script) {
        List<String> command = new ArrayList<>(List.of("sbatch", "--parsable", "--job-name=servebench-" + serverId,
                "--output=" + jobs.resolve(serverId + ".out"), "--chdir=" + dir));
        command.addAll(options.slurm().sbatchOptions());
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

    private void follow(List<Job> submitted, RunJournal journal, TrialOutcomes outcomes) throws IOException {
        List<Job> live = new ArrayList<>(submitted);
        while (!live.isEmpty()) {
            Map<String, String> queued = queued(live);
            for (Job job : List.copyOf(live)) {
                String now = queued.get(job.id);
                if (now != null) {
                    if (!now.equals(job.state)) {
                        out.printf("SLURM job %s (%s): %s%n", job.id, job.serverId, now);
                        job.state = now;
                    }
                    continue;
                }
                job.ending = ending(job.id);
                out.printf("SLURM job %s (%s) ended: %s%n", job.id, job.serverId, job.ending);
                merge(job, journal, outcomes);
                live.remove(job);
            }
            if (!live.isEmpty()) {
                sleep();
            }
        }
    }

    /** The state of each of {@code jobs} still queued or running, by id; a job that has left the queue is absent. */
    private Map<String, String> queued(List<Job> jobs) {
        Set<String> ids = jobs.stream().map(j -> j.id).collect(Collectors.toSet());
        Map<String, String> states = new LinkedHashMap<>();
        // this user's jobs, not -j IDS: squeue fails the whole query when one of the ids is no longer known
        for (String line : command(List.of("squeue", "-h", "--me", "-o", "%i %T")).split("\n")) {
            String[] parts = line.strip().split("\\s+");
            if (parts.length == 2 && ids.contains(parts[0]) && !Set.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "PREEMPTED", "NODE_FAIL",
                    "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE").contains(parts[1])) {
                states.put(parts[0], parts[1]);
            }
        }
        return states;
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

    /** The jobs an earlier coordinator of this run submitted for {@code serverIds}, as they were recorded. */
    private List<Job> previousJobs(Set<String> serverIds) throws IOException {
        List<Job> previous = new ArrayList<>();
        for (String serverId : serverIds) {
            Path idFile = jobs.resolve(serverId + ".job");
            if (Files.exists(idFile)) {
                previous.add(new Job(Files.readString(idFile).strip(), serverId, List.of()));
            }
        }
        return previous;
    }

    /**
     * The trials a server's job journalled, into the run's journal (those not there yet) and {@code outcomes}.
     *
     * @return the trials it finished
     */
    private Set<String> mergeFinished(String serverId, RunJournal journal, TrialOutcomes outcomes) throws IOException {
        Path file = jobs.resolve(serverId + ".jsonl");
        List<BlockResult> blocks = Files.exists(file) ? RunJournal.read(file) : List.of();
        List<ServerEnvironment> servers = Files.exists(file) ? RunJournal.readServers(file) : List.of();
        for (ServerEnvironment server : servers) {
            if (journalledServers.add(server.serverId())) {
                journal.append(server);
            }
        }
        for (BlockResult block : blocks) {
            if (journalledTrials.add(block.trialId())) {
                journal.append(block);
            }
        }
        return ResumedRun.load(blocks, servers, outcomes);
    }

    /** The job's journal into the run's, and its unfinished trials failed with how the job ended. */
    private void merge(Job job, RunJournal journal, TrialOutcomes outcomes) throws IOException {
        Set<String> finished = mergeFinished(job.serverId, journal, outcomes);
        for (Trial trial : job.trials) {
            if (!finished.contains(trial.id())) {
                outcomes.failed(trial.id(), "SLURM job " + job.id + " ended (" + job.ending + ") before this trial finished; "
                        + io.servebench.engine.LogTail.describe(jobs.resolve(job.serverId + ".out")));
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

    private static void sleep() {
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunnerException("interrupted while following the SLURM jobs");
        }
    }

    /** Runs a SLURM command and returns its output. */
    private static String command(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new RunnerException(String.join(" ", command) + " failed: " + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new RunnerException("cannot run " + command.get(0) + ": " + e.getMessage()
                    + " (is this a SLURM login node, with sbatch, squeue and scancel on the PATH?)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunnerException("interrupted while running " + command.get(0));
        }
    }

    private static String commandOrEmpty(List<String> command) {
        try {
            return command(command);
        } catch (RunnerException e) {
            return "";
        }
    }
}
