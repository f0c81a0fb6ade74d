package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.results.PrefixCacheReset;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimHttp;
import io.servebench.sim.SimParams;
import io.servebench.sim.SimulatedEngine;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Both engines' cache resets, sent to the simulated engine, empty its prefix cache: its ground truth says so. */
class CacheResetOnTheSimulatedEngineTest {

    private static Endpoint endpoint(SimulatedEngine engine) {
        return new Endpoint(engine.baseUri(), engine.model(), engine.metricsUri());
    }

    @Test
    void resettingThePrefixCacheMakesTheNextPromptComputeItsPrefixAgain() throws IOException {
        List<String> flags = List.of("--max-model-len=4096", "--enable-prefix-caching",
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}");
        try (SimulatedEngine engine = SimulatedEngine.startRecording(
                SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", flags), 0, 12)) {
            String prompt = SimHttp.words(120, "cache");
            String body = SimHttp.chat(prompt, "\"max_tokens\":4,\"min_tokens\":4,\"stream\":true");
            assertThat(SimHttp.post(engine, "/v1/chat/completions", "r-0", body).status()).isEqualTo(200);
            assertThat(SimHttp.post(engine, "/v1/chat/completions", "r-1", body).status()).isEqualTo(200);
            assertThat(engine.groundTruth("r-1").orElseThrow().cachedPromptTokens()).isPositive();

            assertThat(CacheReset.reset(EngineKinds.VLLM, endpoint(engine), null))
                    .isEqualTo(PrefixCacheReset.emptied("POST /reset_prefix_cache"));
            assertThat(SimHttp.post(engine, "/v1/chat/completions", "r-2", body).status()).isEqualTo(200);
            assertThat(engine.groundTruth("r-2").orElseThrow().cachedPromptTokens()).isZero();
            // SGLang's spelling empties it too
            assertThat(CacheReset.reset(EngineKinds.SGLANG, endpoint(engine), null))
                    .isEqualTo(PrefixCacheReset.emptied("POST /flush_cache"));
        }
    }
}
