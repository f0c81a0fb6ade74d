package io.servebench.execution;

import io.servebench.annotations.Profile;
import io.servebench.engine.EngineStartException;
import io.servebench.engine.Engines;
import io.servebench.engine.RunningEngine;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.load.Interruption;
import io.servebench.measure.SloParams;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.BlockResult;
import io.servebench.results.IncompleteRepetition;
import io.servebench.results.RepetitionResult;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.journal.JournalledRepetition;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One engine start and the trials it serves, back to back: the engine is started and its environment captured,
 * each trial measured (every load from a {@link CleanStart}: drained, prefix cache emptied, settled), and the engine
 * stopped, or kept running ({@link Warm}) for the next trials of its server configuration that an adaptive run asks for.
 * A trial that fails is recorded and the next one runs; once the engine has died, its remaining trials are not run.
 * Every trial's blocks go to the journal as soon as it ends.
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
     * An engine that served its batch and still runs, with what its trials share: a later batch of its server
     * configuration is measured on it rather than on a start of its own, which on a GPU costs minutes of loading.
     */
    static final class Warm implements AutoCloseable {
        private final Trial first;
        private final RunningEngine engine;
        private final CleanStart cleanStart;
        private final AtomicBoolean scrapeNoted;

        private Warm(Trial first, RunningEngine engine, CleanStart cleanStart, AtomicBoolean scrapeNoted) {
            this.first = first;
            this.engine = engine;
            this.cleanStart = cleanStart;
            this.scrapeNoted = scrapeNoted;
        }

        /**
         * Whether {@code trials} are of this engine's server configuration and it still serves: one that died since its
         * batch is stopped and a fresh one started, as before rounds shared engines.
         */
        boolean serves(List<Trial> trials) {
            return trials.get(0).serverId().equals(first.serverId()) && trials.get(0).server().equals(first.server())
                    && engine.failure().isEmpty();
        }

        /** Stops the engine. */
        @Override
        public void close() {
            engine.close();
        }
    }

    /** {@link #run(List, int, int, int, Warm, boolean)} on an engine of their own, stopped at the end. */
    void run(List<Trial> trials, int before, int known, int repetitions) throws IOException {
        run(trials, before, known, repetitions, null, false);
    }

    /**
     * Runs {@code trials} up to {@code repetitions} repetitions each: a trial measured before (by a tuner that wants
     * one more, or a run resumed after an interruption) keeps its complete repetitions and gets only the missing ones,
     * each from its own seed as always. Once the run is interrupted, the trials left are not begun.
     *
     * @param before trial measurements begun before these (and a resumed run's finished trials), and {@code known}
     *               all known so far with these: each trial's line is numbered {@code [k/known]}
     * @param warm   an engine of their server configuration that still runs, to measure them on; {@code null} to start one
     * @param keep   whether to keep the engine running afterwards, healthy and not interrupted, for the caller to
     *               hand back or close
     * @return the engine kept running, {@code null} when it was stopped (or never started)
     */
    Warm run(List<Trial> trials, int before, int known, int repetitions, Warm warm, boolean keep) throws IOException {
        ExecutionParams params = context.params();
        PrintWriter out = context.out();
        if (context.interruption().interrupted()) {
            if (warm != null) {
                warm.close();
            }
            return null;
        }
        Trial first = warm == null ? trials.get(0) : warm.first;
        RunningEngine engine;
        Warm kept = warm;
        if (kept == null) {
            Path log = params.outputDir().resolve("logs")
                    .resolve(first.serverId() + (params.freshServer() ? "-" + first.id() : "") + ".log");
            out.printf("Starting %s: %s%n", first.serverId(), Engines.label(first.server(), params.engines()));
            listener.serverStarting(trials);
            // an engine still loading is given up at once: nothing of it is measured yet
            try {
                engine = start(first, log);
            } catch (EngineStartException e) {
                notStarted(trials, first, e);
                return null;
            }
        } else {
            out.printf("Reusing %s, still running: %s%n", first.serverId(), Engines.label(first.server(), params.engines()));
            engine = kept.engine;
        }
        boolean stop = true;
        try {
            if (kept == null) {
                ServerEnvironment environment = Engines.capture(first.serverId(), first.server(), params.engines(), engine,
                        ServeBenchVersion.get());
                outcomes.server(environment);
                journal.append(environment);
                kept = new Warm(first, engine, new CleanStart(context, engine, first.server()), new AtomicBoolean());
            }
            CleanStart cleanStart = kept.cleanStart;
            AtomicBoolean scrapeNoted = kept.scrapeNoted;
            String died = null;
            for (int t = 0; t < trials.size() && !context.interruption().interrupted(); t++) {
                Trial trial = trials.get(t);
                listener.trialStarting(trial);
                if (died != null) {
                    outcomes.failed(trial.id(), "its engine had died during an earlier trial (" + first.serverId() + ")");
                } else {
                    measure(trial, engine, cleanStart, String.format("[%d/%d] ", before + t + 1, known), scrapeNoted,
                            repetitions);
                    died = engine.failure().orElse(null);
                }
                journal(trial);
            }
            stop = !keep || died != null || context.interruption().interrupted();
            return stop ? null : kept;
        } finally {
            if (stop) {
                engine.close();
            }
        }
    }

    private void notStarted(List<Trial> trials, Trial first, EngineStartException e) throws IOException {
        if (context.interruption().interrupted()) {
            context.out().printf("  %s: its start was given up: the run was interrupted (%s)%n", first.serverId(),
                    context.interruption().cause().orElseThrow());
            return;
        }
        context.out().printf("  %s did not start: %s%n", first.serverId(), e.getMessage());
        for (Trial trial : trials) {
            listener.trialStarting(trial);
            outcomes.failed(trial.id(), "engine did not start: " + e.getMessage());
            journal(trial);
        }
    }

    /**
     * Starts {@code first}'s engine, given up (an {@link EngineStartException}) when the run is interrupted while the
     * engine loads: the wait for its readiness is woken by interrupting this thread, which is cleared again before
     * anything else runs on it (the journal's channel would close on an interrupted thread).
     */
    private RunningEngine start(Trial first, Path log) throws EngineStartException {
        Thread starter = Thread.currentThread();
        // guarded by itself: a wake-up that comes as the start ends must not interrupt what runs after it
        boolean[] starting = {true};
        try (Interruption.Registration wake = context.interruption().onInterrupt(() -> {
            synchronized (starting) {
                if (starting[0]) {
                    starter.interrupt();
                }
            }
        })) {
            // a start that takes long says what it waits for: an engine loading (its log shows how far), or an endpoint
            // that does not answer (its log is one line)
            String logNamed = first.server().kind() == EngineKinds.ENDPOINT ? ""
                    : " (" + context.params().outputDir().relativize(log) + ")";
            return Engines.start(first.server(), context.engines(), log,
                    notice -> context.out().printf("  %s: %s%s%n", first.serverId(), notice, logNamed));
        } finally {
            synchronized (starting) {
                starting[0] = false;
                Thread.interrupted();
            }
        }
    }

    /**
     * Measures one trial: its repetitions, or the steps of its sweep. Each repetition that completes is kept (and
     * journalled) at once; one that fails (its engine died, its load could not go on, every request or too large a share
     * failed) or is interrupted is kept apart, with its records renamed as partial, and ends the trial.
     */
    private void measure(Trial trial, RunningEngine engine, CleanStart cleanStart, String progress,
                         AtomicBoolean scrapeNoted, int upTo) throws IOException {
        ExecutionParams params = context.params();
        outcomes.started(trial.id());
        List<MeasuredStep> before = outcomes.steps(trial.id());
        List<RepetitionResult> repetitions = new ArrayList<>(before.isEmpty() ? List.of() : before.get(0).repetitions());
        String name = null;
        int number = repetitions.size() + 1;
        try {
            SloParams slo = TrialSlos.of(trial, plan, params.slo(), context.out());
            outcomes.slo(trial.id(), slo);
            LoadMeasurement measurement = new LoadMeasurement(context, engine, cleanStart, trial, slo, scrapeNoted);
            if (Profile.SWEEP.equals(trial.workload().profile())) {
                List<MeasuredStep> steps = new ArrayList<>();
                try {
                    Sweep.run(measurement, params, progress, steps);
                } finally {
                    outcomes.measured(trial.id(), steps);
                }
            } else {
                for (; number <= upTo; number++) {
                    if (context.interruption().interrupted()) {
                        outcomes.interrupted(trial.id(), interrupted(repetitions.size(), upTo, "before repetition "
                                + number));
                        return;
                    }
                    name = LoadNames.of(trial.id(), null, number, upTo > 1);
                    WorkloadParams w = params.asSent(trial.workload());
                    Repetition repetition = Repetition.of(params.seed(), number);
                    RepetitionResult measured = measurement.measure(w, LoadSettings.profile(w, repetition.seed(),
                            context.dataset(w.dataset())), repetition, name, progress + name);
                    repetitions.add(measured);
                    outcomes.measured(trial.id(), List.of(new MeasuredStep(null, null, repetitions)));
                    journal.append(JournalledRepetition.complete(trial.id(), number, measured));
                }
            }
            outcomes.completed(trial.id());
        } catch (LoadMeasurement.LoadFailure e) {
            // what the load measured is kept apart, named as partial; the run goes on (a sweep kept its steps)
            IncompleteRepetition kept = keep(trial, e.name(), e.number(), e.kind(), e.getMessage(), e.partial());
            if (e.kind() == IncompleteRepetition.Kind.INTERRUPTED) {
                outcomes.interrupted(trial.id(), interrupted(repetitions.size(), upTo, "during repetition " + e.number()
                        + ": " + e.getMessage()) + (kept.records() == null ? "" : "; its records are in " + kept.records()));
            } else {
                outcomes.failed(trial.id(), "repetition " + e.number() + " failed: " + e.getMessage());
                context.out().printf("  %s failed: repetition %d: %s%n", trial.id(), e.number(), e.getMessage());
            }
        } catch (CancellationException e) {
            if (!context.interruption().interrupted()) {
                throw e;
            }
            // the run was stopped while the repetition's dataset was built: nothing of it was sent
            outcomes.interrupted(trial.id(), interrupted(repetitions.size(), upTo, "before repetition " + number
                    + ", while its dataset was built"));
        } catch (RuntimeException e) {
            // a request to an engine that died fails first: the engine's exit, once it shows, is the reason
            String why = LoadMeasurement.engineFailure(engine).orElse("trial failed: " + e);
            if (name != null) {
                keep(trial, name, number, IncompleteRepetition.Kind.FAILED, why.lines().findFirst().orElse(why), null);
            }
            outcomes.failed(trial.id(), why);
            context.out().printf("  %s failed: %s%n", trial.id(), why.lines().findFirst().orElse(why));
        }
    }

    /** {@code interrupted (SIGINT) before repetition 2: 1 of 3 repetitions complete, kept}. */
    private String interrupted(int complete, int of, String when) {
        return "interrupted (" + context.interruption().cause().orElse("stopped") + ") " + when + "; " + complete + " of "
                + of + " repetitions complete" + (complete > 0 ? ", kept" : "");
    }

    /**
     * Keeps an incomplete repetition: its records renamed as partial, it journalled, and it in the trial's outcomes.
     *
     * @param name the load's name, {@code null} when the failure came before its first load
     */
    private IncompleteRepetition keep(Trial trial, String name, int number, IncompleteRepetition.Kind kind, String reason,
                                      RepetitionResult measured) throws IOException {
        String records = name == null ? null
                : LoadNames.keepIncomplete(context.params().outputDir(), name, kind).orElse(null);
        IncompleteRepetition kept = new IncompleteRepetition(number, kind, reason, records, measured);
        outcomes.incomplete(trial.id(), kept);
        journal.append(JournalledRepetition.incomplete(trial.id(), kept));
        return kept;
    }

    /** Appends the trial's blocks to the journal and tells the listener it has ended. */
    private void journal(Trial trial) throws IOException {
        List<BlockResult> blocks = BlockResults.of(plan.blocksOf(trial), outcomes, context.params());
        for (BlockResult block : blocks) {
            journal.append(block);
        }
        listener.trialFinished(trial, blocks);
    }

}
