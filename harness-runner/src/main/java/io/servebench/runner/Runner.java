package io.servebench.runner;

import io.servebench.metrics.SloSpec;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.TrialPlanner;
import io.servebench.plan.WorkloadParams;
import io.servebench.reports.ResultFormatType;
import io.servebench.reports.ResultFormats;
import io.servebench.results.BlockResult;
import io.servebench.results.CapacityResult;
import io.servebench.results.Metric;
import io.servebench.results.ResultFormat;
import io.servebench.results.RunResult;
import io.servebench.results.TuningResult;
import io.servebench.results.jmh.JmhJsonWriter;
import io.servebench.results.journal.RunHeader;
import io.servebench.results.journal.RunJournal;
import io.servebench.study.Benchmark;
import io.servebench.study.BenchmarkList;
import io.servebench.study.StudyChecker;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.TuneSpec;
import io.servebench.study.VariantDescriptor;
import io.servebench.tuning.CapacitySearch;
import io.servebench.tuning.Tuner;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Runs a selection of benchmarks, as JMH's {@code Runner} does: selects them, plans their trials, hands each
 * server configuration to a {@link ServerSession}, and writes the run folder. A trial that fails is recorded as
 * failed and the run goes on; the journal keeps every finished trial, and the reports are written even when the
 * run fails or is stopped (Ctrl-C, SIGTERM).
 */
public final class Runner {

    private final RunOptions options;
    private final PrintWriter out;
    private final UnaryOperator<String> environment;

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
        this.out = out;
        this.environment = environment;
    }

    /**
     * The benchmarks on the class path that the include patterns select, sorted.
     *
     * @throws RunnerException when there are none, or a pattern is malformed or matches nothing
     */
    public List<String> selectedBenchmarks() {
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
        return new TrialPlanner(options.overrides(), options.engineOverrides()).plan(selections);
    }

    /**
     * Prints one line per trial and a last line {@code N trials, M server starts}; for a tuning study, its steps and
     * candidates instead, since it chooses its trials as it runs.
     */
    public void printPlan() {
        List<TrialPlanner.Selection> selections = selections();
        TrialPlan plan = plan(selections);
        Optional<StudyDescriptor> tuned = tunedStudy(selections);
        if (tuned.isEmpty()) {
            PlanPrinter.print(plan, options, out);
            return;
        }
        StudyDescriptor study = tuned.get();
        TuneSpec spec = study.tuneSpec().orElseThrow();
        out.printf("%s is a tuning study: it chooses its trials as it runs, from what the earlier ones measured.%n",
                study.className());
        Map<String, List<String>> groups = new LinkedHashMap<>();
        study.variants().forEach(v -> groups.computeIfAbsent(v.baseline() ? spec.engineGroup() : v.group(),
                k -> new ArrayList<>()).add(v.name()));
        int step = 0;
        List<String> engines = groups.getOrDefault(spec.engineGroup(), List.of());
        out.printf("  step %d: %s: %s%n", ++step, spec.engineGroup(), String.join(", ", engines));
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            if (!g.getKey().equals(spec.engineGroup())) {
                out.printf("  step %d: option group %s on the winner: %s%n", ++step, g.getKey(), String.join(", ", g.getValue()));
            }
        }
        out.printf("  step %d: the winning options combined, against the winner and each option alone%n", ++step);
        if (!spec.validationRates().isEmpty()) {
            out.printf("  step %d: baseline vs recommendation at %s req/s%n", ++step, spec.validationRates().stream()
                    .map(WorkloadParams::formatRate).collect(Collectors.joining(", ")));
        }
        out.printf("Ranked by %s at %s req/s; up to %d repetitions where a difference of %.0f%% or more is not"
                + " yet significant.%n", spec.label(), WorkloadParams.formatRate(plan.trials().get(0).workload().rate()),
                spec.maxRepetitions(), (spec.closeCall() - 1) * 100);
    }

    /**
     * Runs the plan and writes the run folder.
     *
     * @return the results, also when a trial failed ({@link RunOutcome#allTrialsRan()} says whether one did)
     * @throws RunnerException when a dataset or the API key is missing (before any engine starts)
     */
    public RunOutcome run() throws IOException {
        return run(RunListener.NONE);
    }

    /** {@link #run()}, telling {@code listener} about each engine start and each trial as it starts and ends. */
    public RunOutcome run(RunListener listener) throws IOException {
        List<TrialPlanner.Selection> selections = selections();
        TrialPlan plan = plan(selections);
        Optional<StudyDescriptor> tuned = tunedStudy(selections);
        if (options.worker() != null) {
            return tuned.isPresent() || options.capacitySearch() ? runAdaptiveWorker(plan, selections, listener)
                    : runWorker(plan, listener);
        }
        if (tuned.isPresent()) {
            if (options.capacitySearch()) {
                throw new RunnerException("--capacity searches the variants of a study that lists its trials; "
                        + tuned.get().className() + " is a tuning study");
            }
            return runTuned(tuned.get(), plan, listener);
        }
        if (options.capacitySearch()) {
            return runCapacity(plan, selections, listener);
        }
        RunContext context = new RunContext(options, out,
                plan.trials().stream().map(t -> t.workload().dataset()).distinct().toList(), environment);
        Path dir = options.outputDir();
        TrialOutcomes outcomes = new TrialOutcomes();
        ResumedRun resumed = resumeOrStart(dir, plan, outcomes);
        String startTime = resumed.startTime();
        List<Trial> unfinished = plan.trials().stream().filter(t -> !resumed.finished().contains(t.id())).toList();
        // a trial the killed harness was in the middle of is kept, partial, from the records it streamed
        List<Trial> recovered = options.resume() ? KilledTrials.recover(options, plan, unfinished, outcomes, out) : List.of();
        List<Trial> toRun = unfinished.stream().filter(t -> !recovered.contains(t)).toList();
        createFolders(dir);
        out.printf("ServeBench %s: %d trials, %d server starts%s, results in %s%n", ServeBenchVersion.get(),
                plan.trials().size(), PlanPrinter.serverStarts(plan, options), options.simulate() ? " (simulated)" : "", dir);
        if (options.resume()) {
            out.printf("Resuming: %d of %d trials finished before%s; running the other %d%n", resumed.finished().size(),
                    plan.trials().size(), recovered.isEmpty() ? "" : ", " + recovered.size() + " partly (kept as measured)",
                    toRun.size());
        }

        if (!toRun.isEmpty()) {
            warmClient();
        }
        RunHeader header = new RunHeader(startTime, RunCommandLine.args(options), ResumedRun.planKeys(plan));
        RunResult reported = journalled(header, () -> result(plan, startTime, outcomes), journal -> {
            for (Trial trial : recovered) {
                for (BlockResult block : BlockResults.of(plan.blocksOf(trial), outcomes, options)) {
                    journal.append(block);
                }
            }
            List<List<Trial>> starts = byServerStart(toRun);
            StudyProgress progress = new StudyProgress(progressOut(), options, toRun, resumed.finished().size(), starts.size(),
                    System::nanoTime);
            if (options.slurm() != null) {
                new SlurmExecutor(options, out, both(progress, listener)).run(SlurmExecutor.byServer(toRun), plan, journal,
                        outcomes);
                return;
            }
            ServerSession session = new ServerSession(context, plan, outcomes, journal, both(progress, listener));
            int done = resumed.finished().size();
            try (Ticker ticker = periodicLines(progress)) {
                for (List<Trial> serverTrials : starts) {
                    session.run(serverTrials, done);
                    done += serverTrials.size();
                }
            }
        });
        out.printf("Done: %d of %d trials ran. Reports: %s, %s, %s%n", plan.trials().size() - outcomes.failedTrials(),
                plan.trials().size(), dir.resolve(ResultFormatType.MARKDOWN.fileName()),
                dir.resolve(ResultFormatType.HTML.fileName()), dir.resolve(ResultFormatType.JSON.fileName()));
        return new RunOutcome(reported, dir);
    }

    /**
     * One SLURM job of a run ({@link RunOptions#worker()}): the trials of its server configuration, journalled to
     * {@code jobs/ID.jsonl} for the coordinator to merge; the coordinator writes the reports.
     */
    private RunOutcome runWorker(TrialPlan plan, RunListener listener) throws IOException {
        Path jobJournal = options.outputDir().resolve("jobs").resolve(options.worker() + ".jsonl");
        // a job submitted again after its first one ended midway runs only what that one did not finish
        Set<String> finished = Files.exists(jobJournal) ? RunJournal.read(jobJournal).stream().map(BlockResult::trialId)
                .collect(Collectors.toSet()) : Set.of();
        List<Trial> all = plan.trials().stream().filter(t -> t.serverId().equals(options.worker())).toList();
        List<Trial> mine = all.stream().filter(t -> !finished.contains(t.id())).toList();
        if (all.isEmpty()) {
            throw new RunnerException("--worker " + options.worker() + ": the plan has no server start of that id; expected"
                    + " one of " + plan.trials().stream().map(Trial::serverId).distinct().toList());
        }
        RunContext context = new RunContext(options, out, mine.stream().map(t -> t.workload().dataset()).distinct().toList(),
                environment);
        Path dir = options.outputDir();
        createFolders(dir);
        out.printf("ServeBench %s: worker for %s, %d trials, results in %s%n", ServeBenchVersion.get(), options.worker(),
                mine.size(), dir);
        warmClient();
        TrialOutcomes outcomes = new TrialOutcomes();
        try (RunJournal journal = RunJournal.openFile(jobJournal)) {
            ServerSession session = new ServerSession(context, plan, outcomes, journal, listener);
            for (List<Trial> serverTrials : byServerStart(mine)) {
                session.run(serverTrials, 0);
            }
        }
        // its own trials' blocks: the job's exit status says whether they all ran
        TrialPlan own = new TrialPlan(plan.blocks().stream().filter(b -> mine.contains(b.trial())).toList(), mine);
        return new RunOutcome(result(own, Instant.now().toString(), outcomes), dir);
    }

    /**
     * One SLURM job of an adaptive run (a tuner, a capacity search): the configurations its coordinator wrote to
     * {@code jobs/KEY.json}, each trial under the id the coordinator gave it, with the repetitions earlier rounds
     * measured (from the run's journal) kept; journalled to {@code jobs/KEY.jsonl} as a listed run's job is.
     */
    private RunOutcome runAdaptiveWorker(TrialPlan listed, List<TrialPlanner.Selection> selections, RunListener listener)
            throws IOException {
        Path dir = options.outputDir();
        Path jobs = dir.resolve("jobs");
        AdaptiveJob job = AdaptiveJob.read(jobs.resolve(options.worker() + ".json"));
        StudyDescriptor study = selections.get(0).study();
        Path jobJournal = jobs.resolve(options.worker() + ".jsonl");
        TrialOutcomes outcomes = new TrialOutcomes();
        // what the run measured before this round, then what an earlier job of this key finished (a resubmission)
        ResumedRun.load(RunJournal.read(dir), List.of(), outcomes);
        ResumedRun.load(RunJournal.read(jobJournal), List.of(), outcomes);
        RunContext context = new RunContext(options, out,
                listed.trials().stream().map(t -> t.workload().dataset()).distinct().toList(), environment);
        createFolders(dir);
        out.printf("ServeBench %s: worker for %s, %d configurations, results in %s%n", ServeBenchVersion.get(),
                options.worker(), job.run().size(), dir);
        warmClient();
        TrialPlan own;
        try (RunJournal journal = RunJournal.openFile(jobJournal)) {
            own = new AdaptiveRun(context, study, outcomes, journal, listener).measure(job);
        }
        return new RunOutcome(result(own, Instant.now().toString(), outcomes), dir);
    }

    /** Work done with the run's journal open. */
    private interface JournalWork {
        void run(RunJournal journal) throws IOException;
    }

    /**
     * Opens the run folder's journal, writing {@code header} when it is new, and does {@code work}; the reports of
     * {@code result} are written at the end, and also when Ctrl-C or SIGTERM stops the run midway (the journal has its
     * finished trials anyway).
     *
     * @return what the reports were written from
     */
    private RunResult journalled(RunHeader header, Supplier<RunResult> result, JournalWork work) throws IOException {
        AtomicReference<RunResult> reported = new AtomicReference<>();
        Runnable report = () -> {
            RunResult r = result.get();
            if (reported.compareAndSet(null, r)) {
                writeReports(r);
            }
        };
        Thread reportOnExit = new Thread(report, "servebench-report-on-exit");
        Runtime.getRuntime().addShutdownHook(reportOnExit);
        try (RunJournal journal = RunJournal.open(options.outputDir())) {
            if (journal.isEmpty()) {
                journal.append(header);
            }
            work.run(journal);
        } finally {
            report.run();
            removeHook(reportOnExit);
        }
        return reported.get();
    }

    /** Where the study line goes: the run's output, or nowhere when progress is off. */
    private PrintWriter progressOut() {
        return options.progress() ? out : new PrintWriter(Writer.nullWriter());
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

    /** Runs a {@code @Tune} study: the tuner picks each step's trials from what the earlier ones measured. */
    private RunOutcome runTuned(StudyDescriptor study, TrialPlan listed, RunListener listener) throws IOException {
        TuneSpec spec = study.tuneSpec().orElseThrow();
        List<Double> rates = listed.trials().stream().map(t -> t.workload().rate()).distinct().toList();
        if (rates.size() != 1 || !listed.trials().get(0).workload().hasRate()) {
            throw new RunnerException(study.className() + " is a tuning study: it tunes at one request rate, its"
                    + " @Workload(rate = ...) or -p rate=R with one value; found " + rates);
        }
        double rate = rates.get(0);
        return runAdaptive(study, listed, listener, String.format("tuning %s at %s req/s by %s",
                study.simpleName(), WorkloadParams.formatRate(rate), spec.label()), (measurer, progress, found) -> {
            found.tuning = new Tuner(study, spec, rate, measurer, progress::step, capacityTarget(study, spec)).tune();
            return "Recommended: " + found.tuning.recommended() + ".";
        });
    }

    /** For a tuner that ranks by capacity: the baseline's SLOs and share; empty for any other ranking. */
    private Optional<Tuner.CapacityTarget> capacityTarget(StudyDescriptor study, TuneSpec spec) {
        if (!spec.byCapacity()) {
            return Optional.empty();
        }
        String baseline = study.variants().stream().filter(VariantDescriptor::baseline).findFirst().orElseThrow().name();
        SloSpec slo = study.slo(baseline).overriddenBy(options.slo());
        if (!slo.stated()) {
            throw new RunnerException(study.className() + " ranks by capacity under SLOs but states none: give @Slo on"
                    + " the class or --slo (e.g. --slo ttft=200,tpot=30)");
        }
        return Optional.of(new Tuner.CapacityTarget(study.minAttainment(baseline).orElse(CapacitySearch.DEFAULT_TARGET),
                slo.toString()));
    }

    /**
     * {@code --capacity}: for each selected variant, the highest request rate at which its SLOs hold for the target share
     * of requests, by bracketing and bisection from its declared rate.
     */
    private RunOutcome runCapacity(TrialPlan listed, List<TrialPlanner.Selection> selections, RunListener listener)
            throws IOException {
        List<String> classes = listed.blocks().stream().map(ResultBlock::className).distinct().toList();
        if (classes.size() != 1) {
            throw new RunnerException("--capacity searches the variants of one study at a time; the selection holds " + classes);
        }
        StudyDescriptor study = selections.get(0).study();
        // each selected variant at each point of its own parameters, in plan order
        Map<String, ResultBlock> configurations = new LinkedHashMap<>();
        for (ResultBlock b : listed.blocks()) {
            Map<String, String> own = new LinkedHashMap<>(b.paramValues());
            own.keySet().removeAll(TrialPlanner.WORKLOAD_KEYS);
            configurations.putIfAbsent(b.variant() + own, b);
        }
        for (ResultBlock b : configurations.values()) {
            SloSpec slo = b.slo().overriddenBy(options.slo());
            if (!slo.stated()) {
                throw new RunnerException("--capacity needs SLOs for " + b.benchmark() + ": give --slo (e.g. --slo"
                        + " ttft=200,tpot=30) or @Slo on the study or the variant");
            }
        }
        return runAdaptive(study, listed, listener, "capacity under SLOs of " + configurations.size()
                + " configuration(s) of " + study.simpleName(), (measurer, progress, found) -> {
            int n = 0;
            for (ResultBlock b : configurations.values()) {
                VariantDescriptor variant = study.variants().stream().filter(v -> v.name().equals(b.variant())).findFirst()
                        .orElseThrow();
                Map<String, String> own = new LinkedHashMap<>(b.paramValues());
                own.keySet().removeAll(TrialPlanner.WORKLOAD_KEYS);
                SloSpec slo = b.slo().overriddenBy(options.slo());
                double target = !Double.isNaN(options.capacity()) ? options.capacity()
                        : b.minAttainment().orElse(CapacitySearch.DEFAULT_TARGET);
                double start = b.trial().workload().hasRate() ? b.trial().workload().rate() : 1;
                Tuner.Candidate candidate = new Tuner.Candidate(variant, own, start);
                progress.step(String.format("capacity %d of %d: %s", ++n, configurations.size(), candidate.name()));
                found.capacities.add(new CapacitySearch(target, CapacitySearch.DEFAULT_PRECISION, CapacitySearch.DEFAULT_PROBES)
                        .search(b.className().substring(b.className().lastIndexOf('.') + 1) + "." + candidate.name(),
                                slo.toString(), start, rate -> CapacitySearch.attained(measurer.measure(List.of(candidate.at(rate)), 1).get(0))));
            }
            return "Capacity: " + found.capacities.stream().map(c -> String.format(Locale.ROOT, "%s %.3g req/s", c.configuration(),
                    c.capacity())).collect(Collectors.joining("; ")) + ".";
        });
    }

    /** What an adaptive run has found so far, read by the reports also when it is cut short. */
    private static final class Findings {
        volatile TuningResult tuning;
        /** The run's last line: what it found. */
        volatile String done;
        final List<CapacityResult> capacities = new CopyOnWriteArrayList<>();
    }

    /** The steps of an adaptive run: measures through the measurer, records in {@code found}, returns its last line. */
    private interface Adaptive {
        String run(AdaptiveRun measurer, StudyProgress progress, Findings found);
    }

    /**
     * A run whose trials are chosen as it goes (a tuner, a capacity search): the run folder, the journal (whose header
     * lists no plan: a resumed run replays its choices on what the journal holds), progress and reports as for a
     * planned run.
     */
    private RunOutcome runAdaptive(StudyDescriptor study, TrialPlan listed, RunListener listener,
                                   String what, Adaptive steps) throws IOException {
        RunContext context = new RunContext(options, out,
                listed.trials().stream().map(t -> t.workload().dataset()).distinct().toList(), environment);
        Path dir = options.outputDir();
        TrialOutcomes outcomes = new TrialOutcomes();
        ResumedRun resumed = options.resume() ? ResumedRun.read(dir, Optional.empty(), outcomes) : resumeOrStart(dir, listed,
                outcomes);
        createFolders(dir);
        out.printf("ServeBench %s: %s%s, results in %s%n", ServeBenchVersion.get(), what,
                options.simulate() ? " (simulated)" : "", dir);
        if (options.resume()) {
            out.printf("Resuming: %d trials finished before; the run replays its steps on them%n", resumed.finished().size());
        }
        warmClient();
        AtomicReference<AdaptiveRun> measurer = new AtomicReference<>();
        Findings found = new Findings();
        RunHeader header = new RunHeader(resumed.startTime(), RunCommandLine.args(options), List.of());
        RunResult reported = journalled(header, () -> result(measurer.get() == null ? new TrialPlan(List.of(), List.of())
                : measurer.get().plan(), resumed.startTime(), outcomes, found.tuning, List.copyOf(found.capacities)), journal -> {
            StudyProgress progress = new StudyProgress(progressOut(), options, List.of(), resumed.finished().size(), -1,
                    System::nanoTime);
            measurer.set(new AdaptiveRun(context, study, outcomes, journal, both(progress, listener)));
            try (Ticker ticker = periodicLines(progress)) {
                found.done = steps.run(measurer.get(), progress, found);
            }
        });
        out.printf("%s Done: %d trials. Reports: %s, %s, %s%n", found.done, measurer.get().plan().trials().size(),
                dir.resolve(ResultFormatType.MARKDOWN.fileName()), dir.resolve(ResultFormatType.HTML.fileName()),
                dir.resolve(ResultFormatType.JSON.fileName()));
        return new RunOutcome(reported, dir);
    }

    /** Where no terminal shows the bars (CI, a pipe), the study line every half minute, so a log shows the run is alive. */
    private Ticker periodicLines(StudyProgress progress) {
        if (!options.progress() || System.console() != null) {
            return () -> { };
        }
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "servebench-study-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(() -> out.println(progress.line()), 30, 30, TimeUnit.SECONDS);
        return ticker::shutdownNow;
    }

    /** Stops printing; nothing to throw. */
    private interface Ticker extends AutoCloseable {
        @Override
        void close();
    }

    private static RunListener both(RunListener first, RunListener second) {
        return new RunListener() {
            @Override
            public void serverStarting(List<Trial> trials) {
                first.serverStarting(trials);
                second.serverStarting(trials);
            }

            @Override
            public void trialStarting(Trial trial) {
                first.trialStarting(trial);
                second.trialStarting(trial);
            }

            @Override
            public void trialFinished(Trial trial, List<BlockResult> blocks) {
                first.trialFinished(trial, blocks);
                second.trialFinished(trial, blocks);
            }
        };
    }

    /**
     * For {@code --resume}, what the folder's journal holds; for a new run, nothing, after checking that the folder
     * holds no other run's journal (two runs in one journal could not be told apart).
     */
    private ResumedRun resumeOrStart(Path dir, TrialPlan plan, TrialOutcomes outcomes) throws IOException {
        if (options.resume()) {
            return ResumedRun.read(dir, Optional.of(plan), outcomes);
        }
        Path journal = dir.resolve(RunJournal.FILE_NAME);
        if (Files.exists(journal) && Files.size(journal) > 0) {
            throw new RunnerException(dir + " already holds a run (" + RunJournal.FILE_NAME + "): continue it with --resume "
                    + dir + ", or write this run to another folder with -o");
        }
        return new ResumedRun(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), Set.of());
    }

    /** The trials of each engine start, in running order: those of one server configuration, or one each. */
    private List<List<Trial>> byServerStart(List<Trial> trials) {
        List<List<Trial>> starts = new ArrayList<>();
        for (int i = 0; i < trials.size(); ) {
            String serverId = trials.get(i).serverId();
            int end = i;
            do {
                end++;
            } while (!options.freshServer() && end < trials.size() && trials.get(end).serverId().equals(serverId));
            starts.add(trials.subList(i, end));
            i = end;
        }
        return starts;
    }

    /** The run folder's {@code logs/} and {@code requests/}, which every trial writes to. */
    private static void createFolders(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("requests"));
    }

    /** Removes a shutdown hook, unless it is already running. */
    static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing to remove
        }
    }

    private RunResult result(TrialPlan plan, String startTime, TrialOutcomes outcomes) {
        return result(plan, startTime, outcomes, null, List.of());
    }

    private RunResult result(TrialPlan plan, String startTime, TrialOutcomes outcomes, TuningResult tuning,
                             List<CapacityResult> capacities) {
        return new RunResult(startTime, ServeBenchVersion.get(), RunCommandLine.of(options), options.engineMode(),
                options.quick(), BlockResults.of(plan.blocks(), outcomes, options), outcomes.servers(), tuning, capacities);
    }

    private void writeReports(RunResult result) {
        try {
            for (ResultFormatType type : ResultFormatType.values()) {
                ResultFormat format = type == ResultFormatType.JSON ? new JmhJsonWriter(null, options.jmhParamsInName())
                        : ResultFormats.of(type, options.language());
                format.write(result, options.outputDir().resolve(type.fileName()));
            }
            for (String metric : options.jmhPrimary()) {
                new JmhJsonWriter(metric, options.jmhParamsInName())
                        .write(result, options.outputDir().resolve("results-" + metric + ".json"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reports to " + options.outputDir(), e);
        }
    }

    /**
     * Warms the load generator's code before the first measured request; in virtual time no request uses it, and a
     * SLURM run's coordinator sends none (its jobs warm their own).
     */
    private void warmClient() {
        if (options.engines().simulate() != io.servebench.engine.EngineOptions.Simulate.VIRTUAL && options.slurm() == null) {
            ClientWarmup.once(out);
        }
    }
}
