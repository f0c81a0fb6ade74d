package io.servebench.runner;

import io.servebench.study.DeclaredServerOptions;
import io.servebench.annotations.Profile;
import io.servebench.engine.EngineKind;
import io.servebench.engine.EngineStartException;
import io.servebench.engine.Redaction;
import io.servebench.engine.Engines;
import io.servebench.engine.RunningEngine;
import io.servebench.sim.SimTokenizer;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadParams;
import io.servebench.load.OpenAiApi;
import io.servebench.load.StopConditions;
import io.servebench.load.LoadResult;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordWriter;
import io.servebench.workload.RequestSpec;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.metrics.PrometheusScraper;
import io.servebench.metrics.PrometheusSnapshot;
import io.servebench.metrics.ServerMetricsDelta;
import io.servebench.metrics.SloSpec;
import io.servebench.reports.HtmlReportWriter;
import io.servebench.reports.JmhJsonWriter;
import io.servebench.reports.ReportLanguage;
import io.servebench.reports.RunJournal;
import io.servebench.reports.SummaryMarkdownWriter;
import io.servebench.results.Metric;
import io.servebench.results.RunResult;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.RepetitionResult;
import io.servebench.results.BlockResult;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.EngineOverrides;
import io.servebench.plan.LoadOptionParams;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.TrialPlanner;
import io.servebench.plan.WorkloadParams;
import io.servebench.study.BenchmarkList;
import io.servebench.study.Benchmark;
import io.servebench.study.Slos;
import io.servebench.engine.ServerOptionsSpec;
import io.servebench.study.StudyChecker;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;
import io.servebench.workload.Dataset;
import io.servebench.workload.Datasets;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Runs a selection of benchmarks: plans the trials, starts each server configuration once, measures
 * its trials, and writes the run folder. A trial that fails is recorded as failed and the run goes
 * on; the journal keeps every finished trial, and the reports are written even when the run fails.
 */
public final class Runner {

    private final RunOptions params;
    private final PrintWriter out;
    private final Map<String, Dataset> datasets = new HashMap<>();
    private final java.util.Set<String> resetWarned = new java.util.HashSet<>();
    private final List<ServerEnvironment> servers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final SloSpec sloOverride;
    private final PrometheusScraper scraper = new PrometheusScraper();
    /** The SLOs each trial's goodput was computed for, by trial id. */
    private final Map<String, SloSpec> trialSlos = new ConcurrentHashMap<>();
    private final UnaryOperator<String> environment;
    // read from the environment when the run starts; never printed or written
    private String apiKey;

    public Runner(RunOptions params, PrintWriter out) {
        this(params, out, SloSpec.NONE);
    }

    /** @param sloOverride SLOs from the command line ({@code --slo}), laid over each variant's {@code @Slo} */
    public Runner(RunOptions params, PrintWriter out, SloSpec sloOverride) {
        this(params, out, sloOverride, System::getenv);
    }

    /** @param environment looks up environment variables (the API key's), {@code System::getenv} but in tests */
    Runner(RunOptions params, PrintWriter out, UnaryOperator<String> environment) {
        this(params, out, SloSpec.NONE, environment);
    }

    private Runner(RunOptions params, PrintWriter out, SloSpec sloOverride, UnaryOperator<String> environment) {
        this.params = params;
        this.out = out;
        this.sloOverride = sloOverride;
        this.environment = environment;
    }

    /** One measured load of a trial: the trial itself, or one step of a sweep. */
    private record Step(String sweepStep, Double rate, List<RepetitionResult> repetitions) {
    }

    /** The benchmarks on the class path that the include patterns select, sorted. */
    public List<String> selectedBenchmarks() {
        List<String> all = BenchmarkList.read(Thread.currentThread().getContextClassLoader());
        if (all.isEmpty()) {
            throw new RunnerException("no benchmarks on the class path: was the study compiled with harness-runner"
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
                throw new RunnerException("\"" + regex + "\" is not a regular expression: "
                        + e.getDescription() + " near index " + e.getIndex());
            }
            List<String> matched = all.stream().filter(b -> pattern.matcher(b).find()).toList();
            if (matched.isEmpty()) {
                throw new RunnerException("no benchmark matches \"" + regex + "\"; -l lists the "
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
        return new TrialPlanner(params.overrides(), params.engineOverrides(), Runner::declaredServerOptions).plan(selections);
    }

    private static ServerOptionsSpec declaredServerOptions(StudyDescriptor study, VariantDescriptor variant) {
        try {
            return DeclaredServerOptions.of(Class.forName(study.className(), false,
                    Thread.currentThread().getContextClassLoader()), variant.name());
        } catch (ClassNotFoundException e) {
            throw new RunnerException("benchmark list names " + study.className() + " but it is not on the class path: rebuild");
        }
    }

    /** Prints one line per trial and a last line {@code N trials, M server starts}. */
    public void printPlan() {
        TrialPlan plan = plan();
        for (Trial trial : plan.trials()) {
            WorkloadParams w = effective(trial.workload());
            out.printf("%-34s %s | %s | %s%n", trial.id(), engineLabel(trial), w.label(),
                    plan.blocksOf(trial).stream().map(Runner::pointLabel).collect(Collectors.joining(", "))
                            + (w.resultBlocks() > 1 ? " (" + w.resultBlocks() + " result blocks each, one per sweep step)" : ""));
        }
        out.printf("%d result blocks from %d distinct trials%n",
                plan.blocks().stream().mapToInt(p -> p.trial().workload().resultBlocks()).sum(), plan.trials().size());
        out.printf("%d trials, %d server starts%n", plan.trials().size(), serverStarts(plan));
    }

    private long serverStarts(TrialPlan plan) {
        return params.freshServer() ? plan.trials().size() : plan.serverStarts();
    }

    private String engineLabel(Trial trial) {
        return Engines.label(trial.server(), params.engines());
    }

    private static String pointLabel(ResultBlock p) {
        String simple = p.className().substring(p.className().lastIndexOf('.') + 1) + "." + p.variant();
        return p.paramValues().isEmpty() ? simple : simple + p.paramValues();
    }

    /**
     * The workload as this run sends it: quick mode shortens it. Profiles without a rate or stream count
     * (synchronous, throughput, sweep) get quick mode's fewest requests per trial (or step).
     */
    private WorkloadParams effective(WorkloadParams declared) {
        double rateEquivalent = Profile.CONCURRENT.equals(declared.profile()) ? declared.concurrency()
                : declared.hasRate() ? declared.rate() : 0;
        return declared.withRequests(params.requestsFor(declared.requests(), rateEquivalent));
    }

    /**
     * Runs the plan and writes the run folder.
     *
     * @return whether every trial ran
     */
    public boolean run() throws IOException {
        TrialPlan plan = plan();
        // A missing dataset file or API key is a mistake on the command line: say so before any engine starts.
        plan.trials().stream().map(t -> t.workload().dataset()).distinct().forEach(this::dataset);
        apiKey = apiKey();
        Path dir = params.outputDir();
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("requests"));
        String startTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        out.printf("ServeBench %s: %d trials, %d server starts%s, results in %s%n", ServeBenchVersion.get(),
                plan.trials().size(), serverStarts(plan), params.simulate() ? " (simulated)" : "", dir);

        Map<String, List<Step>> measured = new ConcurrentHashMap<>();
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
        out.printf("Done: %d of %d trials ran. Reports: %s, %s, %s%n", plan.trials().size() - failures.size(),
                plan.trials().size(), dir.resolve("summary.md"), dir.resolve("report.html"), dir.resolve("results.json"));
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
                           Map<String, List<Step>> measured, Map<String, String> failures) throws IOException {
        Trial first = trials.get(0);
        Path log = params.outputDir().resolve("logs")
                .resolve(first.serverId() + (params.freshServer() ? "-" + first.id() : "") + ".log");
        out.printf("Starting %s: %s%n", first.serverId(), engineLabel(first));
        try (RunningEngine engine = Engines.start(first.server(), params.engines(), log)) {
            ServerEnvironment environment = Engines.capture(first.serverId(), first.server(), params.engines(), engine,
                    ServeBenchVersion.get());
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
                    String progress = String.format("[%d/%d] ", done + t + 1, plan.trials().size());
                    // Requests finished before a crash are kept: the block shows them next to the failure.
                    List<Step> steps = new ArrayList<>();
                    try {
                        SloSpec slo = slo(trial, plan);
                        trialSlos.put(trial.id(), slo);
                        Measurement m = new Measurement(engine, trial.server().kind(), slo, scrapeNoted);
                        if (Profile.SWEEP.equals(trial.workload().profile())) {
                            steps.addAll(sweep(m, trial, progress));
                        } else {
                            List<RepetitionResult> reps = new ArrayList<>();
                            steps.add(new Step(null, null, reps));
                            for (int r = 1; r <= params.repetitions() && engine.failure().isEmpty(); r++) {
                                String name = params.repetitions() > 1 ? trial.id() + "-r" + r : trial.id();
                                WorkloadParams w = effective(trial.workload());
                                reps.add(measure(m, w, profile(w, r), name, progress + name));
                            }
                        }
                    } catch (RuntimeException e) {
                        failures.put(trial.id(), "trial failed: " + e);
                        out.printf("  %s failed: %s%n", trial.id(), e);
                    }
                    measured.put(trial.id(), steps);
                    died = engine.failure().orElse(null);
                    if (died != null) {
                        failures.put(trial.id(), died);
                        out.printf("  %s: %s%n", trial.id(), died.lines().findFirst().orElse(died));
                    }
                }
                for (BlockResult block : results(plan.blocksOf(trial), measured, failures)) {
                    journal.append(block);
                }
            }
        } catch (EngineStartException e) {
            out.printf("  %s did not start: %s%n", first.serverId(), e.getMessage());
            for (Trial trial : trials) {
                failures.put(trial.id(), "engine did not start: " + e.getMessage());
                for (BlockResult block : results(plan.blocksOf(trial), measured, failures)) {
                    journal.append(block);
                }
            }
        }
    }

    /** The engine as reports name it: {@code sim:vllm} when the simulated engine stands in for vLLM. */
    private String engineName(Trial trial) {
        return Engines.reportedName(trial.server(), params.engines());
    }

    /** Between trials on one server: empty the prefix cache where the engine offers it, then let it settle. */
    private void settle(RunningEngine engine, Trial next) {
        String reset = Engines.resetCache(next.server(), params.engines(), engine);
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
        for (ResultBlock p : plan.blocksOf(trial)) {
            try {
                Class<?> study = Class.forName(p.className(), false, Thread.currentThread().getContextClassLoader());
                declared.add(Slos.declared(study, p.variant()).overriddenBy(sloOverride));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("study class " + p.className() + " vanished from the class path", e);
            } catch (IllegalArgumentException e) {
                throw new RunnerException(e.getMessage());
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

    /** What every load of one trial shares: its engine, the SLOs of its goodput, whether a missing scrape was noted. */
    private record Measurement(RunningEngine engine, EngineKind engineKind, SloSpec slo, boolean[] scrapeNoted) {
    }

    /**
     * Runs one load and aggregates it; a stop condition that ended it early becomes a note on the metrics.
     *
     * @param name the requests file's name
     */
    private RepetitionResult measure(Measurement m, WorkloadParams w, ArrivalProfile profile, String name, String progressLabel)
            throws IOException {
        LoadParams load = loadParams(m.engineKind(), w, profile);
        Iterator<RequestSpec> supply = dataset(w.dataset()).supply(params.seed());
        try (TrialProgress progress = TrialProgress.start(out, progressLabel, w.warmup() + w.requests())) {
            var before = scrape(m.engine(), m.scrapeNoted());
            LoadResult result = new LoadGenerator().run(m.engine().endpoint().target(), supply, w.warmup(), w.requests(), load, progress);
            var after = before.isPresent() ? scrape(m.engine(), m.scrapeNoted()) : java.util.Optional.<PrometheusSnapshot>empty();
            RequestRecordWriter.writeTrial(params.outputDir(), name, result.records());
            List<RequestRecord> measuredRecords = result.records().stream().filter(r -> !r.warmup()).toList();
            RepetitionResult metrics = new MetricsAggregator().aggregate(measuredRecords, m.slo());
            if (before.isPresent() && after.isPresent()) {
                // warm-up requests are in the server's counters too: its figures cover the whole repetition
                metrics = metrics.withServerMetrics(ServerMetricsDelta.between(before.get(), after.get()));
            }
            metrics = result.stop().note().map(metrics::withNote).orElse(metrics);
            progress.finish(metrics);
            return metrics;
        }
    }

    /**
     * Runs a sweep as guidellm does: synchronous, then throughput, then {@code sweepRates} constant rates
     * evenly spaced strictly between the two measured request rates (rounded to 3 significant digits, the
     * rate then sent and reported). The rates come from the first repetition, so every repetition runs the
     * same steps and their numbers can be pooled.
     */
    private List<Step> sweep(Measurement m, Trial trial, String progress) throws IOException {
        WorkloadParams w = effective(trial.workload());
        int cap = w.options().maxConcurrency();
        int steps = w.resultBlocks();
        String format = "s%0" + Integer.toString(steps).length() + "d-%s";
        List<List<RepetitionResult>> reps = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            reps.add(new ArrayList<>());
        }
        double[] rates = null;
        List<String> names = new ArrayList<>();
        for (int r = 1; r <= params.repetitions(); r++) {
            String suffix = params.repetitions() > 1 ? "-r" + r : "";
            names.clear();
            for (int i = 0; i < steps; i++) {
                String step = String.format(format, i + 1, i == 0 ? "synchronous" : i == 1 ? "throughput" : "constant");
                names.add(step);
                ArrivalProfile profile;
                WorkloadParams stepLoad = w;
                if (i == 0) {
                    profile = new ArrivalProfile.Synchronous();
                } else if (i == 1) {
                    profile = capped(new ArrivalProfile.Throughput(), cap);
                } else {
                    stepLoad = w.withRequests(params.requestsFor(trial.workload().requests(), rates[i - 2]));
                    profile = capped(new ArrivalProfile.Constant(rates[i - 2]), cap);
                }
                String name = trial.id() + "-" + step + suffix;
                RepetitionResult metrics = measure(m, stepLoad, profile, name, progress + name);
                reps.get(i).add(metrics);
                if (i == 1 && rates == null) {
                    rates = ratesBetween(requestRate(reps.get(0).get(0), "synchronous"), requestRate(metrics, "throughput"),
                            w.options().sweepRates());
                }
            }
        }
        List<Step> result = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            result.add(new Step(names.get(i), i < 2 ? null : rates[i - 2], reps.get(i)));
        }
        return result;
    }

    /** {@code k} rates evenly spaced strictly between {@code low} and {@code high}, to 3 significant digits. */
    static double[] ratesBetween(double low, double high, int k) {
        double[] rates = new double[k];
        for (int i = 1; i <= k; i++) {
            double rate = low + (high - low) * i / (k + 1);
            rates[i - 1] = new BigDecimal(rate).round(new MathContext(3)).doubleValue();
        }
        return rates;
    }

    private static double requestRate(RepetitionResult metrics, String step) {
        OptionalDouble rate = metrics.value(Metric.REQUEST_THROUGHPUT);
        if (rate.isEmpty() || !(rate.getAsDouble() > 0)) {
            throw new IllegalStateException("the sweep's " + step + " step measured no request throughput ("
                    + (long) metrics.value(Metric.SUCCESSFUL_REQUESTS).orElse(0) + " successful requests), so it cannot"
                    + " place its constant rates");
        }
        return rate.getAsDouble();
    }

    /** The arrival profile of a (non-sweep) workload point; rate profiles draw from a seed per repetition. */
    private ArrivalProfile profile(WorkloadParams w, int repetition) {
        LoadOptionParams o = w.options();
        long seed = params.seed() + repetition;
        switch (w.profile()) {
            case Profile.CONCURRENT:
                return new ArrivalProfile.Concurrent(w.concurrency());
            case Profile.SYNCHRONOUS:
                return new ArrivalProfile.Synchronous();
            case Profile.THROUGHPUT:
                return capped(new ArrivalProfile.Throughput(), o.maxConcurrency());
            default:
                ArrivalProfile.Rate rate = switch (w.profile()) {
                    case Profile.POISSON -> new ArrivalProfile.Poisson(w.rate(), seed);
                    case Profile.GAMMA -> new ArrivalProfile.Gamma(w.rate(), o.burstiness(), seed);
                    default -> new ArrivalProfile.Constant(w.rate());
                };
                ArrivalProfile.Scheduled schedule = o.rampUpSeconds() > 0 ? new ArrivalProfile.RampUp(rate, o.rampUpSeconds()) : rate;
                return capped(schedule, o.maxConcurrency());
        }
    }

    private static ArrivalProfile.Scheduled capped(ArrivalProfile.Scheduled schedule, int maxConcurrency) {
        return maxConcurrency > 0 ? new ArrivalProfile.Capped(schedule, maxConcurrency) : schedule;
    }

    /** The client settings of one load: the run's (API key, timeouts) and the workload's. */
    private LoadParams loadParams(EngineKind engineKind, WorkloadParams w, ArrivalProfile profile) {
        LoadOptionParams o = w.options();
        boolean continuousUsage = o.continuousUsage() != null ? o.continuousUsage() : engineKind.continuousUsage();
        return LoadParams.of(profile)
                .withApi("completions".equals(o.api()) ? OpenAiApi.COMPLETIONS : OpenAiApi.CHAT)
                .withTimeouts(params.client().connectTimeout(), params.client().requestTimeout())
                .withApiKey(apiKey)
                .withContinuousUsageStats(continuousUsage)
                .withStop(new StopConditions(o.durationSeconds() > 0 ? Duration.ofNanos(Math.round(o.durationSeconds() * 1e9)) : null,
                        o.maxErrors()))
                .withWarmupTime(Duration.ofNanos(Math.round(o.warmupSeconds() * 1e9)))
                .withExtraBody(o.extraBody());
    }

    /** The API key named by {@code --api-key-env}, {@code null} when none is. */
    private String apiKey() {
        String variable = params.client().apiKeyEnv();
        if (variable == null) {
            return null;
        }
        String key = environment.apply(variable);
        if (key == null || key.isBlank()) {
            throw new RunnerException("--api-key-env " + variable + ": the environment variable " + variable
                    + " is not set or empty; expected it to hold the API key");
        }
        return key.strip();
    }

    private Dataset dataset(String spec) {
        try {
            return datasets.computeIfAbsent(spec, s -> Datasets.resolve(s, new SimTokenizer()::count));
        } catch (IllegalArgumentException e) {
            throw new RunnerException(e.getMessage());
        }
    }

    private List<BlockResult> results(List<ResultBlock> points, Map<String, List<Step>> measured,
                                      Map<String, String> failures) {
        List<BlockResult> results = new ArrayList<>();
        for (ResultBlock p : points) {
            Trial trial = p.trial();
            WorkloadParams w = effective(trial.workload());
            String failure = failures.get(trial.id());
            List<Step> steps = measured.getOrDefault(trial.id(), List.of());
            if (failure == null && steps.isEmpty()) {
                failure = "not run: the run stopped before this trial";
            }
            if (steps.isEmpty()) {
                steps = List.of(new Step(null, null, List.of()));
            }
            for (Step step : steps) {
                Map<String, String> blockParams = new LinkedHashMap<>();
                blockParams.put("engine", engineName(trial));
                blockParams.put("model", trial.server().model());
                blockParams.put("dataset", w.dataset());
                blockParams.put("profile", w.profile());
                if (Profile.CONCURRENT.equals(w.profile())) {
                    blockParams.put("concurrency", Integer.toString(w.concurrency()));
                } else if (w.hasRate()) {
                    blockParams.put("rate", WorkloadParams.formatRate(w.rate()));
                } else if (step.rate() != null) {
                    blockParams.put("rate", WorkloadParams.formatRate(step.rate()));
                }
                blockParams.put("requests", Integer.toString(w.requests()));
                blockParams.put("warmup", Integer.toString(w.warmup()));
                blockParams.putAll(w.options().nonDefault());
                if (step.sweepStep() != null) {
                    blockParams.put(BlockResult.SWEEP_STEP, step.sweepStep());
                }
                blockParams.put(BlockResult.FLAGS, String.join(" ", trial.server().args()));
                SloSpec slo = trialSlos.get(trial.id());
                if (slo != null && slo.stated()) {
                    blockParams.put("slo", slo.toString());
                }
                // workload values are in already, as this run sends them; a rate a profile ignores stays out
                p.paramValues().forEach((k, v) -> {
                    if (!TrialPlanner.WORKLOAD_KEYS.contains(k)) {
                        blockParams.putIfAbsent(k, v);
                    }
                });
                results.add(new BlockResult(p.benchmark(), p.className(), p.variant(), p.group(), p.baseline(), blockParams,
                        trial.id(), trial.serverId(), step.repetitions(), failure, p.recommended(),
                        Engines.serveCommand(trial.server(), params.engines()).orElse(null)));
            }
        }
        return results;
    }

    private void writeReports(TrialPlan plan, String startTime, Map<String, List<Step>> measured,
                              Map<String, String> failures) {
        RunResult result = new RunResult(startTime, ServeBenchVersion.get(), commandLine(), params.simulate(), params.quick(),
                results(plan.blocks(), measured, failures), servers);
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
        // the variable's name only: its value is a secret
        if (params.client().apiKeyEnv() != null) {
            sb.append(" --api-key-env ").append(params.client().apiKeyEnv());
        }
        if (!params.client().connectTimeout().equals(ClientOptions.DEFAULTS.connectTimeout())) {
            sb.append(" --connect-timeout ").append(params.client().connectTimeout().toMillis() / 1000.0);
        }
        if (!params.client().requestTimeout().equals(ClientOptions.DEFAULTS.requestTimeout())) {
            sb.append(" --request-timeout ").append(params.client().requestTimeout().toMillis() / 1000.0);
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
