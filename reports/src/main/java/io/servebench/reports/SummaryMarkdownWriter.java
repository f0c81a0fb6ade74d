package io.servebench.reports;

import io.servebench.results.Metric;
import io.servebench.results.RunResult;
import io.servebench.results.ServerMetric;
import io.servebench.results.Stat;
import io.servebench.results.TrialMetrics;
import io.servebench.results.TrialResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Writes {@code summary.md}: run info; per result block a two-column table in the order of the
 * reference study's result block (then ServeBench's extra metrics) and the same block in
 * {@code vllm bench serve}'s text layout; then, per study class and workload point, every
 * variant against the baseline on mean E2E latency with a significance verdict
 * ({@link Comparison}).
 *
 * <p>A value is the mean over repetitions; with three or more repetitions it is followed by
 * {@code ± scoreError} (99.9% Student-t). Absent metrics show as "—". The workload point of a block
 * is its values of {@link #WORKLOAD_KEYS}.
 */
public final class SummaryMarkdownWriter {

    /** Params that define a workload point: blocks are compared only with a baseline that shares them. */
    public static final List<String> WORKLOAD_KEYS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of("model", "dataset", "profile", "rate", "concurrency", "requests", "warmup",
                    TrialResult.SWEEP_STEP), TrialResult.LOAD_OPTION_PARAMS.stream()).toList();

    private static final Metric[] REFERENCE_DISTRIBUTIONS = {Metric.E2E_LATENCY, Metric.TTFT, Metric.TPOT, Metric.ITL};
    private static final Stat[] REFERENCE_STATS = {Stat.MEAN, Stat.MEDIAN, Stat.P95, Stat.P99};
    private static final Metric[] EXTRA_DISTRIBUTIONS = {Metric.INTER_CHUNK_LATENCY, Metric.TIME_TO_FIRST_CONTENT,
        Metric.TTFT_FROM_SCHEDULE, Metric.E2E_FROM_SCHEDULE, Metric.SCHEDULE_LAG, Metric.CLIENT_QUEUE_WAIT};

    /** Writes the summary of {@code run} to {@code file} (replacing it). */
    public void write(RunResult run, Path file) throws IOException {
        Files.writeString(file, render(run), StandardCharsets.UTF_8);
    }

    /** The summary as markdown text. */
    public String render(RunResult run) {
        StringBuilder md = new StringBuilder();
        md.append("# ServeBench results\n\n");
        md.append("- Started: ").append(run.startTime()).append('\n');
        md.append("- ServeBench version: ").append(run.servebenchVersion()).append('\n');
        md.append("- Command line: `").append(run.commandLine()).append("`\n");
        md.append("- Engines: ").append(run.simulate() ? "simulated (--simulate)" : "as the studies declare").append('\n');
        md.append("- Quick mode: ").append(run.quick() ? "yes (shortened workloads)" : "no").append('\n');
        md.append("- Result blocks: ").append(run.trials().size()).append("\n\n");
        // The decision first, then the overview, then every block in full.
        comparisons(md, run.trials());
        overview(md, run.trials());
        md.append("## Result blocks\n\n");
        for (TrialResult trial : run.trials()) {
            block(md, trial);
        }
        return md.toString();
    }

    /** One row per block with the numbers people look at first. */
    private static void overview(StringBuilder md, List<TrialResult> trials) {
        md.append("## Overview\n\n");
        md.append("Means over repetitions; latencies per request, throughput over the measurement window.\n\n");
        md.append("| Block | Group | Rate (req/s) | Mean latency (s) | Median TTFT (ms) | Median TPOT (ms) | Median ITL (ms) "
                + "| Output (tok/s) | Failed |\n|---|---|---|---|---|---|---|---|---|\n");
        for (TrialResult t : trials) {
            List<TrialMetrics> reps = t.repetitions();
            String group = t.baseline() ? (t.group() + " baseline").strip() : t.group();
            md.append("| ").append(heading(t)).append(" | ").append(group).append(" | ")
                    .append(t.params().getOrDefault("rate", Numbers.ABSENT)).append(" | ");
            if (!t.succeeded()) {
                md.append("not run: ").append(t.failure().replace("|", "\\|").replace("\n", " ")).append(" | | | | | |\n");
                continue;
            }
            md.append(String.join(" | ", value(reps, Metric.E2E_LATENCY, Stat.MEAN), value(reps, Metric.TTFT, Stat.MEDIAN),
                    value(reps, Metric.TPOT, Stat.MEDIAN), value(reps, Metric.ITL, Stat.MEDIAN),
                    value(reps, Metric.OUTPUT_THROUGHPUT, null), count(reps, Metric.FAILED_REQUESTS))).append(" |\n");
        }
        md.append('\n');
    }

    /** {@code LatencyTuning.maxNumSeqs[128]}: the class's simple name and the block's display name. */
    private static String heading(TrialResult trial) {
        return simpleName(trial.className()) + "." + trial.displayName();
    }

    private static void block(StringBuilder md, TrialResult trial) {
        md.append("### ").append(heading(trial)).append(" · rate ").append(trial.params().getOrDefault("rate", Numbers.ABSENT))
                .append("\n\n");
        md.append("- Benchmark: `").append(trial.benchmark()).append("`\n");
        List<String> params = new ArrayList<>();
        trial.params().forEach((k, v) -> params.add(k + " = `" + v + "`"));
        md.append("- Params: ").append(params.isEmpty() ? "none" : String.join(", ", params)).append('\n');
        md.append("- Group: ").append(trial.group().isEmpty() ? "none" : trial.group())
                .append(trial.baseline() ? " · **baseline**" : "").append('\n');
        md.append("- Trial: ").append(trial.trialId()).append(" · server: ").append(trial.serverId())
                .append(" · repetitions: ").append(trial.repetitions().size()).append("\n\n");
        if (!trial.succeeded()) {
            md.append("**The trial could not run:** ").append(trial.failure()).append("\n\n");
            return;
        }
        List<TrialMetrics> reps = trial.repetitions();
        warnings(md, trial);
        md.append("| Metric | Value |\n|---|---|\n");
        for (String[] row : rows(trial)) {
            md.append("| ").append(row[0]).append(" | ").append(row[1].replace("|", "\\|")).append(" |\n");
        }
        md.append("\n```\n").append(vllmLayout(trial)).append("```\n\n");
    }

    private static void warnings(StringBuilder md, TrialResult trial) {
        List<TrialMetrics> reps = trial.repetitions();
        for (int r = 0; r < reps.size(); r++) {
            for (String note : reps.get(r).notes()) {
                md.append("> **Note").append(reps.size() > 1 ? " (repetition " + (r + 1) + ")" : "").append(":** ")
                        .append(note).append("\n\n");
            }
        }
        for (Warnings.Warning w : Warnings.of(trial)) {
            md.append("> **Warning:** ").append(w.message()).append("\n\n");
        }
    }

    /** The table rows: the reference study's block, in its order, then ServeBench's additions. */
    private static List<String[]> rows(TrialResult trial) {
        List<TrialMetrics> reps = trial.repetitions();
        List<String[]> rows = new ArrayList<>();
        rows.add(row(Metric.SUCCESSFUL_REQUESTS.label(), count(reps, Metric.SUCCESSFUL_REQUESTS)));
        rows.add(row("Maximum request concurrency", trial.params().getOrDefault("concurrency", Numbers.ABSENT + " (open loop)")));
        rows.add(row(Metric.DURATION.label(), value(reps, Metric.DURATION, null)));
        rows.add(row(Metric.TOTAL_INPUT_TOKENS.label(), count(reps, Metric.TOTAL_INPUT_TOKENS)));
        rows.add(row(Metric.TOTAL_OUTPUT_TOKENS.label(), count(reps, Metric.TOTAL_OUTPUT_TOKENS)));
        rows.add(row(Metric.REQUEST_THROUGHPUT.label(), value(reps, Metric.REQUEST_THROUGHPUT, null)));
        rows.add(row(Metric.OUTPUT_THROUGHPUT.label(), value(reps, Metric.OUTPUT_THROUGHPUT, null)));
        rows.add(row(Metric.PEAK_OUTPUT_THROUGHPUT.label(), value(reps, Metric.PEAK_OUTPUT_THROUGHPUT, null)));
        rows.add(row(Metric.MAX_CONCURRENCY.label(), count(reps, Metric.MAX_CONCURRENCY)));
        rows.add(row(Metric.TOTAL_THROUGHPUT.label(), value(reps, Metric.TOTAL_THROUGHPUT, null)));
        for (Metric m : REFERENCE_DISTRIBUTIONS) {
            for (Stat s : REFERENCE_STATS) {
                rows.add(row(m.label(s), value(reps, m, s)));
            }
        }
        rows.add(row(Metric.FAILED_REQUESTS.label(), count(reps, Metric.FAILED_REQUESTS)));
        rows.add(row(Metric.MEAN_CONCURRENCY.label() + " (time-weighted)", value(reps, Metric.MEAN_CONCURRENCY, null)));
        String slo = trial.params().get("slo");
        rows.add(row(Metric.GOODPUT.label() + (slo == null ? "" : " at " + slo), value(reps, Metric.GOODPUT, null)));
        rows.add(row(Metric.SLO_ATTAINMENT.label(), value(reps, Metric.SLO_ATTAINMENT, null)));
        rows.add(row(Metric.ACHIEVED_SEND_RATE.label(), value(reps, Metric.ACHIEVED_SEND_RATE, null)));
        rows.add(row(Metric.SCHEDULED_SEND_RATE.label(), value(reps, Metric.SCHEDULED_SEND_RATE, null)));
        for (Metric m : EXTRA_DISTRIBUTIONS) {
            // client queueing exists only under a concurrency cap: no rows of dashes for every other block
            if (m == Metric.CLIENT_QUEUE_WAIT && reps.stream().allMatch(r -> r.distribution(m).isEmpty())) {
                continue;
            }
            for (Stat s : REFERENCE_STATS) {
                rows.add(row(m.label(s), value(reps, m, s)));
            }
        }
        rows.add(row("Token events", Numbers.count(mean(reps, r -> OptionalDouble.of(r.tokenEvents())))));
        rows.add(row("Coalesced token events", Numbers.count(mean(reps, r -> OptionalDouble.of(r.coalescedEvents())))));
        rows.add(row(Metric.EVENTS_PER_READ_MAX.label(), count(reps, Metric.EVENTS_PER_READ_MAX)));
        serverRows(reps, rows);
        rows.add(row("Output token counts from", totals(reps, TrialMetrics::outputTokenSources)));
        rows.add(row("Errors", totals(reps, TrialMetrics::errorKinds)));
        return rows;
    }

    /** The engine's own metrics, or one row saying it offered none. */
    private static void serverRows(List<TrialMetrics> reps, List<String[]> rows) {
        boolean any = false;
        for (ServerMetric m : ServerMetric.values()) {
            double[] v = reps.stream().map(r -> r.value(m)).filter(OptionalDouble::isPresent)
                    .mapToDouble(OptionalDouble::getAsDouble).toArray();
            if (v.length > 0) {
                any = true;
                double error = Statistics.scoreError(v);
                boolean counter = m == ServerMetric.PREEMPTIONS || m == ServerMetric.PROMPT_TOKENS
                        || m == ServerMetric.GENERATION_TOKENS;
                String mean = counter ? Numbers.count(Statistics.mean(v)) : Numbers.format(Statistics.mean(v));
                rows.add(row(m.label(), Double.isFinite(error) ? mean + " ± " + Numbers.format(error) : mean));
            }
        }
        if (!any) {
            rows.add(row("Server-side metrics", "none: the engine offered no Prometheus /metrics"));
        }
    }

    private static String[] row(String label, String value) {
        return new String[] {label, value};
    }

    /** Mean over repetitions of a number, NaN when every repetition lacks it. */
    private static double mean(List<TrialMetrics> reps, Function<TrialMetrics, OptionalDouble> number) {
        return reps.stream().map(number).filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble)
                .average().orElse(Double.NaN);
    }

    private static double[] values(List<TrialMetrics> reps, Metric metric, Stat stat) {
        return reps.stream().map(r -> r.number(metric, stat)).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).toArray();
    }

    /** Mean over repetitions, with {@code ± scoreError} when there are 3 or more. */
    private static String value(List<TrialMetrics> reps, Metric metric, Stat stat) {
        double[] v = values(reps, metric, stat);
        if (v.length == 0) {
            return Numbers.ABSENT;
        }
        String mean = Numbers.format(Statistics.mean(v));
        double error = Statistics.scoreError(v);
        return Double.isFinite(error) ? mean + " ± " + Numbers.format(error) : mean;
    }

    private static String count(List<TrialMetrics> reps, Metric metric) {
        return Numbers.count(mean(reps, r -> r.value(metric)));
    }

    /** "USAGE 1000, TOKENIZER 3" summed over repetitions; "none" when empty. */
    private static String totals(List<TrialMetrics> reps, Function<TrialMetrics, Map<String, Long>> counts) {
        Map<String, Long> sum = new TreeMap<>();
        reps.forEach(r -> counts.apply(r).forEach((k, v) -> sum.merge(k, v, Long::sum)));
        if (sum.isEmpty()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        sum.forEach((k, v) -> parts.add(k + " " + v));
        return String.join(", ", parts) + (reps.size() > 1 ? " (all repetitions)" : "");
    }

    /** The block as {@code vllm bench serve} prints it (means over repetitions; E2E latency in ms as vLLM does). */
    static String vllmLayout(TrialResult trial) {
        List<TrialMetrics> reps = trial.repetitions();
        StringBuilder out = new StringBuilder();
        out.append(center(" Serving Benchmark Result ", '=')).append('\n');
        line(out, "Successful requests:", Numbers.count(mean(reps, r -> r.value(Metric.SUCCESSFUL_REQUESTS))));
        line(out, "Failed requests:", Numbers.count(mean(reps, r -> r.value(Metric.FAILED_REQUESTS))));
        if (trial.params().containsKey("concurrency")) {
            line(out, "Maximum request concurrency:", trial.params().get("concurrency"));
        }
        line(out, "Benchmark duration (s):", fixed(mean(reps, r -> r.value(Metric.DURATION))));
        line(out, "Total input tokens:", Numbers.count(mean(reps, r -> r.value(Metric.TOTAL_INPUT_TOKENS))));
        line(out, "Total generated tokens:", Numbers.count(mean(reps, r -> r.value(Metric.TOTAL_OUTPUT_TOKENS))));
        line(out, "Request throughput (req/s):", fixed(mean(reps, r -> r.value(Metric.REQUEST_THROUGHPUT))));
        line(out, "Output token throughput (tok/s):", fixed(mean(reps, r -> r.value(Metric.OUTPUT_THROUGHPUT))));
        line(out, "Peak output token throughput (tok/s):",
                fixed(mean(reps, r -> r.value(Metric.PEAK_OUTPUT_THROUGHPUT))));
        line(out, "Peak concurrent requests:", Numbers.count(mean(reps, r -> r.value(Metric.MAX_CONCURRENCY))));
        line(out, "Total Token throughput (tok/s):", fixed(mean(reps, r -> r.value(Metric.TOTAL_THROUGHPUT))));
        Map<String, Metric> sections = new LinkedHashMap<>();
        sections.put("Time to First Token", Metric.TTFT);
        sections.put("Time per Output Token (excl. 1st token)", Metric.TPOT);
        sections.put("Inter-token Latency", Metric.ITL);
        sections.put("End-to-end Latency", Metric.E2E_LATENCY);
        sections.forEach((title, metric) -> {
            out.append(center(title, '-')).append('\n');
            String name = metric == Metric.E2E_LATENCY ? "E2EL" : metric.label().substring(0, metric.label().indexOf(' '));
            double toMs = "s".equals(metric.unit()) ? 1000 : 1;
            for (Stat s : REFERENCE_STATS) {
                double v = mean(reps, r -> r.number(metric, s)) * toMs;
                line(out, s.label() + " " + name + " (ms):", fixed(v));
            }
        });
        out.append("=".repeat(50)).append('\n');
        return out.toString();
    }

    private static void line(StringBuilder out, String label, String value) {
        out.append(String.format(Locale.ROOT, "%-40s %-10s", label, value).stripTrailing()).append('\n');
    }

    private static String fixed(double v) {
        return Double.isNaN(v) ? Numbers.ABSENT : String.format(Locale.ROOT, "%.2f", v);
    }

    /** {@code s} centred in 50 columns padded with {@code pad}, as Python's {@code "{:=^50}"}. */
    private static String center(String s, char pad) {
        int total = Math.max(0, 50 - s.length());
        int left = total / 2;
        return String.valueOf(pad).repeat(left) + s + String.valueOf(pad).repeat(total - left);
    }

    private record GroupKey(String className, Map<String, String> workload) {
    }

    private static void comparisons(StringBuilder md, List<TrialResult> trials) {
        Map<GroupKey, List<TrialResult>> groups = new LinkedHashMap<>();
        for (TrialResult t : trials) {
            Map<String, String> workload = new LinkedHashMap<>();
            for (String key : WORKLOAD_KEYS) {
                if (t.params().containsKey(key)) {
                    workload.put(key, t.params().get(key));
                }
            }
            groups.computeIfAbsent(new GroupKey(t.className(), workload), k -> new ArrayList<>()).add(t);
        }
        md.append("## Comparisons with the baseline\n\n");
        md.append("Mean E2E latency of each variant against the baseline at the same workload point, with a 95% interval "
                + "on the ratio. A difference is called faster or slower only when the interval excludes 1: a Welch interval "
                + "on the repetitions' means when both sides ran at least 2 repetitions (run-to-run noise), otherwise a "
                + "seeded bootstrap on the per-request latencies, which only measures the noise within one run (use -r 3 "
                + "or more to decide close calls).\n\n");
        groups.forEach((key, members) -> {
            List<String> point = new ArrayList<>();
            key.workload().forEach((k, v) -> point.add(k + " = " + v));
            md.append("### ").append(simpleName(key.className()))
                    .append(point.isEmpty() ? "" : " at " + String.join(", ", point)).append("\n\n");
            TrialResult baseline = members.stream().filter(TrialResult::baseline).filter(Comparison::comparable)
                    .findFirst().orElse(null);
            if (baseline == null) {
                md.append("No baseline with latency results at this workload point: nothing to compare.\n\n");
                return;
            }
            List<TrialResult> others = members.stream().filter(t -> !t.trialId().equals(baseline.trialId())).toList();
            if (!others.isEmpty()) {
                md.append("Baseline: **").append(baseline.displayName()).append("**\n\n");
                md.append("| Group | Variant | Mean latency (s) | Baseline (s) | Verdict at 95% | p |\n|---|---|---|---|---|---|\n");
                for (TrialResult t : others) {
                    md.append("| ").append(t.group()).append(" | ").append(t.displayName()).append(" | ");
                    if (!Comparison.comparable(t)) {
                        md.append("— | ").append(value(baseline.repetitions(), Metric.E2E_LATENCY, Stat.MEAN))
                                .append(" | no latency results | — |\n");
                        continue;
                    }
                    Comparison c = Comparison.of(baseline, t);
                    md.append(Numbers.format(c.variantMean())).append(" | ").append(Numbers.format(c.baselineMean()))
                            .append(" | ").append(c.significant() ? "**" + c.shortVerdict() + "**" : c.shortVerdict())
                            .append(c.estimate() == null ? "" : " " + c.interval())
                            .append(" | ").append(c.pValue()).append(" |\n");
                }
                md.append('\n');
            }
            boolean any = false;
            for (TrialResult t : members) {
                if (t == baseline || t.trialId().equals(baseline.trialId())) {
                    continue;
                }
                any = true;
                String prefix = "- " + (t.group().isEmpty() ? "" : "**" + t.group() + "**: ");
                if (!Comparison.comparable(t)) {
                    md.append(prefix).append(t.variant()).append(": no latency results")
                            .append(t.failure() != null ? " (" + t.failure() + ")" : "").append('\n');
                    continue;
                }
                Comparison c = Comparison.of(baseline, t);
                md.append(prefix).append(c.sentence()).append("; ").append(c.verdict()).append('\n');
            }
            md.append(any ? "\n" : "Only the baseline ran at this workload point.\n\n");
        });
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
