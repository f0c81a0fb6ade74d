package io.servebench.reports;

import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.RepetitionResult;
import io.servebench.workload.WorkloadSetting;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A result block as {@code vllm bench serve} prints its "Serving Benchmark Result" (means over repetitions). */
final class VllmBenchLayout {

    private static final Stat[] STATS = {Stat.MEAN, Stat.MEDIAN, Stat.P95, Stat.P99};

    private VllmBenchLayout() {
    }

    /** The block's text, lines of 50 columns; E2E latency in ms, as vLLM prints it. */
    public static String of(BlockResult trial) {
        List<RepetitionResult> reps = trial.repetitions();
        StringBuilder out = new StringBuilder();
        out.append(center(" Serving Benchmark Result ", '=')).append('\n');
        line(out, "Successful requests:", Numbers.count(ReportContent.mean(reps, r -> r.value(Metric.SUCCESSFUL_REQUESTS))));
        line(out, "Failed requests:", Numbers.count(ReportContent.mean(reps, r -> r.value(Metric.FAILED_REQUESTS))));
        if (trial.params().containsKey(WorkloadSetting.CONCURRENCY.key())) {
            line(out, "Maximum request concurrency:", trial.params().get(WorkloadSetting.CONCURRENCY.key()));
        }
        line(out, "Benchmark duration (s):", fixed(ReportContent.mean(reps, r -> r.value(Metric.DURATION))));
        line(out, "Total input tokens:", Numbers.count(ReportContent.mean(reps, r -> r.value(Metric.TOTAL_INPUT_TOKENS))));
        line(out, "Total generated tokens:", Numbers.count(ReportContent.mean(reps, r -> r.value(Metric.TOTAL_OUTPUT_TOKENS))));
        line(out, "Request throughput (req/s):", fixed(ReportContent.mean(reps, r -> r.value(Metric.REQUEST_THROUGHPUT))));
        line(out, "Output token throughput (tok/s):", fixed(ReportContent.mean(reps, r -> r.value(Metric.OUTPUT_THROUGHPUT))));
        line(out, "Peak output token throughput (tok/s):",
                fixed(ReportContent.mean(reps, r -> r.value(Metric.PEAK_OUTPUT_THROUGHPUT))));
        line(out, "Peak concurrent requests:", Numbers.count(ReportContent.mean(reps, r -> r.value(Metric.MAX_CONCURRENCY))));
        line(out, "Total Token throughput (tok/s):", fixed(ReportContent.mean(reps, r -> r.value(Metric.TOTAL_THROUGHPUT))));
        Map<String, Metric> sections = new LinkedHashMap<>();
        sections.put("Time to First Token", Metric.TTFT);
        sections.put("Time per Output Token (excl. 1st token)", Metric.TPOT);
        sections.put("Inter-token Latency", Metric.ITL);
        sections.put("End-to-end Latency", Metric.E2E_LATENCY);
        sections.forEach((title, metric) -> {
            out.append(center(title, '-')).append('\n');
            String name = metric == Metric.E2E_LATENCY ? "E2EL" : metric.label().substring(0, metric.label().indexOf(' '));
            double toMs = "s".equals(metric.unit()) ? 1000 : 1;
            for (Stat s : STATS) {
                double v = ReportContent.mean(reps, r -> r.number(metric, s)) * toMs;
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
}
