package io.servebench.execution.slurm;

import io.servebench.engine.EngineParams;
import io.servebench.execution.ClientWarmup;
import io.servebench.execution.ExecutionException;
import io.servebench.execution.ExecutionParams;
import io.servebench.execution.Executor;
import io.servebench.execution.LocalExecutor;
import io.servebench.execution.RunContext;
import io.servebench.execution.ServeBenchVersion;
import io.servebench.execution.TrialListener;
import io.servebench.execution.TrialOutcomes;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.execution.Signals;
import io.servebench.load.Interruption;
import io.servebench.results.BlockResult;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What a SLURM job runs on its node: {@code java -cp CLASSPATH io.servebench.execution.slurm.SlurmWorker JOB_FILE}. It
 * reads the {@link SlurmJob} its coordinator wrote, measures the job's trials here (one engine start) and journals
 * them to {@code jobs/KEY.jsonl} for the coordinator to merge; the coordinator writes the reports. A job submitted again
 * after its first one ended midway (preempted, requeued) measures only what that one did not finish; repetitions that
 * earlier rounds of the run measured (in the run's journal) are kept. Exits 0 when every trial ran, 1 when one failed,
 * 2 when the job could not be set up (the message says why).
 */
public final class SlurmWorker {

    private SlurmWorker() {
    }

    public static void main(String[] args) throws IOException {
        PrintWriter out = new PrintWriter(System.out, true);
        if (args.length != 1) {
            System.err.println("usage: SlurmWorker JOB_FILE (jobs/KEY.json of a run folder, written by the run's coordinator)");
            System.exit(2);
        }
        try {
            System.exit(run(SlurmJob.read(Path.of(args[0])), out) ? 0 : 1);
        } catch (ExecutionException | IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        }
    }

    /** Measures the job; whether every one of its trials ran. */
    static boolean run(SlurmJob job, PrintWriter out) throws IOException {
        ExecutionParams params = job.params();
        Path dir = params.outputDir();
        Path jobJournal = dir.resolve("jobs").resolve(job.key() + ".jsonl");
        TrialOutcomes outcomes = new TrialOutcomes();
        // what the run measured before this job, then what an earlier job of this key finished
        outcomes.load(RunJournal.readEntries(dir), List.of());
        Set<String> journalledByThisJob = outcomes.load(Files.exists(jobJournal) ? RunJournal.readEntries(jobJournal)
                : List.of(), List.of());
        // a trial this job's earlier run ended (a requeued job's first run finished or failed it) is not run again; one
        // it was interrupted in goes on, and one the run measured before gets the repetitions it still lacks
        List<Trial> toRun = job.trials().stream().filter(t -> !(journalledByThisJob.contains(t.id())
                && ended(outcomes.state(t.id()))) && outcomes.repetitions(t.id()) < job.repetitions()).toList();
        Interruption interruption = new Interruption();
        // scancel and the time limit send SIGTERM: the repetition in flight is kept, named as interrupted
        Signals.stopOn(interruption, out);
        RunContext context = new RunContext(params, out, toRun.stream().map(t -> t.workload().dataset()).distinct().toList(),
                System::getenv, interruption);
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("requests"));
        out.printf("ServeBench %s: worker for %s, %d trials, results in %s%n", ServeBenchVersion.get(), job.key(),
                toRun.size(), dir);
        if (!toRun.isEmpty()) {
            if (params.engines().simulate() != EngineParams.Simulate.VIRTUAL) {
                ClientWarmup.once(out);
            }
            try (RunJournal journal = RunJournal.openFile(jobJournal)) {
                new LocalExecutor(context, false).measure(List.of(new Executor.Batch(job.key(), toRun)),
                        new TrialPlan(job.blocks(), job.trials()), job.repetitions(), journal, outcomes, TrialListener.NONE);
            }
        }
        return job.trials().stream().allMatch(t -> outcomes.state(t.id()) == BlockResult.State.COMPLETE);
    }

    private static boolean ended(BlockResult.State state) {
        return state == BlockResult.State.COMPLETE || state == BlockResult.State.FAILED;
    }
}
