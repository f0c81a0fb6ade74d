package io.servebench.runner;

import io.servebench.annotations.Profile;
import io.servebench.engine.EngineStartException;
import io.servebench.engine.Engines;
import io.servebench.engine.RunningEngine;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordWriter;
import io.servebench.load.RequestSpec;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.reports.HtmlReportWriter;
import io.servebench.reports.JmhJsonWriter;
import io.servebench.reports.ReportLanguage;
import io.servebench.reports.RunJournal;
import io.servebench.reports.SummaryMarkdownWriter;
import io.servebench.results.RunResult;
import io.servebench.results.TrialMetrics;
import io.servebench.results.TrialResult;
import io.servebench.runner.plan.BenchmarkPoint;
import io.servebench.runner.plan.Trial;
import io.servebench.runner.plan.TrialPlan;
import io.servebench.runner.plan.TrialPlanner;
import io.servebench.runner.plan.WorkloadPoint;
import io.servebench.runner.study.BenchmarkList;
import io.servebench.runner.study.Benchmark;
import io.servebench.runner.study.StudyChecker;
import io.servebench.runner.study.StudyDescriptor;
import io.servebench.runner.study.VariantDescriptor;
import io.servebench.workload.Dataset;
import io.servebench.workload.Datasets;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Runs a selection of benchmarks: plans the trials, starts each server configuration once, measures
 * its trials, and writes the run folder. A trial that fails is recorded as failed and the run goes
 * on; the journal keeps every finished trial, and the reports are written even when the run fails.
 */
public final class Runner {

    private final RunParams params;
    private final PrintWriter out;
    private final Map<String, Dataset> datasets = new HashMap<>();

    public Runner(RunParams params, PrintWriter out) {
        this.params = params;
        this.out = out;
    }

    /** The benchmarks on the class path that the include patterns select, sorted. */
    public List<String> selectedBenchmarks() {
        List<String> all = BenchmarkList.read(Thread.currentThread().getContextClassLoader());
        if (all.isEmpty()) {
            throw new Main.UsageException("no benchmarks on the class path: was the study compiled with harness-runner"
                    + " on the annotation processor path (META-INF/servebench/BenchmarkList is missing)?");
        }
        if (params.includes().isEmpty()) {
            return all;
        }
        List<String> selected = new ArrayList<>();
        for (String regex : params.includes()) {
            Pattern pattern;
            try {
                pattern = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new Main.UsageException("\"" + regex + "\" is not a regular expression: "
                        + e.getDescription() + " near index " + e.getIndex());
            }
            List<String> matched = all.stream().filter(b -> pattern.matcher(b).find()).toList();
            if (matched.isEmpty()) {
                throw new Main.UsageException("no benchmark matches \"" + regex + "\"; -l lists the "
                        + all.size() + " benchmarks");
            }
            matched.stream().filter(b -> !selected.contains(b)).forEach(selected::add);
        }
        return selected.stream().sorted().toList();
    }

    /** The trial plan of the selected benchmarks, with this run's overrides applied. */
    public TrialPlan plan() {
        List<Benchmark> benchmarks;
        try {
            benchmarks = BenchmarkList.resolve(selectedBenchmarks(), Thread.currentThread().getContextClassLoader());
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage());
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
        return new TrialPlanner(params.overrides()).plan(selections);
    }

    /** Prints one line per trial and a last line {@code N trials, M server starts}. */
    public void printPlan() {
        TrialPlan plan = plan();
        for (Trial trial : plan.trials()) {
            WorkloadPoint w = effective(trial.workload());
            out.printf("%-34s %s | %s | %s%n", trial.id(), engineLabel(trial), w.label(),
                    plan.pointsOf(trial).stream().map(Runner::pointLabel).collect(Collectors.joining(", ")));
        }
        out.printf("%d result blocks from %d distinct trials%n", plan.points().size(), plan.trials().size());
        out.printf("%d trials, %d server starts%n", plan.trials().size(), plan.serverStarts());
    }

    private String engineLabel(Trial trial) {
        String label = trial.server().label();
        return params.simulate() && !"sim".equals(trial.server().engine()) ? "sim(" + label + ")" : label;
    }

    private static String pointLabel(BenchmarkPoint p) {
        String simple = p.className().substring(p.className().lastIndexOf('.') + 1) + "." + p.variant();
        return p.paramValues().isEmpty() ? simple : simple + p.paramValues();
    }

    /** The workload as this run sends it: quick mode shortens it. */
    private WorkloadPoint effective(WorkloadPoint declared) {
        double rateEquivalent = Profile.CONCURRENT.equals(declared.profile()) ? declared.concurrency() : declared.rate();
        int requests = params.requestsFor(declared.requests(), rateEquivalent);
        return new WorkloadPoint(declared.dataset(), declared.profile(), declared.rate(), declared.concurrency(), requests,
                declared.warmup());
    }

    /**
     * Runs the plan and writes the run folder.
     *
     * @return whether every trial ran
     */
    public boolean run() throws IOException {
        TrialPlan plan = plan();
        if (!params.simulate()) {
            plan.trials().stream().map(t -> t.server().engine()).filter(e -> !Engines.STARTABLE.contains(e)).findFirst()
                    .ifPresent(e -> {
                        throw new Main.UsageException("engine \"" + e + "\": this ServeBench version starts only "
                                + Engines.STARTABLE + " itself; add --simulate to run the study on the simulated engine");
                    });
        }
        // A missing dataset file is a mistake on the command line: say so before any engine starts.
        plan.trials().stream().map(t -> t.workload().dataset()).distinct().forEach(this::dataset);
        Path dir = params.outputDir();
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("requests"));
        String startTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        out.printf("ServeBench %s: %d trials on %d server configurations%s, results in %s%n", ServeBenchVersion.get(),
                plan.trials().size(), plan.serverStarts(), params.simulate() ? " (simulated)" : "", dir);

        Map<String, List<TrialMetrics>> measured = new HashMap<>();
        Map<String, String> failures = new HashMap<>();
        try (RunJournal journal = RunJournal.open(dir)) {
            int done = 0;
            List<Trial> trials = plan.trials();
            for (int i = 0; i < trials.size(); ) {
                String serverId = trials.get(i).serverId();
                int end = i;
                while (end < trials.size() && trials.get(end).serverId().equals(serverId)) {
                    end++;
                }
                List<Trial> serverTrials = trials.subList(i, end);
                runServer(serverTrials, plan, done, journal, measured, failures);
                done += serverTrials.size();
                i = end;
            }
        } finally {
            writeReports(plan, startTime, measured, failures);
        }
        out.printf("Done: %d of %d trials ran. Reports: %s, %s, %s%n", plan.trials().size() - failures.size(),
                plan.trials().size(), dir.resolve("summary.md"), dir.resolve("report.html"), dir.resolve("results.json"));
        return failures.isEmpty();
    }

    private void runServer(List<Trial> trials, TrialPlan plan, int done, RunJournal journal,
                           Map<String, List<TrialMetrics>> measured, Map<String, String> failures) throws IOException {
        Trial first = trials.get(0);
        Path log = params.outputDir().resolve("logs").resolve(first.serverId() + ".log");
        out.printf("Starting %s: %s%n", first.serverId(), engineLabel(first));
        try (RunningEngine engine = Engines.start(first.server(), params.simulate(), log, params.seed())) {
            for (int t = 0; t < trials.size(); t++) {
                Trial trial = trials.get(t);
                try {
                    List<TrialMetrics> reps = new ArrayList<>();
                    for (int r = 1; r <= params.repetitions(); r++) {
                        reps.add(measure(engine, trial, r, done + t + 1, plan.trials().size()));
                    }
                    measured.put(trial.id(), reps);
                } catch (RuntimeException e) {
                    failures.put(trial.id(), "trial failed: " + e);
                    out.printf("  %s failed: %s%n", trial.id(), e);
                }
                for (TrialResult block : results(plan.pointsOf(trial), measured, failures)) {
                    journal.append(block);
                }
            }
        } catch (EngineStartException e) {
            out.printf("  %s did not start: %s%n", first.serverId(), e.getMessage());
            for (Trial trial : trials) {
                failures.put(trial.id(), "engine did not start: " + e.getMessage());
                for (TrialResult block : results(plan.pointsOf(trial), measured, failures)) {
                    journal.append(block);
                }
            }
        }
    }

    private TrialMetrics measure(RunningEngine engine, Trial trial, int repetition, int index, int total) throws IOException {
        WorkloadPoint w = effective(trial.workload());
        List<RequestSpec> specs = dataset(w.dataset()).requests(w.warmup(), w.requests(), params.seed());
        ArrivalProfile profile = switch (w.profile()) {
            case Profile.CONCURRENT -> new ArrivalProfile.Concurrent(w.concurrency());
            case Profile.POISSON -> new ArrivalProfile.Poisson(w.rate(), params.seed() + repetition);
            default -> new ArrivalProfile.Constant(w.rate());
        };
        String name = params.repetitions() > 1 ? trial.id() + "-r" + repetition : trial.id();
        try (TrialProgress progress = TrialProgress.start(out, String.format("[%d/%d] %s", index, total, name), specs.size())) {
            LoadResult result = new LoadGenerator().run(engine.endpoint(), specs, LoadParams.of(profile), progress);
            RequestRecordWriter.writeTrial(params.outputDir(), name, result.records());
            List<RequestRecord> measuredRecords = result.records().stream().filter(r -> !r.warmup()).toList();
            TrialMetrics metrics = new MetricsAggregator().aggregate(measuredRecords);
            progress.finish(metrics);
            return metrics;
        }
    }

    private Dataset dataset(String spec) {
        try {
            return datasets.computeIfAbsent(spec, s -> Datasets.resolve(s, Engines.tokenCounter()));
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage());
        }
    }

    private List<TrialResult> results(List<BenchmarkPoint> points, Map<String, List<TrialMetrics>> measured,
                                      Map<String, String> failures) {
        List<TrialResult> results = new ArrayList<>();
        for (BenchmarkPoint p : points) {
            Trial trial = p.trial();
            WorkloadPoint w = effective(trial.workload());
            Map<String, String> blockParams = new LinkedHashMap<>();
            blockParams.put("engine", params.simulate() && !"sim".equals(trial.server().engine())
                    ? "sim:" + trial.server().engine() : trial.server().engine());
            blockParams.put("model", trial.server().model());
            blockParams.put("dataset", w.dataset());
            blockParams.put("profile", w.profile());
            if (Profile.CONCURRENT.equals(w.profile())) {
                blockParams.put("concurrency", Integer.toString(w.concurrency()));
            } else {
                blockParams.put("rate", WorkloadPoint.formatRate(w.rate()));
            }
            blockParams.put("requests", Integer.toString(w.requests()));
            blockParams.put("warmup", Integer.toString(w.warmup()));
            blockParams.put(TrialResult.FLAGS, String.join(" ", trial.server().args()));
            p.paramValues().forEach(blockParams::putIfAbsent);
            String failure = failures.get(trial.id());
            List<TrialMetrics> reps = measured.getOrDefault(trial.id(), List.of());
            if (failure == null && reps.isEmpty()) {
                failure = "not run: the run stopped before this trial";
            }
            results.add(new TrialResult(p.benchmark(), p.className(), p.variant(), p.group(), p.baseline(), blockParams,
                    trial.id(), trial.serverId(), reps, failure, p.recommended()));
        }
        return results;
    }

    private void writeReports(TrialPlan plan, String startTime, Map<String, List<TrialMetrics>> measured,
                              Map<String, String> failures) {
        RunResult result = new RunResult(startTime, ServeBenchVersion.get(), commandLine(), params.simulate(), params.quick(),
                results(plan.points(), measured, failures));
        try {
            new JmhJsonWriter().write(result, params.outputDir().resolve("results.json"));
            new SummaryMarkdownWriter(params.language()).write(result, params.outputDir().resolve("summary.md"));
            new HtmlReportWriter(params.language()).write(result, params.outputDir().resolve("report.html"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reports to " + params.outputDir(), e);
        }
    }

    private String commandLine() {
        StringBuilder sb = new StringBuilder("java -jar benchmarks.jar");
        params.includes().forEach(i -> sb.append(' ').append(i));
        params.overrides().forEach((k, v) -> sb.append(" -p ").append(k).append('=').append(String.join(",", v)));
        if (params.repetitions() > 1) {
            sb.append(" -r ").append(params.repetitions());
        }
        if (params.simulate()) {
            sb.append(" --simulate");
        }
        if (params.quick()) {
            sb.append(" --quick");
        }
        if (params.language() != ReportLanguage.EN) {
            sb.append(" --lang ").append(params.language().tag());
        }
        return sb.toString();
    }
}
