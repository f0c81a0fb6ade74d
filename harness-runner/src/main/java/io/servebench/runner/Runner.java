package io.servebench.runner;

import io.servebench.engine.Engines;
import io.servebench.load.Interruption;
import io.servebench.plan.Trial;
import io.servebench.results.journal.RunJournal;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.TrialPlanner;
import io.servebench.study.Benchmark;
import io.servebench.study.BenchmarkList;
import io.servebench.study.StudyChecker;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;
import io.servebench.workload.LoadOption;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Runs a selection of benchmarks, as JMH's {@code Runner} does: selects them, plans their trials and hands the plan to
 * its run strategy (the plan as it stands, a tuner, a capacity search), which has an executor (here, or SLURM jobs)
 * measure the trials it chooses, and writes the run folder. A trial that fails is recorded as
 * failed and the run goes on; the journal keeps every finished trial, and the reports are written even when the
 * run fails or is stopped (Ctrl-C, SIGTERM).
 */
public final class Runner {

    private final RunOptions options;
    private final RunParams params;
    private final PrintWriter out;
    private final UnaryOperator<String> environment;
    private final Interruption interruption = new Interruption();

    /** A runner that prints to the standard output. */
    public Runner(RunOptions options) {
        this(options, new PrintWriter(System.out, true));
    }

    /** A runner whose API key, if any, comes from the process's environment. */
    public Runner(RunOptions options, PrintWriter out) {
        this(options, out, System::getenv);
    }

    /** @param environment looks up environment variables (the API key's), {@code System::getenv} but in tests */
    Runner(RunOptions options, PrintWriter out, UnaryOperator<String> environment) {
        this.options = options;
        this.params = RunParams.of(options);
        this.out = out;
        this.environment = environment;
    }

    /**
     * The benchmarks on the class path that the include patterns select, sorted.
     *
     * @throws RunnerException when there are none, or a pattern is malformed or matches nothing
     */
    public List<String> selectedBenchmarks() {
        if (options.adHoc().isPresent()) {
            StudyDescriptor study = options.adHoc().get().study();
            return study.variants().stream().map(v -> study.className() + "." + v.name()).toList();
        }
        return BenchmarkSelection.select(options.includes(), options.studies(), Thread.currentThread().getContextClassLoader());
    }

    /**
     * The trial plan of the selected benchmarks, with this run's overrides applied.
     *
     * @throws RunnerException          when a selected study is not on the class path
     * @throws IllegalArgumentException when a study has problems or an override does not fit it
     */
    public TrialPlan plan() {
        return plan(selections());
    }

    /** The selected studies, each with its selected variants in declaration order. */
    private List<TrialPlanner.Selection> selections() {
        if (options.adHoc().isPresent()) {
            StudyDescriptor study = StudyChecker.requireValid(options.adHoc().get().study());
            return List.of(new TrialPlanner.Selection(study, study.variants()));
        }
        List<Benchmark> benchmarks;
        try {
            benchmarks = BenchmarkList.resolve(selectedBenchmarks(), Thread.currentThread().getContextClassLoader());
        } catch (IllegalArgumentException e) {
            throw new RunnerException(e.getMessage());
        }
        Map<String, StudyDescriptor> studies = new LinkedHashMap<>();
        Map<String, List<VariantDescriptor>> selected = new LinkedHashMap<>();
        for (Benchmark b : benchmarks) {
            studies.putIfAbsent(b.study().className(), b.study());
            selected.computeIfAbsent(b.study().className(), k -> new ArrayList<>()).add(b.variant());
        }
        List<TrialPlanner.Selection> selections = new ArrayList<>();
        for (StudyDescriptor study : studies.values()) {
            // A class compiled without the processor has not been checked yet.
            StudyChecker.requireValid(study);
            // Declaration order, as the study reads, rather than the list's sorted order.
            List<VariantDescriptor> ordered = study.variants().stream().filter(selected.get(study.className())::contains).toList();
            selections.add(new TrialPlanner.Selection(study, ordered));
        }
        return selections;
    }

    private TrialPlan plan(List<TrialPlanner.Selection> selections) {
        TrialPlan plan = new TrialPlanner(options.overrides(), options.engineOverrides()).plan(selections);
        if (options.trials().isEmpty()) {
            return plan;
        }
        // a tuner or a capacity search chooses its own trials: there is no listed one to pick
        tunedStudy(selections).ifPresent(study -> {
            throw new RunnerException("--trial picks trials of a plan, and " + study.className() + " is a tuning study,"
                    + " which chooses its trials as it runs: drop --trial");
        });
        if (options.capacitySearch()) {
            throw new RunnerException("--trial picks trials of a plan, and --capacity chooses its probes as it runs: drop"
                    + " one of them");
        }
        return plan.only(options.trials());
    }

    /**
     * Prints one line per trial and a last line {@code N trials, M server starts}; for a tuning study, its steps and
     * candidates instead, since it chooses its trials as it runs.
     */
    public void printPlan() {
        List<TrialPlanner.Selection> selections = selections();
        TrialPlan plan = plan(selections);
        Optional<StudyDescriptor> tuned = tunedStudy(selections);
        if (tuned.isPresent()) {
            new TunedRun(folder(), tuned.get()).printPlan(plan, out);
        } else {
            PlanPrinter.print(plan, params, out);
        }
    }

    /**
     * Whether the selection is a tuning study ({@code @Tune}), which chooses its trials as it runs: its plan is where it
     * starts, not what it will run.
     *
     * @throws RunnerException as {@link #plan()}, and when a tuning study is selected with others
     */
    public boolean tunes() {
        return tunedStudy(selections()).isPresent();
    }

    /**
     * Runs the plan and writes the run folder.
     *
     * @return the results, also when a trial failed ({@link RunOutcome#allTrialsRan()} says whether one did)
     * @throws RunnerException when a dataset or the API key is missing (before any engine starts), or when
     *                         {@link #interrupt} stops the run while it still reads its datasets (nothing measured)
     */
    public RunOutcome run() throws IOException {
        return run(RunListener.NONE);
    }

    /**
     * {@link #run()}, telling {@code listener} about each engine start and each trial as it starts and ends. Hands the
     * plan to its strategy: a tuning study's tuner, {@code --capacity}'s search, or the plan as it stands.
     */
    public RunOutcome run(RunListener listener) throws IOException {
        List<TrialPlanner.Selection> selections = selections();
        TrialPlan plan = plan(selections);
        refuseWhatTheModeCannotServe(plan);
        requireWritable(outputDir());
        Optional<StudyDescriptor> tuned = tunedStudy(selections);
        if (tuned.isPresent()) {
            if (options.capacitySearch()) {
                throw new RunnerException("--capacity searches the variants of a study that lists its trials; "
                        + tuned.get().className() + " is a tuning study");
            }
            return new TunedRun(folder(), tuned.get()).run(plan, listener);
        }
        if (options.capacitySearch()) {
            return new CapacityRun(folder(), selections.get(0).study()).run(plan, listener);
        }
        return new PlannedRun(folder()).run(plan, listener);
    }

    /**
     * Load options the engine mode cannot serve, refused before anything starts: in virtual time there is no connection
     * for the client to close, so cancellation and timeouts have no meaning there, nor load workers to spread them.
     *
     * @throws RunnerException naming the option, the trial and the modes that serve it
     */
    private void refuseWhatTheModeCannotServe(TrialPlan plan) {
        // a model the simulated engine does not know, or flags it cannot read, refused in one line before any start
        plan.blocks().stream().map(b -> b.trial().server()).distinct()
                .filter(server -> io.servebench.engine.Engines.simulated(server, params.engines()))
                .map(server -> io.servebench.engine.Engines.simulationProblem(server, params.engines()))
                .flatMap(java.util.Optional::stream).findFirst().ifPresent(problem -> {
                    throw new RunnerException(problem);
                });
        if (params.engines().simulate() != io.servebench.engine.EngineParams.Simulate.VIRTUAL) {
            return;
        }
        if (params.options().client().loadWorkers() > 1) {
            throw new RunnerException("--load-workers " + params.options().client().loadWorkers() + " spreads a load's"
                    + " connections over processes, and --simulate=virtual sends none: drop --load-workers, or run"
                    + " with --simulate or --simulate=process");
        }
        for (io.servebench.plan.ResultBlock block : plan.blocks()) {
            io.servebench.plan.LoadOptionParams o = block.trial().workload().options();
            String option = o.cancellationRate() > 0 ? LoadOption.CANCELLATION_RATE.key()
                    : o.timeoutSeconds() > 0 ? LoadOption.TIMEOUT_SECONDS.key() : null;
            if (option != null) {
                throw new RunnerException(option + " (" + block.benchmark() + ") calls requests off by closing their"
                        + " connections, and --simulate=virtual has none: run it with --simulate (the simulated engine"
                        + " over HTTP) or --simulate=process, or on a real engine");
            }
        }
    }

    /**
     * Checks that the run folder can be written, before any engine starts: a run that cannot keep what it measures
     * must not begin.
     *
     * @throws RunnerException naming the folder and why
     */
    static void requireWritable(Path dir) {
        try {
            java.nio.file.Files.createDirectories(dir);
            java.nio.file.Files.delete(java.nio.file.Files.createTempFile(dir, ".servebench-", ".probe"));
        } catch (IOException | SecurityException e) {
            String why = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e instanceof java.nio.file.FileAlreadyExistsException ? "a file of that name is in the way"
                    // a file system's exception has the path for its message: its reason says why
                    : e instanceof java.nio.file.NoSuchFileException ? "no such folder, and it cannot be made"
                    : e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null ? fs.getReason()
                    : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new RunnerException("cannot write the results to " + dir + " (" + why + "); give a folder you can"
                    + " write with -o");
        }
    }

    /** The journal of the run in {@code dir}: a folder holds a ServeBench run when it exists. */
    public static Path journal(Path dir) {
        return dir.resolve(RunJournal.FILE_NAME);
    }

    /**
     * The arguments after {@code java -jar benchmarks.jar} that repeat this run, without {@code -o}: what its journal and
     * results record, and what {@code --resume} reads back.
     */
    public List<String> commandLine() {
        return RunCommandLine.args(params);
    }

    /** The run folder: the one the options name, else {@code results/yyyyMMdd-HHmmss} of when this runner was made. */
    public Path outputDir() {
        return params.outputDir();
    }

    /** How a trial's server reads in lists and test names: {@code vllm Qwen/Qwen3.5-9B --max-num-seqs=64}. */
    public String serverLabel(Trial trial) {
        return Engines.label(trial.server(), params.engines());
    }

    private RunFolder folder() {
        return new RunFolder(params, out, environment, interruption);
    }

    /**
     * Stops the run as Ctrl-C does, from any thread: the load in flight is cut short and kept as an interrupted
     * repetition, the repetitions that completed count, no further trial begins, and {@link #run()} returns once the
     * reports are written; {@code --resume} (or {@link RunOptions.Builder#resume}) finishes the rest later.
     *
     * @param cause what asked, for the reports ({@code SIGINT}, {@code "the IDE's stop button"})
     */
    public void interrupt(String cause) {
        interruption.interrupt(cause);
    }

    /** What stopped the run ({@link #interrupt}); empty when nothing did. */
    public Optional<String> interruptedBy() {
        return interruption.cause();
    }

    /**
     * The selected study with {@code @Tune}, if the selection is one. A tuning study chooses its own trials, so it runs
     * alone and whole.
     */
    private static Optional<StudyDescriptor> tunedStudy(List<TrialPlanner.Selection> selections) {
        List<StudyDescriptor> tuned = selections.stream().map(TrialPlanner.Selection::study)
                .filter(s -> s.tune().isPresent()).toList();
        if (tuned.isEmpty()) {
            return Optional.empty();
        }
        if (selections.size() > 1) {
            throw new RunnerException("the selection holds the tuning study " + tuned.get(0).className() + " and "
                    + (selections.size() - 1) + " other studies; a tuning study chooses its own trials and runs alone: select"
                    + " it only (e.g. '" + tuned.get(0).simpleName() + "$')");
        }
        return Optional.of(tuned.get(0));
    }
}
