package io.servebench.junit;

import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.plan.Trial;
import io.servebench.results.BlockResult;
import io.servebench.results.RepetitionResult;
import io.servebench.runner.RunListener;
import io.servebench.runner.RunOptions;
import io.servebench.runner.RunOutcome;
import io.servebench.runner.Runner;
import io.servebench.workload.WorkloadSetting;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * Runs one study as one ServeBench run and reports it to JUnit as it goes: each server configuration's container
 * when its engine starts, each trial's test when it starts and ends, with the trial's headline numbers as reporting
 * entries. A trial fails its test when it did not run to its end (the engine did not start or died: the reason with
 * the log's tail) or when a variant's {@code @Slo(minAttainment)} was missed.
 */
final class StudyExecution implements RunListener {

    /** Each block's minimum SLO attainment, by benchmark, from the plan. */
    private final Map<String, OptionalDouble> minAttainments = new java.util.HashMap<>();

    private final StudyTestDescriptor study;
    private final EngineExecutionListener listener;
    private final Map<String, ServerTestDescriptor> servers = new LinkedHashMap<>();
    private final Map<String, TrialTestDescriptor> trials = new LinkedHashMap<>();
    private final Map<ServerTestDescriptor, Integer> open = new LinkedHashMap<>();
    private final Set<TrialTestDescriptor> running = new LinkedHashSet<>();

    StudyExecution(StudyTestDescriptor study, EngineExecutionListener listener) {
        this.study = study;
        this.listener = listener;
        for (TestDescriptor child : study.getChildren()) {
            ServerTestDescriptor server = (ServerTestDescriptor) child;
            servers.put(server.serverId(), server);
            server.getChildren().forEach(t -> trials.put(((TrialTestDescriptor) t).trialId(), (TrialTestDescriptor) t));
        }
    }

    /**
     * Tests run again and again into the same folder, as Surefire's reports do: the previous run of this study is
     * deleted first. Only a folder that holds a ServeBench run (its journal) is deleted; anything else
     * there is an error rather than lost.
     */
    static void replacePreviousRun(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        if (!Files.exists(Runner.journal(dir))) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IOException(dir + " holds files but no ServeBench run (" + Runner.journal(dir).getFileName()
                            + "); expected an empty folder or a previous run to replace: move them, or set servebench.outputDir");
                }
            }
        }
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Runs the study with {@code config}'s options and reports every descriptor below it, then the study itself. */
    void run(EngineConfiguration config) {
        listener.executionStarted(study);
        if (study.problem() != null) {
            listener.executionFinished(study, TestExecutionResult.failed(new IllegalStateException(study.problem())));
            return;
        }
        TestExecutionResult result;
        try {
            RunOptions options = config.runOptions(study.study(), study.variants(), study.trials());
            Runner runner = new Runner(options, new PrintWriter(System.out, true));
            replacePreviousRun(runner.outputDir());
            // each block's @Slo(minAttainment), as the plan resolved it, for the trials' verdicts
            runner.plan().blocks().forEach(b -> minAttainments.put(b.benchmark(), b.minAttainment()));
            RunOutcome outcome = runner.run(this);
            listener.reportingEntryPublished(study, ReportEntry.from("results", outcome.outputDir().toAbsolutePath().toString()));
            result = TestExecutionResult.successful();
        } catch (Exception | AssertionError e) {
            result = TestExecutionResult.failed(e);
        }
        // a run cut short leaves what it started open: close it with the study's failure
        for (TrialTestDescriptor test : running) {
            listener.executionFinished(test, result);
        }
        for (ServerTestDescriptor server : open.keySet()) {
            listener.executionFinished(server, result);
        }
        listener.executionFinished(study, result);
    }

    @Override
    public void serverStarting(List<Trial> serverTrials) {
        ServerTestDescriptor server = servers.get(serverTrials.get(0).serverId());
        if (server != null) {
            listener.executionStarted(server);
            open.put(server, serverTrials.size());
        }
    }

    @Override
    public void trialStarting(Trial trial) {
        TrialTestDescriptor test = trials.get(trial.id());
        if (test != null) {
            listener.executionStarted(test);
            running.add(test);
        }
    }

    @Override
    public void trialFinished(Trial trial, List<BlockResult> blocks) {
        TrialTestDescriptor test = trials.get(trial.id());
        if (test == null) {
            return;
        }
        if (!blocks.isEmpty()) {
            listener.reportingEntryPublished(test, ReportEntry.from(headline(blocks.get(0))));
        }
        running.remove(test);
        listener.executionFinished(test, verdict(blocks));
        ServerTestDescriptor server = servers.get(trial.serverId());
        Integer left = open.get(server);
        if (left != null) {
            if (left == 1) {
                open.remove(server);
                listener.executionFinished(server, TestExecutionResult.successful());
            } else {
                open.put(server, left - 1);
            }
        }
    }

    /** Failed when a block did not run to its end or missed its variant's minimum SLO attainment. */
    private TestExecutionResult verdict(List<BlockResult> blocks) {
        for (BlockResult block : blocks) {
            if (!block.succeeded()) {
                return TestExecutionResult.failed(new AssertionError(block.failure()));
            }
            OptionalDouble min = minAttainments.getOrDefault(block.benchmark(), OptionalDouble.empty());
            if (min.isEmpty()) {
                continue;
            }
            OptionalDouble attainment = mean(block, r -> r.value(Metric.SLO_ATTAINMENT).orElse(Double.NaN));
            if (attainment.isEmpty()) {
                return TestExecutionResult.failed(new AssertionError(block.displayName() + " states @Slo(minAttainment = "
                        + min.getAsDouble() + ") but no SLO bound, so no attainment was measured; state a bound in @Slo"
                        + " (ttftMs, tpotMs, itlMs, e2eMs) or with --slo"));
            }
            if (attainment.getAsDouble() < 100 * min.getAsDouble()) {
                return TestExecutionResult.failed(new AssertionError(String.format(Locale.ROOT,
                        "%s at %s: %.1f%% of requests met the SLOs %s; expected at least %.1f%% (@Slo(minAttainment = %s))",
                        block.displayName(), load(block),
                        attainment.getAsDouble(), block.params().getOrDefault(BlockResult.SLO, ""), 100 * min.getAsDouble(),
                        min.getAsDouble())));
            }
        }
        return TestExecutionResult.successful();
    }

    /**
     * Where the block's load stood: {@code 8 req/s} ({@code 2 conversations/s} for multi-turn ones), {@code concurrency
     * 64}, else its profile ({@code throughput}).
     */
    private static String load(BlockResult block) {
        Map<String, String> p = block.params();
        String rate = WorkloadSetting.RATE.key();
        String concurrency = WorkloadSetting.CONCURRENCY.key();
        return p.containsKey(rate) ? p.get(rate) + " " + block.rateUnit() : p.containsKey(concurrency)
                ? "concurrency " + p.get(concurrency) : p.getOrDefault(WorkloadSetting.PROFILE.key(), "its load");
    }

    /** The trial's headline numbers, means over repetitions, as the progress line prints them. */
    private static Map<String, String> headline(BlockResult block) {
        Map<String, String> entries = new LinkedHashMap<>();
        put(entries, "mean latency (s)", mean(block, r -> r.number(Metric.E2E_LATENCY, Stat.MEAN).orElse(Double.NaN)), 3);
        put(entries, "median TTFT (ms)", mean(block, r -> r.number(Metric.TTFT, Stat.MEDIAN).orElse(Double.NaN)), 1);
        put(entries, "median ITL (ms)", mean(block, r -> r.number(Metric.ITL, Stat.MEDIAN).orElse(Double.NaN)), 2);
        put(entries, "output throughput (tok/s)", mean(block, r -> r.value(Metric.OUTPUT_THROUGHPUT).orElse(Double.NaN)), 1);
        put(entries, "request throughput (req/s)", mean(block, r -> r.value(Metric.REQUEST_THROUGHPUT).orElse(Double.NaN)), 3);
        put(entries, "failed requests", mean(block, r -> r.value(Metric.FAILED_REQUESTS).orElse(Double.NaN)), 0);
        put(entries, "SLO attainment (%)", mean(block, r -> r.value(Metric.SLO_ATTAINMENT).orElse(Double.NaN)), 1);
        return entries;
    }

    private static void put(Map<String, String> entries, String key, OptionalDouble value, int decimals) {
        value.ifPresent(v -> entries.put(key, String.format(Locale.ROOT, "%." + decimals + "f", v)));
    }

    /** The mean over the block's repetitions of a value, leaving out those without it; empty when none has it. */
    private static OptionalDouble mean(BlockResult block, ToDoubleFunction<RepetitionResult> value) {
        return block.repetitions().stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).average();
    }
}
