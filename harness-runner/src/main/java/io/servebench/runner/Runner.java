package io.servebench.runner;

import io.servebench.annotations.Profile;
import io.servebench.engine.CacheReset;
import io.servebench.engine.EngineCommands;
import io.servebench.engine.EnvironmentCapture;
import io.servebench.engine.EngineStartException;
import io.servebench.engine.Redaction;
import io.servebench.engine.Engines;
import io.servebench.engine.RunningEngine;
import io.servebench.engine.sim.SimTokenizer;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordWriter;
import io.servebench.load.RequestSpec;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.metrics.PrometheusScraper;
import io.servebench.metrics.PrometheusSnapshot;
import io.servebench.metrics.ServerMetricsDelta;
import io.servebench.metrics.SloSpec;
import io.servebench.reports.JmhJsonWriter;
import io.servebench.reports.RunJournal;
import io.servebench.reports.SummaryMarkdownWriter;
import io.servebench.results.RunResult;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.TrialMetrics;
import io.servebench.results.TrialResult;
import io.servebench.runner.plan.BenchmarkPoint;
import io.servebench.runner.plan.EngineOverrides;
import io.servebench.runner.plan.Trial;
import io.servebench.runner.plan.TrialPlan;
import io.servebench.runner.plan.TrialPlanner;
import io.servebench.runner.plan.WorkloadPoint;
import io.servebench.runner.study.BenchmarkList;
import io.servebench.runner.study.Benchmark;
import io.servebench.runner.study.Slos;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
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
    private final java.util.Set<String> resetWarned = new java.util.HashSet<>();
    private final List<ServerEnvironment> servers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final SloSpec sloOverride;
    private final PrometheusScraper scraper = new PrometheusScraper();
    /** The SLOs each trial's goodput was computed for, by trial id. */
    private final Map<String, SloSpec> trialSlos = new HashMap<>();

    public Runner(RunParams params, PrintWriter out) {
        this(params, out, SloSpec.NONE);
    }

    /** @param sloOverride SLOs from the command line ({@code --slo}), laid over each variant's {@code @Slo} */
    public Runner(RunParams params, PrintWriter out, SloSpec sloOverride) {
        this.params = params;
        this.out = out;
        this.sloOverride = sloOverride;
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
        return new TrialPlanner(params.overrides(), params.engineOverrides()).plan(selections);
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
        out.printf("%d trials, %d server starts%n", plan.trials().size(), serverStarts(plan));
    }

    private long serverStarts(TrialPlan plan) {
        return params.freshServer() ? plan.trials().size() : plan.serverStarts();
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
        // A missing dataset file is a mistake on the command line: say so before any engine starts.
        plan.trials().stream().map(t -> t.workload().dataset()).distinct().forEach(this::dataset);
        Path dir = params.outputDir();
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("requests"));
        String startTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        out.printf("ServeBench %s: %d trials, %d server starts%s, results in %s%n", ServeBenchVersion.get(),
                plan.trials().size(), serverStarts(plan), params.simulate() ? " (simulated)" : "", dir);

        Map<String, List<TrialMetrics>> measured = new ConcurrentHashMap<>();
        Map<String, String> failures = new ConcurrentHashMap<>();
        // Ctrl-C or SIGTERM mid-run still leaves reports of every finished trial (the journal has them anyway).
        AtomicBoolean reported = new AtomicBoolean();
        Runnable report = () -> {
            if (reported.compareAndSet(false, true)) {
                writeReports(plan, startTime, measured, failures);
            }
        };
        Thread reportOnExit = new Thread(report, "servebench-report-on-exit");
        Runtime.getRuntime().addShutdownHook(reportOnExit);
        try (RunJournal journal = RunJournal.open(dir)) {
            int done = 0;
            List<Trial> trials = plan.trials();
            for (int i = 0; i < trials.size(); ) {
                String serverId = trials.get(i).serverId();
                int end = i;
                do {
                    end++;
                } while (!params.freshServer() && end < trials.size() && trials.get(end).serverId().equals(serverId));
                List<Trial> serverTrials = trials.subList(i, end);
                runServer(serverTrials, plan, done, journal, measured, failures);
                done += serverTrials.size();
                i = end;
            }
        } finally {
            report.run();
            removeHook(reportOnExit);
        }
        out.printf("Done: %d of %d trials ran. Reports: %s, %s%n", plan.trials().size() - failures.size(),
                plan.trials().size(), dir.resolve("summary.md"), dir.resolve("results.json"));
        return failures.isEmpty();
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing to remove
        }
    }

    private void runServer(List<Trial> trials, TrialPlan plan, int done, RunJournal journal,
                           Map<String, List<TrialMetrics>> measured, Map<String, String> failures) throws IOException {
        Trial first = trials.get(0);
        Path log = params.outputDir().resolve("logs")
                .resolve(first.serverId() + (params.freshServer() ? "-" + first.id() : "") + ".log");
        out.printf("Starting %s: %s%n", first.serverId(), engineLabel(first));
        try (RunningEngine engine = Engines.start(first.server(), params.engines(), log)) {
            ServerEnvironment environment = EnvironmentCapture.capture(first.serverId(), engineName(first), first.server().model(),
                    engine.commandLine(), params.simulate() ? List.of() : EngineCommands.versionCommand(first.server()),
                    params.simulate() ? null : engine.endpoint(), ServeBenchVersion.get());
            if (params.simulate() || "sim".equals(first.server().engine())) {
                environment = withVersion(environment, "ServeBench simulated engine " + ServeBenchVersion.get());
            } else if (!first.server().setup().image().isEmpty()) {
                environment = withVersion(environment, "image " + first.server().setup().image());
            }
            servers.add(environment);
            journal.append(environment);
            boolean[] scrapeNoted = {false};
            String died = null;
            for (int t = 0; t < trials.size(); t++) {
                Trial trial = trials.get(t);
                if (died != null) {
                    failures.put(trial.id(), "not run: its engine had died during an earlier trial (" + first.serverId() + ")");
                } else {
                    if (t > 0) {
                        settle(engine, trial);
                    }
                    List<TrialMetrics> reps = new ArrayList<>();
                    try {
                        SloSpec slo = slo(trial, plan);
                        trialSlos.put(trial.id(), slo);
                        for (int r = 1; r <= params.repetitions() && engine.failure().isEmpty(); r++) {
                            reps.add(measure(engine, trial, r, done + t + 1, plan.trials().size(), slo, scrapeNoted));
                        }
                    } catch (RuntimeException e) {
                        failures.put(trial.id(), "trial failed: " + e);
                        out.printf("  %s failed: %s%n", trial.id(), e);
                    }
                    // Requests finished before a crash are kept: the block shows them next to the failure.
                    measured.put(trial.id(), reps);
                    died = engine.failure().orElse(null);
                    if (died != null) {
                        failures.put(trial.id(), died);
                        out.printf("  %s: %s%n", trial.id(), died.lines().findFirst().orElse(died));
                    }
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

    private static ServerEnvironment withVersion(ServerEnvironment e, String version) {
        return new ServerEnvironment(e.serverId(), e.engine(), version, e.model(), e.command(), e.gpus(), e.cpu(), e.host(),
                e.os(), e.jdk(), e.servebenchVersion(), e.startedAt());
    }

    /** The engine as reports name it: {@code sim:vllm} when the simulated engine stands in for vLLM. */
    private String engineName(Trial trial) {
        return params.simulate() && !"sim".equals(trial.server().engine()) ? "sim:" + trial.server().engine()
                : trial.server().engine();
    }

    /** Between trials on one server: empty the prefix cache where the engine offers it, then let it settle. */
    private void settle(RunningEngine engine, Trial next) {
        String reset = CacheReset.reset(params.simulate() ? "sim" : next.server().engine(), engine.endpoint());
        if (!"reset".equals(reset) && resetWarned.add(next.serverId())) {
            out.printf("  %s: %s; later trials on this server may find prompts cached%n", next.serverId(), reset);
        }
        try {
            Thread.sleep(params.settle().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The SLOs of a trial's goodput: its first result block's {@code @Slo} under the command line's. A
     * trial measured once for blocks of different studies uses the first block's, and says so.
     */
    private SloSpec slo(Trial trial, TrialPlan plan) {
        List<SloSpec> declared = new ArrayList<>();
        for (BenchmarkPoint p : plan.pointsOf(trial)) {
            try {
                Class<?> study = Class.forName(p.className(), false, Thread.currentThread().getContextClassLoader());
                declared.add(Slos.declared(study, p.variant()).overriddenBy(sloOverride));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("study class " + p.className() + " vanished from the class path", e);
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException(e.getMessage());
            }
        }
        if (declared.stream().distinct().count() > 1) {
            out.printf("  note: %s serves blocks with different SLOs %s; goodput uses the first, %s%n", trial.id(),
                    declared.stream().distinct().toList(), declared.get(0));
        }
        return declared.isEmpty() ? sloOverride : declared.get(0);
    }

    /** A scrape of the engine's metrics; empty (with one note per server) when it offers none. */
    private java.util.Optional<PrometheusSnapshot> scrape(RunningEngine engine, boolean[] noted) {
        PrometheusScraper.Result result = scraper.scrape(engine.endpoint().metricsUri());
        if (result.snapshot().isEmpty() && !noted[0]) {
            noted[0] = true;
            out.printf("  note: no server-side metrics: %s%n", result.problem());
        }
        return result.snapshot();
    }

    private TrialMetrics measure(RunningEngine engine, Trial trial, int repetition, int index, int total, SloSpec slo,
                                 boolean[] scrapeNoted) throws IOException {
        WorkloadPoint w = effective(trial.workload());
        List<RequestSpec> specs = dataset(w.dataset()).requests(w.warmup(), w.requests(), params.seed());
        ArrivalProfile profile = switch (w.profile()) {
            case Profile.CONCURRENT -> new ArrivalProfile.Concurrent(w.concurrency());
            case Profile.POISSON -> new ArrivalProfile.Poisson(w.rate(), params.seed() + repetition);
            default -> new ArrivalProfile.Constant(w.rate());
        };
        String name = params.repetitions() > 1 ? trial.id() + "-r" + repetition : trial.id();
        try (TrialProgress progress = TrialProgress.start(out, String.format("[%d/%d] %s", index, total, name), specs.size())) {
            var before = scrape(engine, scrapeNoted);
            LoadResult result = new LoadGenerator().run(engine.endpoint(), specs, LoadParams.of(profile), progress);
            var after = before.isPresent() ? scrape(engine, scrapeNoted) : java.util.Optional.<PrometheusSnapshot>empty();
            RequestRecordWriter.writeTrial(params.outputDir(), name, result.records());
            List<RequestRecord> measuredRecords = result.records().stream().filter(r -> !r.warmup()).toList();
            TrialMetrics metrics = new MetricsAggregator().aggregate(measuredRecords, slo);
            if (before.isPresent() && after.isPresent()) {
                // warm-up requests are in the server's counters too: its figures cover the whole repetition
                metrics = metrics.withServerMetrics(ServerMetricsDelta.between(before.get(), after.get()));
            }
            progress.finish(metrics);
            return metrics;
        }
    }

    private Dataset dataset(String spec) {
        try {
            return datasets.computeIfAbsent(spec, s -> Datasets.resolve(s, new SimTokenizer()::count));
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
            blockParams.put("engine", engineName(trial));
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
            SloSpec slo = trialSlos.get(trial.id());
            if (slo != null && slo.stated()) {
                blockParams.put("slo", slo.toString());
            }
            p.paramValues().forEach(blockParams::putIfAbsent);
            String failure = failures.get(trial.id());
            List<TrialMetrics> reps = measured.getOrDefault(trial.id(), List.of());
            if (failure == null && reps.isEmpty()) {
                failure = "not run: the run stopped before this trial";
            }
            results.add(new TrialResult(p.benchmark(), p.className(), p.variant(), p.group(), p.baseline(), blockParams,
                    trial.id(), trial.serverId(), reps, failure));
        }
        return results;
    }

    private void writeReports(TrialPlan plan, String startTime, Map<String, List<TrialMetrics>> measured,
                              Map<String, String> failures) {
        RunResult result = new RunResult(startTime, ServeBenchVersion.get(), commandLine(), params.simulate(), params.quick(),
                results(plan.points(), measured, failures), servers);
        try {
            new JmhJsonWriter().write(result, params.outputDir().resolve("results.json"));
            new SummaryMarkdownWriter().write(result, params.outputDir().resolve("summary.md"));
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
        if (sloOverride.stated()) {
            sb.append(" --slo ").append(sloOverride);
        }
        switch (params.engines().simulate()) {
            case IN_PROCESS -> sb.append(" --simulate");
            case PROCESS -> sb.append(" --simulate=process");
            default -> { }
        }
        if (params.freshServer()) {
            sb.append(" --fresh-server");
        }
        EngineOverrides engine = params.engineOverrides();
        if (!engine.executable().isEmpty()) {
            sb.append(" --engine-exe ").append(engine.executable());
        }
        Redaction.args(engine.env()).forEach(e -> sb.append(" --engine-env ").append(e));
        if (!engine.workdir().isEmpty()) {
            sb.append(" --engine-workdir ").append(engine.workdir());
        }
        if (!engine.url().isEmpty()) {
            sb.append(" --engine-url ").append(engine.url());
        }
        if (params.quick()) {
            sb.append(" --quick");
        }
        return sb.toString();
    }
}
