package io.servebench.metrics;

import io.servebench.results.ServerMetric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Turns a scrape before and a scrape after a repetition into {@link ServerMetric} values. Counters are
 * read under vLLM's names, or SGLang's ({@code sglang:}) where the same counter exists; SGLang's prefix-cache hit
 * rate comes from its own counters. A ratio is left out when its denominator did not grow (nothing to divide), a
 * counter when the engine does not export it, so an engine without a metric never reports it as 0. SGLang's
 * speculative acceptance ({@code sglang:spec_accept_length}, {@code sglang:spec_accept_rate}) is a gauge of its last
 * logging interval, not a count over the repetition, so it is not reported; its retractions, a counter, are its
 * preemptions.
 */
public final class ServerMetricsDelta {

    private static final List<String> PREFIXES = List.of("vllm:", "sglang:");
    private static final String TTFT = "time_to_first_token_seconds";
    /** The simulated engine's lateness histogram (its own name: no real engine has it). */
    private static final String SIM_LATENESS = "servebench:sim_delivery_lateness_seconds";

    /**
     * Share of the output tokens the client received in the measured requests below which an engine's own count of the
     * tokens it generated over the repetition cannot be of that load (its counters went back when it restarted, or the
     * second scrape reached another replica behind one address). A little room is left for a count an engine records
     * after it answered.
     */
    public static final double COVERED_SHARE = 0.9;

    private ServerMetricsDelta() {
    }

    /**
     * Why the engine's figures from {@link #between} cannot describe the load whose measured requests the client got
     * {@code clientOutputTokens} output tokens in, or empty when they can (or its count is not exported to check): a
     * counter that went back, or fewer generated tokens than the client received.
     */
    public static Optional<String> notOfThisLoad(Map<String, Double> server, OptionalDouble clientOutputTokens) {
        Optional<String> wentBack = server.entrySet().stream().filter(e -> e.getValue() < 0)
                .map(e -> "its " + e.getKey() + " went back by " + Math.round(-e.getValue()) + " over the repetition")
                .findFirst();
        if (wentBack.isPresent()) {
            return wentBack.map(why -> why + " (it restarted, or another replica behind its address answered)");
        }
        Double generated = server.get(ServerMetric.GENERATION_TOKENS.id());
        if (generated == null || clientOutputTokens.isEmpty() || generated >= COVERED_SHARE * clientOutputTokens.getAsDouble()) {
            return Optional.empty();
        }
        return Optional.of(String.format(java.util.Locale.ROOT, "it counts %d tokens generated over the"
                + " repetition where the client received %d in the measured requests alone (it restarted, or another"
                + " replica behind its address answered)", Math.round(generated), Math.round(clientOutputTokens.getAsDouble())));
    }

    /** The metrics the two scrapes allow, keyed by {@link ServerMetric#id()}. */
    public static Map<String, Double> between(PrometheusSnapshot before, PrometheusSnapshot after) {
        Map<String, Double> out = new LinkedHashMap<>();
        OptionalDouble drafts = delta(before, after, "spec_decode_num_drafts_total");
        OptionalDouble draftTokens = delta(before, after, "spec_decode_num_draft_tokens_total");
        OptionalDouble accepted = delta(before, after, "spec_decode_num_accepted_tokens_total");
        if (accepted.isPresent() && draftTokens.isPresent() && draftTokens.getAsDouble() > 0) {
            out.put(ServerMetric.SPEC_DECODE_ACCEPTANCE_RATE.id(), accepted.getAsDouble() / draftTokens.getAsDouble());
        }
        if (accepted.isPresent() && drafts.isPresent() && drafts.getAsDouble() > 0) {
            out.put(ServerMetric.SPEC_DECODE_ACCEPTANCE_LENGTH.id(), 1 + accepted.getAsDouble() / drafts.getAsDouble());
        }
        OptionalDouble queries = delta(before, after, "prefix_cache_queries_total");
        OptionalDouble hits = delta(before, after, "prefix_cache_hits_total");
        if (queries.isEmpty() || hits.isEmpty()) {
            // SGLang has no query/hit counters; it counts the prompt tokens it found cached (by cache source, summed
            // here) beside all prompt tokens, both per finished request (TokenizerMetricsCollector,
            // python/sglang/srt/metrics/collector.py): the same share of prompt tokens served from the cache
            hits = deltaOf(before, after, "sglang:cached_tokens_total");
            queries = deltaOf(before, after, "sglang:prompt_tokens_total");
        }
        if (queries.isPresent() && hits.isPresent() && queries.getAsDouble() > 0) {
            out.put(ServerMetric.PREFIX_CACHE_HIT_RATE.id(), hits.getAsDouble() / queries.getAsDouble());
        }
        OptionalDouble preemptions = delta(before, after, "num_preemptions_total");
        if (preemptions.isEmpty()) {
            // SGLang's preemption is its retraction (running requests sent back to the queue when the KV cache runs
            // out), counted by sglang:num_retracted_requests_total, a Counter (python/sglang/srt/metrics/collector.py,
            // v0.5.9 lines 400-422; sglang:num_retracted_reqs beside it is a gauge)
            preemptions = deltaOf(before, after, "sglang:num_retracted_requests_total");
        }
        preemptions.ifPresent(v -> out.put(ServerMetric.PREEMPTIONS.id(), v));
        delta(before, after, "prompt_tokens_total").ifPresent(v -> out.put(ServerMetric.PROMPT_TOKENS.id(), v));
        delta(before, after, "generation_tokens_total").ifPresent(v -> out.put(ServerMetric.GENERATION_TOKENS.id(), v));
        ttft(before, after, out);
        lateness(before, after, out);
        return out;
    }

    private static void ttft(PrometheusSnapshot before, PrometheusSnapshot after, Map<String, Double> out) {
        OptionalDouble count = delta(before, after, TTFT + "_count");
        OptionalDouble sum = delta(before, after, TTFT + "_sum");
        if (count.isEmpty() || sum.isEmpty() || count.getAsDouble() <= 0) {
            return;
        }
        out.put(ServerMetric.TTFT_MEAN.id(), 1000 * sum.getAsDouble() / count.getAsDouble());
        TreeMap<Double, Double> buckets = bucketDelta(before, after);
        if (buckets.isEmpty()) {
            return;
        }
        double total = sum.getAsDouble();
        putQuantile(out, ServerMetric.TTFT_P50, buckets, 0.50, total);
        putQuantile(out, ServerMetric.TTFT_P90, buckets, 0.90, total);
        putQuantile(out, ServerMetric.TTFT_P99, buckets, 0.99, total);
    }

    /**
     * The {@code q}-quantile in ms under {@code metric}'s id, with the bucket it lies in beside it
     * ({@link ServerMetric#bucketKey}): what the histogram knows of it; the value between is interpolation.
     */
    private static void putQuantile(Map<String, Double> out, ServerMetric metric, TreeMap<Double, Double> buckets,
                                    double q, double sum) {
        quantile(buckets, q, sum).ifPresent(v -> {
            RankBucket b = rankBucket(buckets, q).orElseThrow();
            double high = Math.min(b.high(), atMost(buckets, q, sum));
            out.put(metric.id(), 1000 * v);
            out.put(ServerMetric.bucketKey(metric, false), 1000 * Math.min(b.low(), high));
            out.put(ServerMetric.bucketKey(metric, true), 1000 * high);
        });
    }

    /**
     * The bucket of a cumulative histogram that holds a quantile's rank: its bounds ({@code 0} below the first) and the
     * counts at them.
     */
    private record RankBucket(double rank, double low, double lowCount, double high, double highCount) {

        /** The rank's value by linear interpolation within the bucket, as Prometheus' {@code histogram_quantile}. */
        double interpolated() {
            double inBucket = highCount - lowCount;
            double fraction = inBucket > 0 ? (rank - lowCount) / inBucket : 1;
            return low + (high - low) * fraction;
        }
    }

    /** The bucket holding the {@code q}-quantile's rank; empty when there are no counts. */
    private static Optional<RankBucket> rankBucket(TreeMap<Double, Double> cumulative, double q) {
        double total = cumulative.lastEntry().getValue();
        if (!(total > 0)) {
            return Optional.empty();
        }
        double rank = q * total;
        double lowerBound = 0;
        double lowerCount = 0;
        for (Entry<Double, Double> e : cumulative.entrySet()) {
            if (e.getValue() >= rank) {
                return Optional.of(new RankBucket(rank, lowerBound, lowerCount, e.getKey(), e.getValue()));
            }
            lowerBound = e.getKey();
            lowerCount = e.getValue();
        }
        return Optional.empty();
    }

    private static void lateness(PrometheusSnapshot before, PrometheusSnapshot after, Map<String, Double> out) {
        TreeMap<Double, Double> buckets = bucketDelta(before, after, SIM_LATENESS);
        if (buckets.isEmpty() || !(buckets.lastEntry().getValue() > 0)) {
            return;
        }
        double total = buckets.lastEntry().getValue();
        Double onTime = buckets.get(ServerMetric.LATE_MS / 1000);
        if (onTime != null) {
            out.put(ServerMetric.DELIVERY_LATE_SHARE.id(), (total - onTime) / total);
        }
        OptionalDouble sum = deltaOf(before, after, SIM_LATENESS + "_sum");
        putQuantile(out, ServerMetric.DELIVERY_LATENESS_P99, buckets, 0.99, sum.orElse(Double.NaN));
    }

    private static TreeMap<Double, Double> bucketDelta(PrometheusSnapshot before, PrometheusSnapshot after) {
        for (String prefix : PREFIXES) {
            TreeMap<Double, Double> d = bucketDelta(before, after, prefix + TTFT);
            if (!d.isEmpty()) {
                return d;
            }
        }
        return new TreeMap<>();
    }

    /** The growth of each cumulative bucket of histogram {@code name}; empty when the after-scrape lacks it. */
    private static TreeMap<Double, Double> bucketDelta(PrometheusSnapshot before, PrometheusSnapshot after, String name) {
        TreeMap<Double, Double> a = after.buckets(name);
        TreeMap<Double, Double> b = before.buckets(name);
        TreeMap<Double, Double> d = new TreeMap<>();
        a.forEach((le, count) -> d.put(le, count - b.getOrDefault(le, 0.0)));
        return d;
    }

    /**
     * {@link #quantile(TreeMap, double)}, held to the most the {@code q}-quantile of non-negative values can be given
     * their {@code sum}: the values from the quantile's rank {@code k = ceil(q * n)} up are each at least the quantile,
     * so it is at most {@code sum / (n - k + 1)}. Interpolation alone can exceed it: values all 0 (the simulated
     * engine's lateness in virtual time) would otherwise read as 99% of the first bucket's bound at P99, not 0.
     */
    static OptionalDouble quantile(TreeMap<Double, Double> cumulative, double q, double sum) {
        OptionalDouble interpolated = quantile(cumulative, q);
        return interpolated.isEmpty() ? interpolated
                : OptionalDouble.of(Math.min(interpolated.getAsDouble(), atMost(cumulative, q, sum)));
    }

    /** The most the {@code q}-quantile of non-negative values with this {@code sum} can be; infinite without a sum. */
    private static double atMost(TreeMap<Double, Double> cumulative, double q, double sum) {
        if (!(sum >= 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double n = cumulative.lastEntry().getValue();
        return sum / (n - Math.max(1, Math.ceil(q * n)) + 1);
    }

    /**
     * The {@code q}-quantile of cumulative bucket counts, as Prometheus' {@code histogram_quantile}:
     * linear within the bucket that holds the rank, the first bucket starting at 0; empty when the rank
     * falls in the {@code +Inf} bucket (no upper bound to interpolate to) or there are no counts.
     */
    static OptionalDouble quantile(TreeMap<Double, Double> cumulative, double q) {
        return rankBucket(cumulative, q).filter(b -> Double.isFinite(b.high()))
                .map(b -> OptionalDouble.of(b.interpolated())).orElse(OptionalDouble.empty());
    }

    /** {@code after − before} of a counter under the first prefix the after-scrape has it; empty when absent. */
    private static OptionalDouble delta(PrometheusSnapshot before, PrometheusSnapshot after, String suffix) {
        for (String prefix : PREFIXES) {
            OptionalDouble d = deltaOf(before, after, prefix + suffix);
            if (d.isPresent()) {
                return d;
            }
        }
        return OptionalDouble.empty();
    }

    /** {@code after − before} of counter {@code name}; empty when the after-scrape lacks it. */
    private static OptionalDouble deltaOf(PrometheusSnapshot before, PrometheusSnapshot after, String name) {
        OptionalDouble a = after.value(name);
        // a counter missing before (created lazily by the engine) started from 0
        return a.isPresent() ? OptionalDouble.of(a.getAsDouble() - before.value(name).orElse(0)) : OptionalDouble.empty();
    }
}
