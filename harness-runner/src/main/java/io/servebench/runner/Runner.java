package io.servebench.runner;

import io.servebench.engine.ServerOptionsSpec;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.TrialPlanner;
import io.servebench.reports.ResultFormatType;
import io.servebench.reports.ResultFormats;
import io.servebench.results.RunResult;
import io.servebench.results.jmh.JmhJsonWriter;
import io.servebench.results.journal.RunJournal;
import io.servebench.study.Benchmark;
import io.servebench.study.BenchmarkList;
import io.servebench.study.StudyChecker;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantAnnotations;
import io.servebench.study.VariantDescriptor;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

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
        return new TrialPlanner(options.overrides(), options.engineOverrides(), Runner::declaredServerOptions).plan(selections);
    }

    private static ServerOptionsSpec declaredServerOptions(StudyDescriptor study, VariantDescriptor variant) {
        try {
            return VariantAnnotations.serverOptions(Class.forName(study.className(), false,
                    Thread.currentThread().getContextClassLoader()), variant.name());
        } catch (ClassNotFoundException e) {
            throw new RunnerException("benchmark list names " + study.className() + " but it is not on the class path: rebuild");
        }
    }

    /** Prints one line per trial and a last line {@code N trials, M server starts}. */
    public void printPlan() {
        PlanPrinter.print(plan(), options, out);
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
        TrialPlan plan = plan();
        RunContext context = new RunContext(options, out,
                plan.trials().stream().map(t -> t.workload().dataset()).distinct().toList(), environment);
        Path dir = options.outputDir();
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("requests"));
        String startTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        out.printf("ServeBench %s: %d trials, %d server starts%s, results in %s%n", ServeBenchVersion.get(),
                plan.trials().size(), PlanPrinter.serverStarts(plan, options), options.simulate() ? " (simulated)" : "", dir);

        if (!plan.trials().isEmpty()) {
            ClientWarmup.once(out);
        }
        TrialOutcomes outcomes = new TrialOutcomes();
        // Ctrl-C or SIGTERM mid-run still leaves reports of every finished trial (the journal has them anyway).
        AtomicReference<RunResult> reported = new AtomicReference<>();
        Runnable report = () -> {
            RunResult result = result(plan, startTime, outcomes);
            if (reported.compareAndSet(null, result)) {
                writeReports(result);
            }
        };
        Thread reportOnExit = new Thread(report, "servebench-report-on-exit");
        Runtime.getRuntime().addShutdownHook(reportOnExit);
        try (RunJournal journal = RunJournal.open(dir)) {
            ServerSession session = new ServerSession(context, plan, outcomes, journal, listener);
            int done = 0;
            for (List<Trial> serverTrials : byServerStart(plan.trials())) {
                session.run(serverTrials, done);
                done += serverTrials.size();
            }
        } finally {
            report.run();
            removeHook(reportOnExit);
        }
        out.printf("Done: %d of %d trials ran. Reports: %s, %s, %s%n", plan.trials().size() - outcomes.failedTrials(),
                plan.trials().size(), dir.resolve(ResultFormatType.MARKDOWN.fileName()),
                dir.resolve(ResultFormatType.HTML.fileName()), dir.resolve(ResultFormatType.JSON.fileName()));
        return new RunOutcome(reported.get(), dir);
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

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing to remove
        }
    }

    private RunResult result(TrialPlan plan, String startTime, TrialOutcomes outcomes) {
        return new RunResult(startTime, ServeBenchVersion.get(), RunCommandLine.of(options), options.simulate(),
                options.quick(), BlockResults.of(plan.blocks(), outcomes, options), outcomes.servers());
    }

    private void writeReports(RunResult result) {
        try {
            for (ResultFormatType type : ResultFormatType.values()) {
                ResultFormats.of(type, options.language()).write(result, options.outputDir().resolve(type.fileName()));
            }
            for (String metric : options.jmhPrimary()) {
                new JmhJsonWriter(metric).write(result, options.outputDir().resolve("results-" + metric + ".json"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reports to " + options.outputDir(), e);
        }
    }
}
