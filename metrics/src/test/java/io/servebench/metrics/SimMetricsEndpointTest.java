package io.servebench.metrics;

import io.servebench.results.ServerMetric;
import io.servebench.sim.GroundTruth;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimHttp;
import io.servebench.sim.SimParams;
import io.servebench.sim.SimulatedEngine;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulated engine's {@code /metrics}: vLLM's names and format, counters that agree with its ground truth. */
class SimMetricsEndpointTest {

    private static final String MODEL = "Qwen/Qwen3.5-9B";
    private static final List<String> FLAGS = List.of("--max-model-len=4096", "--enable-prefix-caching",
            "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}");

    /** What the engine's ground truth says of requests sent: their prompt tokens, and those found in the cache. */
    private record Sent(int promptTokens, int cachedTokens) {
    }

    /** Sends {@code n} chat requests of one 120-word prompt, each for exactly {@code tokens} tokens, ids PREFIX0... */
    private static Sent sendSharedPrompt(SimulatedEngine engine, String idPrefix, int n, int tokens) throws IOException {
        String prompt = SimHttp.words(120, "cache");
        int promptTokens = 0;
        int cached = 0;
        for (int i = 0; i < n; i++) {
            SimHttp.Reply reply = SimHttp.post(engine, "/v1/chat/completions", idPrefix + i, SimHttp.chat(prompt,
                    "\"max_tokens\":" + tokens + ",\"min_tokens\":" + tokens + ",\"stream\":true"));
            assertThat(reply.status()).isEqualTo(200);
            GroundTruth truth = engine.groundTruth(idPrefix + i).orElseThrow();
            promptTokens += truth.promptTokens();
            cached += truth.cachedPromptTokens();
        }
        return new Sent(promptTokens, cached);
    }

    @Test
    void countersAgreeWithWhatTheEngineDid() throws IOException {
        try (SimulatedEngine engine = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.VLLM, MODEL, FLAGS),
                0, 11)) {
            assertThat(engine.metricsUri()).isEqualTo(engine.baseUri().resolve("/metrics"));
            PrometheusScraper scraper = new PrometheusScraper();
            PrometheusSnapshot before = scraper.scrape(engine.metricsUri()).snapshot().orElseThrow();
            Sent sent = sendSharedPrompt(engine, "m-", 3, 20);
            int promptTokens = sent.promptTokens();
            int cached = sent.cachedTokens();
            SimHttp.Reply text = SimHttp.get(engine, "/metrics");
            assertThat(text.status()).isEqualTo(200);
            assertThat(text.body()).contains("# TYPE vllm:num_preemptions_total counter\n",
                    "# TYPE vllm:time_to_first_token_seconds histogram\n",
                    "vllm:time_to_first_token_seconds_bucket{model_name=\"Qwen/Qwen3.5-9B\",le=\"0.001\"}",
                    "vllm:time_to_first_token_seconds_bucket{model_name=\"Qwen/Qwen3.5-9B\",le=\"2560.0\"}",
                    "vllm:num_requests_running{model_name=\"Qwen/Qwen3.5-9B\"}",
                    "vllm:num_requests_waiting{model_name=\"Qwen/Qwen3.5-9B\"}");
            PrometheusSnapshot after = PrometheusSnapshot.parse(text.body());

            assertThat(after.value("vllm:generation_tokens_total")).hasValue(60.0);
            assertThat(after.value("vllm:prompt_tokens_total")).hasValue((double) promptTokens);
            assertThat(after.value("vllm:prefix_cache_queries_total")).hasValue((double) promptTokens);
            assertThat(after.value("vllm:prefix_cache_hits_total")).hasValue((double) cached);
            assertThat(cached).as("the second and third prompts reuse the first's blocks").isPositive();
            assertThat(after.value("vllm:time_to_first_token_seconds_count")).hasValue(3.0);
            double drafts = after.value("vllm:spec_decode_num_drafts_total").orElseThrow();
            assertThat(after.value("vllm:spec_decode_num_draft_tokens_total")).hasValue(2 * drafts);
            // 3 first tokens from prefill, then each drafting step gives 1 + its accepted tokens (capped at the end)
            double accepted = after.value("vllm:spec_decode_num_accepted_tokens_total").orElseThrow();
            assertThat(drafts + accepted).isGreaterThanOrEqualTo(57);

            Map<String, Double> delta = ServerMetricsDelta.between(before, after);
            assertThat(delta.get(ServerMetric.SPEC_DECODE_ACCEPTANCE_RATE.id())).isEqualTo(accepted / (2 * drafts));
            assertThat(delta.get(ServerMetric.SPEC_DECODE_ACCEPTANCE_LENGTH.id())).isEqualTo(1 + accepted / drafts);
            assertThat(delta.get(ServerMetric.PREFIX_CACHE_HIT_RATE.id())).isEqualTo((double) cached / promptTokens);
            assertThat(delta.get(ServerMetric.PREEMPTIONS.id())).isZero();
            assertThat(delta).containsKeys(ServerMetric.TTFT_MEAN.id(), ServerMetric.TTFT_P50.id());
        }
    }

    /**
     * Standing for SGLang, the engine exports what SGLang does (names from {@code python/sglang/srt/metrics/collector.py}):
     * no vLLM names, no preemption or speculative-decoding counters, the hit rate from cached over prompt tokens.
     */
    @Test
    void asSglangItExportsSglangsNamesAndOnlyWhatSglangCounts() throws IOException {
        List<String> flags = List.of("--context-length=4096", "--speculative-algorithm=NEXTN", "--speculative-num-steps=2",
                "--speculative-eagle-topk=1", "--speculative-num-draft-tokens=3");
        try (SimulatedEngine engine = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.SGLANG, MODEL, flags),
                0, 13)) {
            PrometheusSnapshot before = new PrometheusScraper().scrape(engine.metricsUri()).snapshot().orElseThrow();
            Sent sent = sendSharedPrompt(engine, "g-", 2, 8);
            int promptTokens = sent.promptTokens();
            int cached = sent.cachedTokens();
            String text = SimHttp.get(engine, "/metrics").body();
            assertThat(text).contains("sglang:num_running_reqs{model_name=", "sglang:num_queue_reqs{model_name=",
                    "sglang:cached_tokens_total{model_name=\"Qwen/Qwen3.5-9B\",cache_source=\"device\"}",
                    "sglang:num_retracted_requests_total{model_name=")
                    .doesNotContain("vllm:", "spec_decode", "preemption");
            PrometheusSnapshot after = PrometheusSnapshot.parse(text);
            assertThat(after.value("sglang:generation_tokens_total")).hasValue(16.0);
            assertThat(cached).as("the radix cache is on by default").isPositive();
            Map<String, Double> delta = ServerMetricsDelta.between(before, after);
            assertThat(delta.get(ServerMetric.PREFIX_CACHE_HIT_RATE.id())).isEqualTo((double) cached / promptTokens);
            // its retractions (a counter) are its preemptions: none in so small a load
            assertThat(delta.get(ServerMetric.PREEMPTIONS.id())).isZero();
            assertThat(delta).containsKeys(ServerMetric.TTFT_MEAN.id()).doesNotContainKeys(
                    ServerMetric.SPEC_DECODE_ACCEPTANCE_RATE.id());
        }
    }
}
