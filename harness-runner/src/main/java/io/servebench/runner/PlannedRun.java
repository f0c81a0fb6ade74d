package io.servebench.runner;

import io.servebench.execution.Executor;
import io.servebench.execution.KilledTrials;
import io.servebench.execution.ServeBenchVersion;
import io.servebench.execution.TrialListener;
import io.servebench.execution.TrialOutcomes;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.results.BlockResult;
import io.servebench.results.RunResult;
import io.servebench.results.journal.RunHeader;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The run strategy of a study that lists its trials: the plan, run as it stands (minus what a resumed run had
 * finished), one batch per engine start.
 */
final class PlannedRun {

    private final RunFolder folder;

    PlannedRun(RunFolder folder) {
        this.folder = folder;
    }

    RunOutcome run(TrialPlan plan, RunListener listener) throws IOException {
        RunParams params = folder.params();
        RunOptions options = params.options();
        PrintWriter out = folder.out();
        Executor executor = folder.executor(plan.trials(), false);
        TrialOutcomes outcomes = new TrialOutcomes();
        ResumedRun resumed = folder.resumeOrStart(Optional.of(plan), outcomes);
        String startTime = resumed.startTime();
        // a resumed run runs again every trial that is not complete, keeping the repetitions that completed
        List<Trial> toRun = plan.trials().stream()
                .filter(t -> outcomes.state(t.id()) != BlockResult.State.COMPLETE).toList();
        folder.createFolders();
        out.printf("ServeBench %s: %d trials, %d server starts%s, results in %s%n", ServeBenchVersion.get(),
                plan.trials().size(), PlanPrinter.serverStarts(plan, options), params.simulated() ? " (simulated)" : "",
                folder.dir());
        if (options.resume()) {
            out.printf("Resuming: %d of %d trials complete before; running the other %d (their complete repetitions"
                    + " kept)%n", plan.trials().size() - toRun.size(), plan.trials().size(), toRun.size());
        }
        RunHeader header = new RunHeader(startTime, RunCommandLine.args(params), ResumedRun.planKeys(plan));
        RunResult reported = folder.journalled(header, () -> folder.result(plan, startTime, outcomes, null, List.of(), false),
                journal -> {
                    // once the journal is this run's: a folder another run writes is turned away before any work
                    if (!toRun.isEmpty()) {
                        folder.warmClient(executor);
                    }
                    if (options.resume()) {
                        // a repetition the killed harness was in left records, not a journal line: kept as interrupted
                        KilledTrials.recover(params.execution(), plan, toRun, outcomes, journal, out);
                    }
                    List<Executor.Batch> batches = batches(toRun, options.freshServer());
                    StudyProgress progress = folder.progress(executor, toRun, plan.trials().size() - toRun.size(),
                            batches.size());
                    try (RunFolder.Ticker ticker = folder.periodicLines(progress)) {
                        executor.measure(batches, plan, params.repetitions(), journal, outcomes,
                                TrialListener.both(progress, listener));
                    }
                });
        RunEnd.print(out, reported, folder.interruption().cause(), folder.reportsLine(), folder.dir());
        return new RunOutcome(reported, folder.dir());
    }

    /**
     * The trials of each engine start, in running order: those of one server configuration (the planner puts them back
     * to back), keyed by its server id; with {@code --fresh-server}, one trial each, keyed by the trial.
     */
    static List<Executor.Batch> batches(List<Trial> trials, boolean freshServer) {
        List<Executor.Batch> batches = new ArrayList<>();
        for (int i = 0; i < trials.size(); ) {
            String serverId = trials.get(i).serverId();
            int end = i;
            do {
                end++;
            } while (!freshServer && end < trials.size() && trials.get(end).serverId().equals(serverId));
            batches.add(new Executor.Batch(freshServer ? trials.get(i).id() : serverId, trials.subList(i, end)));
            i = end;
        }
        return batches;
    }
}
