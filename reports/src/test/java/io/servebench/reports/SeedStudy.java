package io.servebench.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.Distribution;
import io.servebench.results.HistogramBucket;
import io.servebench.results.RepetitionResult;
import io.servebench.results.RunResult;
import io.servebench.results.ServeCommand;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference study's 18 published result blocks ({@code seed-study/results.json} in the test
 * resources, a copy of {@code shared/seed-study/results.json}) as {@link BlockResult}s, one repetition each.
 *
 * <p>Labels map to metrics by {@link Metric#label()}: a scalar's label is the key itself, a
 * distribution's is "Mean/Median/P95/P99 " + its label. "Maximum request concurrency" has no metric
 * (it is the closed-loop limit, a param; the reference repeats its peak there) and is skipped.
 *
 * <p>Exact from the file: every scalar, and each distribution's mean, median, P95 and P99.
 * Not in the file, and so NaN (shown as absent): stdev, min, P90, P99.9 and max. Approximated:
 * sample counts (latency, TTFT and TPOT: the successful requests; ITL: generated tokens minus
 * requests, one gap per token after the first) and the histogram, which is built from the four
 * stated quantiles alone (50% of samples at the median, 45% at P95, 5% at P99), so a CDF drawn from
 * it is a staircase through the stated points, not the measured curve.
 *
 * <p>Blocks of the steps 1 and 2 groups become study {@code LatencyTuning} (vLLM baseline the
 * {@code @Baseline}); the {@code rate-N} blocks become {@code RateValidation} with its "optimized"
 * variant {@code @Recommended}, as in the benchmarks module. Identical engine flags at an identical
 * rate share one trial id, as the runner measures them once. The recommended blocks carry the reference's
 * step 3 serve command (STUDY.md), as the engine layer spells it for a run: quoted for a POSIX shell.
 */
final class SeedStudy {

    static final String TUNING = "io.servebench.benchmarks.qwen.LatencyTuning";
    static final String VALIDATION = "io.servebench.benchmarks.qwen.RateValidation";

    /** STUDY.md's step 3 command, the recommendation of the reference study. */
    static final ServeCommand RECOMMENDED_COMMAND = new ServeCommand("vllm serve Qwen/Qwen3.5-9B --reasoning-parser=qwen3"
            + " --max-model-len=32768 '--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}'"
            + " --language-model-only --performance-mode=interactivity", "vLLM", false);

    private SeedStudy() {
    }

    static RunResult load() throws IOException {
        JsonNode root;
        try (InputStream in = SeedStudy.class.getResourceAsStream("/seed-study/results.json")) {
            root = new ObjectMapper().readTree(in);
        }
        List<BlockResult> trials = new ArrayList<>();
        for (JsonNode block : root.get("trials")) {
            trials.add(trial(root.get("model").asText(), block));
        }
        return new RunResult("2026-03-01T00:00:00Z", "reference study", "(published results, not a ServeBench run)", io.servebench.results.EngineMode.DECLARED,
                false, trials);
    }

    private static BlockResult trial(String model, JsonNode block) {
        String group = block.get("group").asText();
        String engine = block.get("engine").asText();
        boolean validation = group.startsWith("rate-");
        String seedVariant = block.get("variant").asText();
        String variant = validation ? ("optimized".equals(seedVariant) ? "recommended" : seedVariant)
                : "engine-selection".equals(group) ? engine : seedVariant;
        boolean baseline = "baseline".equals(seedVariant) && "vllm".equals(engine);
        List<String> flags = new ArrayList<>();
        block.get("flags").forEach(f -> flags.add(f.asText()));
        String rate = block.get("request_rate").asText();
        Map<String, String> params = new LinkedHashMap<>();
        params.put("engine", engine);
        params.put("model", model);
        params.put("dataset", block.get("dataset").asText());
        params.put("profile", block.get("profile").asText());
        params.put("rate", rate);
        params.put("requests", block.get("total_requests").asText());
        params.put(BlockResult.FLAGS, String.join(" ", flags));
        String className = validation ? VALIDATION : TUNING;
        String server = engine + ":" + flags.stream().sorted().toList();
        boolean recommended = validation && "recommended".equals(variant);
        return new BlockResult(className + "." + variant, className, variant, validation ? "rate-validation" : group,
                baseline, params, server + "@" + rate, server, List.of(metrics(block.get("metrics"))), null, recommended,
                recommended ? RECOMMENDED_COMMAND : null);
    }

    private static RepetitionResult metrics(JsonNode labelled) {
        double requests = labelled.get(Metric.SUCCESSFUL_REQUESTS.label()).asDouble();
        double tokens = labelled.get(Metric.TOTAL_OUTPUT_TOKENS.label()).asDouble();
        Map<String, Double> scalars = new LinkedHashMap<>();
        Map<String, Distribution> distributions = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            if (m.kind() == Metric.Kind.SCALAR) {
                if (labelled.has(m.label())) {
                    scalars.put(m.id(), labelled.get(m.label()).asDouble());
                }
            } else if (labelled.has(m.label(Stat.MEAN))) {
                long count = (long) (m == Metric.ITL ? tokens - requests : requests);
                distributions.put(m.id(), distribution(m, labelled, count));
            }
        }
        return new RepetitionResult(scalars, distributions, 0, 0, Map.of(), Map.of());
    }

    private static Distribution distribution(Metric m, JsonNode labelled, long count) {
        double p50 = labelled.get(m.label(Stat.MEDIAN)).asDouble();
        double p95 = labelled.get(m.label(Stat.P95)).asDouble();
        double p99 = labelled.get(m.label(Stat.P99)).asDouble();
        long atMedian = count / 2;
        long atP95 = Math.round(count * 0.45);
        List<HistogramBucket> histogram = List.of(new HistogramBucket(p50, atMedian), new HistogramBucket(p95, atP95),
                new HistogramBucket(p99, count - atMedian - atP95));
        return new Distribution(m.unit(), count, labelled.get(m.label(Stat.MEAN)).asDouble(), Double.NaN, Double.NaN,
                p50, Double.NaN, p95, p99, Double.NaN, Double.NaN, histogram);
    }
}
