package io.servebench.runner;

import io.servebench.execution.Executor;
import io.servebench.execution.ServeBenchVersion;
import io.servebench.execution.TrialListener;
import io.servebench.execution.TrialOutcomes;
import io.servebench.plan.TrialPlan;
import io.servebench.results.CapacityResult;
import io.servebench.results.RunResult;
import io.servebench.results.TuningResult;
import io.servebench.results.journal.RunHeader;
import io.servebench.study.StudyDescriptor;
import io.servebench.tuning.Tuner;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the run strategies whose trials are chosen as they go ({@link TunedRun}, {@link CapacityRun}) share: the run
 * folder, the journal (whose header lists no plan: a resumed run replays its choices on what the journal holds),
 * progress and reports as for a planned run, and an {@link AdaptiveMeasurer} over the run's executor.
 */
final class AdaptiveRun {

    /** What an adaptive run has found so far, read by the reports also when it is cut short. */
    static final class Findings {
        volatile TuningResult tuning;
        final List<CapacityResult> capacities = new CopyOnWriteArrayList<>();
        /** Whether the steps were interrupted before they decided. */
        volatile boolean stopped;
    }

    /** The steps of an adaptive run: measures through the measurer, records in {@code found}, returns its last line. */
    interface Steps {
        String run(Tuner.Measurer measurer, StudyProgress progress, Findings found);
    }

    private AdaptiveRun() {
    }

    /**
     * Runs {@code steps} on {@code study}.
     *
     * @param listed the study's planned trials: their datasets are read before anything starts
     * @param what   what the run does, for its first line ({@code tuning QuickStart at 8 req/s by Mean Latency(s)})
     */
    static RunOutcome run(RunFolder folder, StudyDescriptor study, TrialPlan listed, RunListener listener, String what,
                          Steps steps) throws IOException {
        RunParams params = folder.params();
        RunOptions options = params.options();
        Executor executor = folder.executor(listed.trials(), true);
        TrialOutcomes outcomes = new TrialOutcomes();
        ResumedRun resumed = folder.resumeOrStart(options.resume() ? Optional.empty() : Optional.of(listed), outcomes);
        folder.createFolders();
        folder.out().printf("ServeBench %s: %s%s, results in %s%n", ServeBenchVersion.get(), what,
                params.simulated() ? " (simulated)" : "", folder.dir());
        if (options.resume()) {
            folder.out().printf("Resuming: %d trials finished before; the run replays its steps on them%n",
                    resumed.finished().size());
        }
        AtomicReference<AdaptiveMeasurer> measurer = new AtomicReference<>();
        Findings found = new Findings();
        AtomicReference<String> done = new AtomicReference<>("");
        RunHeader header = new RunHeader(resumed.startTime(), RunCommandLine.args(params), List.of());
        RunResult reported = folder.journalled(header, () -> folder.result(measurer.get() == null
                ? new TrialPlan(List.of(), List.of()) : measurer.get().plan(), resumed.startTime(), outcomes, found.tuning,
                List.copyOf(found.capacities), found.stopped), journal -> {
            // once the journal is this run's: a folder another run writes is turned away before any work
            folder.warmClient(executor);
            StudyProgress progress = folder.progress(executor, List.of(), resumed.finished().size(), -1);
            measurer.set(new AdaptiveMeasurer(params, study, executor, outcomes, journal,
                    TrialListener.both(progress, listener), folder.interruption()));
            // the engine kept for a next round is stopped once the steps end, however they end
            try (executor; RunFolder.Ticker ticker = folder.periodicLines(progress)) {
                done.set(steps.run(measurer.get(), progress, found));
            } catch (AdaptiveMeasurer.Stopped stopped) {
                found.stopped = true;
                done.set("The search was interrupted before it decided; --resume replays it and goes on.");
            }
        });
        folder.out().println(done.get());
        RunEnd.print(folder.out(), reported, folder.interruption().cause(), folder.reportsLine(), folder.dir());
        return new RunOutcome(reported, folder.dir());
    }
}
