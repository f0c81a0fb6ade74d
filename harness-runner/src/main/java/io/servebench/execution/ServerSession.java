package io.servebench.execution;

import io.servebench.annotations.Profile;
import io.servebench.engine.EngineStartException;
import io.servebench.engine.Engines;
import io.servebench.engine.RunningEngine;
import io.servebench.metrics.SloSpec;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.BlockResult;
import io.servebench.results.RepetitionResult;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One engine start and the trials it serves, back to back: the engine is started and its environment captured,
 * each trial measured (every load from a {@link CleanStart}: drained, prefix cache emptied, settled), and the engine
 * stopped. A trial that fails is recorded and the next one runs; once the engine has died, its remaining trials
 * are not run. Every trial's blocks go to the journal as soon as it ends.
 */
final class ServerSession {

    private final RunContext context;
    private final TrialPlan plan;
    private final TrialOutcomes outcomes;
    private final RunJournal journal;
    private final TrialListener listener;

    ServerSession(RunContext context, TrialPlan plan, TrialOutcomes outcomes, RunJournal journal, TrialListener listener) {
        this.context = context;
        this.plan = plan;
        this.outcomes = outcomes;
        this.journal = journal;
        this.listener = listener;
    }

    /**
     * Runs {@code trials} up to {@code repetitions} repetitions each: a trial measured before (by a tuner that wants
     * one more) keeps its repetitions and gets only the missing ones, each from its own seed as always.
     *
     * @param done trials of the plan finished before these, for the progress count
     */
    void run(List<Trial> trials, int done, int repetitions) throws IOException {
        ExecutionParams params = context.params();
        PrintWriter out = context.out();
        Trial first = trials.get(0);
        Path log = params.outputDir().resolve("logs")
                .resolve(first.serverId() + (params.freshServer() ? "-" + first.id() : "") + ".log");
        out.printf("Starting %s: %s%n", first.serverId(), Engines.label(first.server(), params.engines()));
        listener.serverStarting(trials);
        try (RunningEngine engine = Engines.start(first.server(), context.engines(), log)) {
            ServerEnvironment environment = Engines.capture(first.serverId(), first.server(), params.engines(), engine,
                    ServeBenchVersion.get());
            outcomes.server(environment);
            journal.append(environment);
            AtomicBoolean scrapeNoted = new AtomicBoolean();
            CleanStart cleanStart = new CleanStart(context, engine, first.server());
            String died = null;
            for (int t = 0; t < trials.size(); t++) {
                Trial trial = trials.get(t);
                listener.trialStarting(trial);
                if (died != null) {
                    outcomes.failed(trial.id(), "its engine had died during an earlier trial (" + first.serverId() + ")");
                } else {
                    measure(trial, engine, cleanStart, String.format("[%d/%d] ", done + t + 1,
                            Math.max(done + trials.size(), plan.trials().size())), scrapeNoted, repetitions);
                    died = engine.failure().orElse(null);
                    if (died != null) {
                        outcomes.failed(trial.id(), died);
                        out.printf("  %s: %s%n", trial.id(), died.lines().findFirst().orElse(died));
                    }
                }
                journal(trial);
            }
        } catch (EngineStartException e) {
            out.printf("  %s did not start: %s%n", first.serverId(), e.getMessage());
            for (Trial trial : trials) {
                listener.trialStarting(trial);
                outcomes.failed(trial.id(), "engine did not start: " + e.getMessage());
                journal(trial);
            }
        }
    }

    /**
     * Measures one trial: its repetitions, or the steps of its sweep. Requests finished before a failure are kept:
     * the block shows them next to the failure.
     */
    private void measure(Trial trial, RunningEngine engine, CleanStart cleanStart, String progress,
                         AtomicBoolean scrapeNoted, int upTo) throws IOException {
        ExecutionParams params = context.params();
        List<MeasuredStep> steps = new ArrayList<>();
        List<MeasuredStep> before = outcomes.steps(trial.id());
        List<RepetitionResult> repetitions = new ArrayList<>(before.isEmpty() ? List.of() : before.get(0).repetitions());
        try {
            SloSpec slo = TrialSlos.of(trial, plan, params.slo(), context.out());
            outcomes.slo(trial.id(), slo);
            LoadMeasurement measurement = new LoadMeasurement(context, engine, cleanStart, trial, slo, scrapeNoted);
            if (Profile.SWEEP.equals(trial.workload().profile())) {
                Sweep.run(measurement, params, progress, steps);
            } else {
                for (int r = repetitions.size() + 1; r <= upTo && engine.failure().isEmpty(); r++) {
                    String name = LoadNames.of(trial.id(), null, r, upTo > 1);
                    WorkloadParams w = params.asSent(trial.workload());
                    Repetition repetition = Repetition.of(params.seed(), r);
                    repetitions.add(measurement.measure(w, LoadSettings.profile(w, repetition.seed(),
                            context.dataset(w.dataset())), repetition, name, progress + name));
                }
            }
        } catch (LoadMeasurement.LoadFailure e) {
            // the load could not go on (out of memory, a full disk): what it measured is kept, and the run goes on; a
            // sweep has kept its steps itself
            if (!Profile.SWEEP.equals(trial.workload().profile())) {
                repetitions.add(e.partial());
            }
            outcomes.failed(trial.id(), "partial: " + e.getMessage());
            context.out().printf("  %s stopped: %s; the requests it finished are kept%n", trial.id(), e.getMessage());
        } catch (RuntimeException e) {
            // a request to an engine that died fails first: the engine's exit, once it shows, is the reason
            String why = engineFailure(engine).orElse("trial failed: " + e);
            outcomes.failed(trial.id(), why);
            context.out().printf("  %s failed: %s%n", trial.id(), why.lines().findFirst().orElse(why));
        }
        if (!Profile.SWEEP.equals(trial.workload().profile())) {
            steps.add(new MeasuredStep(null, null, repetitions));
        }
        outcomes.measured(trial.id(), steps);
    }

    /** Appends the trial's blocks to the journal and tells the listener it has ended. */
    private void journal(Trial trial) throws IOException {
        List<BlockResult> blocks = BlockResults.of(plan.blocksOf(trial), outcomes, context.params());
        for (BlockResult block : blocks) {
            journal.append(block);
        }
        listener.trialFinished(trial, blocks);
    }

    /** The engine's failure, waited for a moment: a supervisor reports its engine's exit a few milliseconds late. */
    private static java.util.Optional<String> engineFailure(RunningEngine engine) {
        for (int i = 0; i < 20 && engine.failure().isEmpty(); i++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return engine.failure();
    }
}
