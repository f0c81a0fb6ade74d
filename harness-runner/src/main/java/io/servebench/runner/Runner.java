package io.servebench.runner;

import io.servebench.annotations.Profile;
import io.servebench.engine.EngineStartException;
import io.servebench.engine.Engines;
import io.servebench.engine.RunningEngine;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.OpenAiApi;
import io.servebench.load.StopConditions;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordWriter;
import io.servebench.load.RequestSpec;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.reports.JmhJsonWriter;
import io.servebench.reports.RunJournal;
import io.servebench.reports.SummaryMarkdownWriter;
import io.servebench.results.Metric;
import io.servebench.results.RunResult;
import io.servebench.results.TrialMetrics;
import io.servebench.results.TrialResult;
import io.servebench.runner.plan.BenchmarkPoint;
import io.servebench.runner.plan.LoadOptions;
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
import java.math.BigDecimal;
import java.math.MathContext;
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

    /** Engine kinds that send cumulative usage on every chunk when asked (SGLang since 0.5.5, sgl-project/sglang#12241). */
    static final List<String> CONTINUOUS_USAGE_ENGINES = List.of("vllm", "sglang", "sim");

    private final RunParams params;
    private final PrintWriter out;
    private final UnaryOperator<String> environment;
    private final Map<String, Dataset> datasets = new HashMap<>();
    // read from the environment when the run starts; never printed or written
    private String apiKey;

    public Runner(RunParams params, PrintWriter out) {
        this(params, out, System::getenv);
    }

    /** @param environment looks up environment variables (the API key's), {@code System::getenv} but in tests */
    Runner(RunParams params, PrintWriter out, UnaryOperator<String> environment) {
        this.params = params;
        this.out = out;
        this.environment = environment;
    }

    /** One measured load of a trial: the trial itself, or one step of a sweep. */
    private record Step(String sweepStep, Double rate, List<TrialMetrics> repetitions) {
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
                    plan.pointsOf(trial).stream().map(Runner::pointLabel).collect(Collectors.joining(", "))
                            + (w.resultBlocks() > 1 ? " (" + w.resultBlocks() + " result blocks each, one per sweep step)" : ""));
        }
        out.printf("%d result blocks from %d distinct trials%n",
                plan.points().stream().mapToInt(p -> p.trial().workload().resultBlocks()).sum(), plan.trials().size());
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

    /**
     * The workload as this run sends it: quick mode shortens it. Profiles without a rate or stream count
     * (synchronous, throughput, sweep) get quick mode's fewest requests per trial (or step).
     */
    private WorkloadPoint effective(WorkloadPoint declared) {
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
        if (!params.simulate()) {
            plan.trials().stream().map(t -> t.server().engine()).filter(e -> !Engines.STARTABLE.contains(e)).findFirst()
                    .ifPresent(e -> {
                        throw new Main.UsageException("engine \"" + e + "\": this ServeBench version starts only "
                                + Engines.STARTABLE + " itself; add --simulate to run the study on the simulated engine");
                    });
        }
        // A missing dataset file or API key is a mistake on the command line: say so before any engine starts.
        plan.trials().stream().map(t -> t.workload().dataset()).distinct().forEach(this::dataset);
        apiKey = apiKey();
        Path dir = params.outputDir();
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("requests"));
        String startTime = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        out.printf("ServeBench %s: %d trials on %d server configurations%s, results in %s%n", ServeBenchVersion.get(),
                plan.trials().size(), plan.serverStarts(), params.simulate() ? " (simulated)" : "", dir);

        Map<String, List<Step>> measured = new HashMap<>();
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
        out.printf("Done: %d of %d trials ran. Reports: %s, %s%n", plan.trials().size() - failures.size(),
                plan.trials().size(), dir.resolve("summary.md"), dir.resolve("results.json"));
        return failures.isEmpty();
    }

    private void runServer(List<Trial> trials, TrialPlan plan, int done, RunJournal journal,
                           Map<String, List<Step>> measured, Map<String, String> failures) throws IOException {
        Trial first = trials.get(0);
        Path log = params.outputDir().resolve("logs").resolve(first.serverId() + ".log");
        out.printf("Starting %s: %s%n", first.serverId(), engineLabel(first));
        try (RunningEngine engine = Engines.start(first.server(), params.simulate(), log, params.seed())) {
            for (int t = 0; t < trials.size(); t++) {
                Trial trial = trials.get(t);
                String progress = String.format("[%d/%d] ", done + t + 1, plan.trials().size());
                try {
                    if (Profile.SWEEP.equals(trial.workload().profile())) {
                        measured.put(trial.id(), sweep(engine, trial, progress));
                    } else {
                        List<TrialMetrics> reps = new ArrayList<>();
                        for (int r = 1; r <= params.repetitions(); r++) {
                            String name = params.repetitions() > 1 ? trial.id() + "-r" + r : trial.id();
                            WorkloadPoint w = effective(trial.workload());
                            reps.add(measure(engine, trial.server().engine(), w, profile(w, r), name, progress + name));
                        }
                        measured.put(trial.id(), List.of(new Step(null, null, reps)));
                    }
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

    /**
     * Runs one load and aggregates it; a stop condition that ended it early becomes a note on the metrics.
     *
     * @param name the requests file's name
     */
    private TrialMetrics measure(RunningEngine engine, String engineKind, WorkloadPoint w, ArrivalProfile profile,
                                 String name, String progressLabel) throws IOException {
        LoadParams load = loadParams(engineKind, w, profile);
        Iterator<RequestSpec> supply = dataset(w.dataset()).supply(params.seed());
        try (TrialProgress progress = TrialProgress.start(out, progressLabel, w.warmup() + w.requests())) {
            LoadResult result = new LoadGenerator().run(engine.endpoint(), supply, w.warmup(), w.requests(), load, progress);
            RequestRecordWriter.writeTrial(params.outputDir(), name, result.records());
            List<RequestRecord> measuredRecords = result.records().stream().filter(r -> !r.warmup()).toList();
            TrialMetrics metrics = new MetricsAggregator().aggregate(measuredRecords);
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
    private List<Step> sweep(RunningEngine engine, Trial trial, String progress) throws IOException {
        WorkloadPoint w = effective(trial.workload());
        int cap = w.options().maxConcurrency();
        int steps = w.resultBlocks();
        String format = "s%0" + Integer.toString(steps).length() + "d-%s";
        List<List<TrialMetrics>> reps = new ArrayList<>();
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
                WorkloadPoint stepLoad = w;
                if (i == 0) {
                    profile = new ArrivalProfile.Synchronous();
                } else if (i == 1) {
                    profile = capped(new ArrivalProfile.Throughput(), cap);
                } else {
                    stepLoad = w.withRequests(params.requestsFor(trial.workload().requests(), rates[i - 2]));
                    profile = capped(new ArrivalProfile.Constant(rates[i - 2]), cap);
                }
                String name = trial.id() + "-" + step + suffix;
                TrialMetrics metrics = measure(engine, trial.server().engine(), stepLoad, profile, name, progress + name);
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

    private static double requestRate(TrialMetrics metrics, String step) {
        OptionalDouble rate = metrics.value(Metric.REQUEST_THROUGHPUT);
        if (rate.isEmpty() || !(rate.getAsDouble() > 0)) {
            throw new IllegalStateException("the sweep's " + step + " step measured no request throughput ("
                    + (long) metrics.value(Metric.SUCCESSFUL_REQUESTS).orElse(0) + " successful requests), so it cannot"
                    + " place its constant rates");
        }
        return rate.getAsDouble();
    }

    /** The arrival profile of a (non-sweep) workload point; rate profiles draw from a seed per repetition. */
    private ArrivalProfile profile(WorkloadPoint w, int repetition) {
        LoadOptions o = w.options();
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
    private LoadParams loadParams(String engineKind, WorkloadPoint w, ArrivalProfile profile) {
        LoadOptions o = w.options();
        boolean continuousUsage = o.continuousUsage() != null ? o.continuousUsage()
                : CONTINUOUS_USAGE_ENGINES.contains(engineKind);
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
            throw new Main.UsageException("--api-key-env " + variable + ": the environment variable " + variable
                    + " is not set or empty; expected it to hold the API key");
        }
        return key.strip();
    }

    private Dataset dataset(String spec) {
        try {
            return datasets.computeIfAbsent(spec, s -> Datasets.resolve(s, Engines.tokenCounter()));
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage());
        }
    }

    private List<TrialResult> results(List<BenchmarkPoint> points, Map<String, List<Step>> measured,
                                      Map<String, String> failures) {
        List<TrialResult> results = new ArrayList<>();
        for (BenchmarkPoint p : points) {
            Trial trial = p.trial();
            WorkloadPoint w = effective(trial.workload());
            String failure = failures.get(trial.id());
            List<Step> steps = measured.getOrDefault(trial.id(), List.of());
            if (failure == null && steps.isEmpty()) {
                failure = "not run: the run stopped before this trial";
            }
            if (failure != null) {
                steps = List.of(new Step(null, null, List.of()));
            }
            for (Step step : steps) {
                Map<String, String> blockParams = new LinkedHashMap<>();
                blockParams.put("engine", params.simulate() && !"sim".equals(trial.server().engine())
                        ? "sim:" + trial.server().engine() : trial.server().engine());
                blockParams.put("model", trial.server().model());
                blockParams.put("dataset", w.dataset());
                blockParams.put("profile", w.profile());
                if (Profile.CONCURRENT.equals(w.profile())) {
                    blockParams.put("concurrency", Integer.toString(w.concurrency()));
                } else if (w.hasRate()) {
                    blockParams.put("rate", WorkloadPoint.formatRate(w.rate()));
                } else if (step.rate() != null) {
                    blockParams.put("rate", WorkloadPoint.formatRate(step.rate()));
                }
                blockParams.put("requests", Integer.toString(w.requests()));
                blockParams.put("warmup", Integer.toString(w.warmup()));
                blockParams.putAll(w.options().nonDefault());
                if (step.sweepStep() != null) {
                    blockParams.put(TrialResult.SWEEP_STEP, step.sweepStep());
                }
                blockParams.put(TrialResult.FLAGS, String.join(" ", trial.server().args()));
                // workload values are in already, as this run sends them; a rate a profile ignores stays out
                p.paramValues().forEach((k, v) -> {
                    if (!TrialPlanner.WORKLOAD_KEYS.contains(k)) {
                        blockParams.putIfAbsent(k, v);
                    }
                });
                results.add(new TrialResult(p.benchmark(), p.className(), p.variant(), p.group(), p.baseline(), blockParams,
                        trial.id(), trial.serverId(), step.repetitions(), failure));
            }
        }
        return results;
    }

    private void writeReports(TrialPlan plan, String startTime, Map<String, List<Step>> measured,
                              Map<String, String> failures) {
        RunResult result = new RunResult(startTime, ServeBenchVersion.get(), commandLine(), params.simulate(), params.quick(),
                results(plan.points(), measured, failures));
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
        if (params.simulate()) {
            sb.append(" --simulate");
        }
        if (params.quick()) {
            sb.append(" --quick");
        }
        return sb.toString();
    }
}
