package io.servebench.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.servebench.results.ServerMetric;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ServerMetricsDeltaTest {

    private static final String BEFORE = """
            # HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.
            # TYPE vllm:spec_decode_num_drafts_total counter
            vllm:spec_decode_num_drafts_total{engine="0",model_name="m"} 100.0
            vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"} 100.0
            vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} 80.0
            vllm:prefix_cache_queries_total{engine="0",model_name="m"} 1000.0
            vllm:prefix_cache_hits_total{engine="0",model_name="m"} 0.0
            vllm:num_preemptions_total{engine="0",model_name="m"} 2.0
            vllm:time_to_first_token_seconds_bucket{engine="0",le="0.01",model_name="m"} 0.0
            vllm:time_to_first_token_seconds_bucket{engine="0",le="0.1",model_name="m"} 10.0
            vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="m"} 10.0
            vllm:time_to_first_token_seconds_count{engine="0",model_name="m"} 10.0
            vllm:time_to_first_token_seconds_sum{engine="0",model_name="m"} 0.5
            """;

    private static final String AFTER = """
            vllm:spec_decode_num_drafts_total{engine="0",model_name="m"} 300.0
            vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"} 300.0
            vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} 230.0 1700000000000
            vllm:prefix_cache_queries_total{engine="0",model_name="m"} 3000.0
            vllm:prefix_cache_hits_total{engine="0",model_name="m"} 500.0
            vllm:num_preemptions_total{engine="0",model_name="m"} 2.0
            vllm:time_to_first_token_seconds_bucket{engine="0",le="0.01",model_name="m"} 40.0
            vllm:time_to_first_token_seconds_bucket{engine="0",le="0.1",model_name="m"} 110.0
            vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="m"} 110.0
            vllm:time_to_first_token_seconds_count{engine="0",model_name="m"} 110.0
            vllm:time_to_first_token_seconds_sum{engine="0",model_name="m"} 3.5
            """;

    @Test
    void deltasOfVllmCounters() {
        Map<String, Double> d = ServerMetricsDelta.between(PrometheusSnapshot.parse(BEFORE), PrometheusSnapshot.parse(AFTER));
        // 150 accepted of 200 draft tokens in 200 drafts; 500 hits of 2000 queried tokens
        assertThat(d.get(ServerMetric.SPEC_DECODE_ACCEPTANCE_RATE.id())).isCloseTo(0.75, within(1e-12));
        assertThat(d.get(ServerMetric.SPEC_DECODE_ACCEPTANCE_LENGTH.id())).isCloseTo(1.75, within(1e-12));
        assertThat(d.get(ServerMetric.PREFIX_CACHE_HIT_RATE.id())).isCloseTo(0.25, within(1e-12));
        assertThat(d.get(ServerMetric.PREEMPTIONS.id())).isZero();
        // 100 new first tokens, 3.0 s in total: 30 ms mean
        assertThat(d.get(ServerMetric.TTFT_MEAN.id())).isCloseTo(30.0, within(1e-9));
        // delta buckets: 40 ≤ 10 ms, 60 in (10, 100] ms; the median (rank 50) is 1/6 into the second bucket
        assertThat(d.get(ServerMetric.TTFT_P50.id())).isCloseTo(10 + 90.0 / 6, within(1e-9));
        assertThat(d.get(ServerMetric.TTFT_P99.id())).isCloseTo(10 + 90 * 59.0 / 60, within(1e-9));
        // what the histogram knows of each: the bucket it lies in, (10, 100] ms
        assertThat(d.get(ServerMetric.bucketKey(ServerMetric.TTFT_P50, false))).isEqualTo(10.0);
        assertThat(d.get(ServerMetric.bucketKey(ServerMetric.TTFT_P99, true))).isEqualTo(100.0);
        // the engine does not export token totals here: absent, never 0
        assertThat(d).doesNotContainKeys(ServerMetric.PROMPT_TOKENS.id(), ServerMetric.GENERATION_TOKENS.id());
    }

    @Test
    void theSimulatedEnginesLatenessHistogramGivesTheLateShareAndP99() {
        String name = "servebench:sim_delivery_lateness_seconds";
        PrometheusSnapshot before = PrometheusSnapshot.parse(name + "_bucket{model_name=\"m\",le=\"0.001\"} 50.0\n"
                + name + "_bucket{model_name=\"m\",le=\"0.01\"} 50.0\n" + name + "_bucket{model_name=\"m\",le=\"+Inf\"} 50.0\n");
        PrometheusSnapshot after = PrometheusSnapshot.parse(name + "_bucket{model_name=\"m\",le=\"0.001\"} 140.0\n"
                + name + "_bucket{model_name=\"m\",le=\"0.01\"} 150.0\n" + name + "_bucket{model_name=\"m\",le=\"+Inf\"} 150.0\n");
        Map<String, Double> d = ServerMetricsDelta.between(before, after);
        // 100 writes in the repetition, 10 of them between 1 and 10 ms late: rank 99 is 9/10 into that bucket
        assertThat(d.get(ServerMetric.DELIVERY_LATE_SHARE.id())).isCloseTo(0.10, within(1e-12));
        assertThat(d.get(ServerMetric.DELIVERY_LATENESS_P99.id())).isCloseTo(1 + 9 * 0.9, within(1e-9));
        // a real engine has no such histogram: absent
        assertThat(ServerMetricsDelta.between(PrometheusSnapshot.parse(BEFORE), PrometheusSnapshot.parse(AFTER)))
                .doesNotContainKeys(ServerMetric.DELIVERY_LATE_SHARE.id(), ServerMetric.DELIVERY_LATENESS_P99.id());
    }

    @Test
    void aQuantileIsHeldToWhatTheHistogramsSumAllows() {
        String name = "servebench:sim_delivery_lateness_seconds";
        String empty = name + "_bucket{le=\"0.0001\"} 0.0\n" + name + "_bucket{le=\"0.001\"} 0.0\n"
                + name + "_bucket{le=\"+Inf\"} 0.0\n" + name + "_sum 0.0\n" + name + "_count 0.0\n";
        // the simulated engine in virtual time writes every event at its due time: 1000 values of 0
        String onTime = name + "_bucket{le=\"0.0001\"} 1000.0\n" + name + "_bucket{le=\"0.001\"} 1000.0\n"
                + name + "_bucket{le=\"+Inf\"} 1000.0\n" + name + "_sum 0.0\n" + name + "_count 1000.0\n";
        Map<String, Double> zero = ServerMetricsDelta.between(PrometheusSnapshot.parse(empty), PrometheusSnapshot.parse(onTime));
        assertThat(zero.get(ServerMetric.DELIVERY_LATENESS_P99.id())).isZero();
        // exact, not interpolated: its bucket is the one value 0
        assertThat(zero.get(ServerMetric.bucketKey(ServerMetric.DELIVERY_LATENESS_P99, true))).isZero();
        assertThat(zero.get(ServerMetric.DELIVERY_LATE_SHARE.id())).isZero();

        // 99 values of 0 and one of 50 us: the true P99 (the 99th of 100 in order) is 0; interpolation in the first
        // bucket says 99 us, the sum allows at most 50 us / 2
        String one = name + "_bucket{le=\"0.0001\"} 100.0\n" + name + "_bucket{le=\"0.001\"} 100.0\n"
                + name + "_bucket{le=\"+Inf\"} 100.0\n" + name + "_sum 0.00005\n" + name + "_count 100.0\n";
        assertThat(ServerMetricsDelta.between(PrometheusSnapshot.parse(empty), PrometheusSnapshot.parse(one))
                .get(ServerMetric.DELIVERY_LATENESS_P99.id())).isCloseTo(0.025, within(1e-12));

        // values drawn at random: the bound never goes below the true quantile, so the estimate is never lower than
        // interpolation or the truth, whichever is lower, and never higher than interpolation
        java.util.Random random = new java.util.Random(7);
        double[] bounds = {0.001, 0.005, 0.01, 0.05, 0.1, 1.0};
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + random.nextInt(300);
            double[] values = new double[n];
            double sum = 0;
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(4) == 0 ? 0 : Math.pow(random.nextDouble(), 3);
                sum += values[i];
            }
            java.util.Arrays.sort(values);
            TreeMap<Double, Double> cumulative = new TreeMap<>();
            for (double le : bounds) {
                cumulative.put(le, (double) java.util.Arrays.stream(values).filter(v -> v <= le).count());
            }
            cumulative.put(Double.POSITIVE_INFINITY, (double) n);
            for (double q : new double[] {0.5, 0.9, 0.99}) {
                double truth = values[(int) Math.ceil(q * n) - 1];
                java.util.OptionalDouble interpolated = ServerMetricsDelta.quantile(cumulative, q);
                java.util.OptionalDouble held = ServerMetricsDelta.quantile(cumulative, q, sum);
                assertThat(held.isPresent()).isEqualTo(interpolated.isPresent());
                if (held.isPresent()) {
                    assertThat(held.getAsDouble()).isLessThanOrEqualTo(interpolated.getAsDouble())
                            .isGreaterThanOrEqualTo(Math.min(truth, interpolated.getAsDouble()) - 1e-12);
                }
            }
        }
    }

    @Test
    void countsThatCannotBeOfTheLoadAreSaidSo() {
        String before = "vllm:generation_tokens_total{model_name=\"m\"} 50000.0\nvllm:prompt_tokens_total{model_name=\"m\"} 9000.0\n";
        // the client received 10,000 output tokens in its measured requests; warm-up requests add to the server's count
        Map<String, Double> served = ServerMetricsDelta.between(PrometheusSnapshot.parse(before), PrometheusSnapshot.parse(
                "vllm:generation_tokens_total{model_name=\"m\"} 60400.0\nvllm:prompt_tokens_total{model_name=\"m\"} 20000.0\n"));
        assertThat(ServerMetricsDelta.notOfThisLoad(served, java.util.OptionalDouble.of(10_000))).isEmpty();
        // a restart between the scrapes: the counter starts again from 0
        Map<String, Double> restarted = ServerMetricsDelta.between(PrometheusSnapshot.parse(before), PrometheusSnapshot.parse(
                "vllm:generation_tokens_total{model_name=\"m\"} 7000.0\nvllm:prompt_tokens_total{model_name=\"m\"} 3000.0\n"));
        assertThat(ServerMetricsDelta.notOfThisLoad(restarted, java.util.OptionalDouble.of(10_000))).hasValueSatisfying(
                why -> assertThat(why).contains("went back by").contains("it restarted, or another replica"));
        // another replica answered the second scrape, whose count grew by less than this load generated
        Map<String, Double> other = ServerMetricsDelta.between(PrometheusSnapshot.parse(before), PrometheusSnapshot.parse(
                "vllm:generation_tokens_total{model_name=\"m\"} 52000.0\nvllm:prompt_tokens_total{model_name=\"m\"} 9500.0\n"));
        assertThat(ServerMetricsDelta.notOfThisLoad(other, java.util.OptionalDouble.of(10_000))).hasValue("it counts 2000"
                + " tokens generated over the repetition where the client received 10000 in the measured requests alone (it"
                + " restarted, or another replica behind its address answered)");
        // nothing to check against: kept
        assertThat(ServerMetricsDelta.notOfThisLoad(Map.of(), java.util.OptionalDouble.of(10_000))).isEmpty();
    }

    @Test
    void ratiosWithoutADenominatorAreAbsent() {
        Map<String, Double> d = ServerMetricsDelta.between(PrometheusSnapshot.parse(AFTER), PrometheusSnapshot.parse(AFTER));
        assertThat(d).doesNotContainKeys(ServerMetric.SPEC_DECODE_ACCEPTANCE_RATE.id(),
                ServerMetric.PREFIX_CACHE_HIT_RATE.id(), ServerMetric.TTFT_MEAN.id());
        assertThat(d.get(ServerMetric.PREEMPTIONS.id())).isZero();
    }

    @Test
    void sglangNamesAndLabelSetsAreSummed() {
        PrometheusSnapshot after = PrometheusSnapshot.parse("""
                sglang:prompt_tokens_total{model_name="m",tp_rank="0"} 70
                sglang:prompt_tokens_total{model_name="m",tp_rank="1"} 30
                garbage line without value
                """);
        assertThat(ServerMetricsDelta.between(PrometheusSnapshot.parse(""), after).get(ServerMetric.PROMPT_TOKENS.id()))
                .isEqualTo(100.0);
    }

    /**
     * SGLang's names, as {@code TokenizerMetricsCollector} in {@code python/sglang/srt/metrics/collector.py} exports
     * them: {@code sglang:cached_tokens_total} by {@code cache_source} (device, host, storage) and
     * {@code sglang:prompt_tokens_total}; the hit rate is the cached share of the prompt tokens.
     */
    @Test
    void sglangsHitRateIsItsCachedShareOfThePromptTokens() {
        PrometheusSnapshot before = PrometheusSnapshot.parse("""
                sglang:prompt_tokens_total{model_name="m"} 1000.0
                sglang:cached_tokens_total{model_name="m",cache_source="device"} 200.0
                """);
        PrometheusSnapshot after = PrometheusSnapshot.parse("""
                sglang:prompt_tokens_total{model_name="m"} 3000.0
                sglang:cached_tokens_total{model_name="m",cache_source="device"} 1000.0
                sglang:cached_tokens_total{model_name="m",cache_source="host"} 100.0
                sglang:spec_accept_length{model_name="m"} 2.4
                """);
        Map<String, Double> d = ServerMetricsDelta.between(before, after);
        assertThat(d.get(ServerMetric.PREFIX_CACHE_HIT_RATE.id())).isCloseTo(0.45, within(1e-12));
        assertThat(d.get(ServerMetric.PROMPT_TOKENS.id())).isEqualTo(2000.0);
        // a gauge of SGLang's last logging interval is no count over the repetition
        assertThat(d).doesNotContainKeys(ServerMetric.SPEC_DECODE_ACCEPTANCE_LENGTH.id(),
                ServerMetric.SPEC_DECODE_ACCEPTANCE_RATE.id());
    }

    /**
     * SGLang's retractions are a Counter, {@code sglang:num_retracted_requests_total}, beside a gauge of the same count
     * at its last log, {@code sglang:num_retracted_reqs} ({@code python/sglang/srt/metrics/collector.py}, v0.5.9
     * lines 400-422; {@code observability/metrics_collector.py} in v0.5.18): the counter's growth is the block's
     * preemptions, the gauge is not read.
     */
    @Test
    void sglangsRetractionCounterIsItsPreemptions() {
        PrometheusSnapshot before = PrometheusSnapshot.parse("""
                sglang:num_retracted_requests_total{model_name="m"} 4.0
                sglang:num_retracted_reqs{model_name="m"} 4.0
                """);
        PrometheusSnapshot after = PrometheusSnapshot.parse("""
                sglang:num_retracted_requests_total{model_name="m"} 11.0
                sglang:num_retracted_reqs{model_name="m"} 2.0
                """);
        assertThat(ServerMetricsDelta.between(before, after).get(ServerMetric.PREEMPTIONS.id())).isEqualTo(7.0);
    }

    @Test
    void quantileInTheInfBucketIsAbsent() {
        TreeMap<Double, Double> buckets = new TreeMap<>(Map.of(0.1, 1.0, Double.POSITIVE_INFINITY, 10.0));
        assertThat(ServerMetricsDelta.quantile(buckets, 0.5)).isEmpty();
        assertThat(ServerMetricsDelta.quantile(buckets, 0.05)).hasValue(0.05);
    }

    @Test
    void anEngineWithoutMetricsIsANoteNotAFailure() {
        PrometheusScraper scraper = new PrometheusScraper();
        assertThat(scraper.scrape(null).problem()).isEqualTo("the engine has no Prometheus metrics endpoint");
        // a closed port on loopback: connection refused, reported as a problem
        PrometheusScraper.Result refused = scraper.scrape(URI.create("http://127.0.0.1:1/metrics"));
        assertThat(refused.snapshot()).isEmpty();
        assertThat(refused.problem()).startsWith("GET http://127.0.0.1:1/metrics failed");
    }
}
