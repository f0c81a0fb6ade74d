package io.servebench.results;

import io.servebench.measure.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-made results for the writer tests. */
public final class Fixtures {

    private Fixtures() {
    }

    /** A distribution with the given mean and stdev; its histogram has 3 buckets around the mean (1 below 4 samples). */
    public static Distribution dist(String unit, long count, double mean, double stdev) {
        long tail = count / 4;
        List<HistogramBucket> buckets = tail == 0 ? List.of(new HistogramBucket(mean, count))
                : List.of(new HistogramBucket(mean * 0.5, tail), new HistogramBucket(mean, count - 2 * tail),
                        new HistogramBucket(mean * 1.5, tail));
        return new Distribution(unit, count, mean, stdev, mean * 0.5, mean, mean * 1.4, mean * 1.45, mean * 1.5,
                mean * 1.5, mean * 1.5, buckets);
    }

    /** One repetition like the reference study's vLLM baseline, with the given mean latency and stdev (s). */
    public static RepetitionResult repetition(double meanLatencyS, double stdevS) {
        Map<String, Double> scalars = new LinkedHashMap<>();
        scalars.put(Metric.SUCCESSFUL_REQUESTS.id(), 1000.0);
        scalars.put(Metric.FAILED_REQUESTS.id(), 0.0);
        scalars.put(Metric.DURATION.id(), 130.18);
        scalars.put(Metric.TOTAL_INPUT_TOKENS.id(), 342058.0);
        scalars.put(Metric.TOTAL_OUTPUT_TOKENS.id(), 281412.0);
        scalars.put(Metric.REQUEST_THROUGHPUT.id(), 7.68);
        scalars.put(Metric.OUTPUT_THROUGHPUT.id(), 2197.17);
        scalars.put(Metric.PEAK_OUTPUT_THROUGHPUT.id(), 2650.0);
        scalars.put(Metric.TOTAL_THROUGHPUT.id(), 4867.84);
        scalars.put(Metric.MAX_CONCURRENCY.id(), 31.0);
        scalars.put(Metric.MEAN_CONCURRENCY.id(), 20.1);
        Map<String, Distribution> d = new LinkedHashMap<>();
        d.put(Metric.E2E_LATENCY.id(), dist("s", 1000, meanLatencyS, stdevS));
        d.put(Metric.TTFT.id(), dist("ms", 1000, 41.12, 20));
        d.put(Metric.TPOT.id(), dist("ms", 1000, 9.1, 1));
        d.put(Metric.ITL.id(), dist("ms", 280412, 9.0, 2));
        d.put(Metric.INTER_CHUNK_LATENCY.id(), dist("ms", 200000, 12.0, 5));
        return new RepetitionResult(scalars, d, 200000, 1234, Map.of("USAGE", 1000L), Map.of());
    }

    public static Map<String, String> params(String flags, String rate) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("engine", "vllm");
        p.put("model", "Qwen/Qwen3.5-9B");
        p.put("rate", rate);
        p.put("profile", "constant");
        p.put("requests", "1000");
        p.put(BlockResult.FLAGS, flags);
        return p;
    }

    public static final String CLASS = "io.servebench.study.VllmOptionGroups";
    public static final String BASE_FLAGS = "--reasoning-parser=qwen3 --max-model-len=32768";

    public static BlockResult trial(String variant, String group, boolean baseline, String flags, String rate,
                             List<RepetitionResult> reps) {
        return new BlockResult(CLASS + "." + variant, CLASS, variant, group, baseline, params(flags, rate),
                variant + "@" + rate, "server-" + flags.hashCode(), reps, null);
    }

    public static RunResult run(List<BlockResult> trials) {
        return new RunResult("2026-03-01T12:00:00Z", "0.1.0-SNAPSHOT", "servebench run --rate 8", EngineMode.SIMULATED, false, trials);
    }
}
