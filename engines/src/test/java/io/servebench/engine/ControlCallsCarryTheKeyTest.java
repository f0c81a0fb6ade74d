package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.results.PrefixCacheReset;
import io.servebench.truth.ReceivedRequest;
import io.servebench.truth.Script;
import io.servebench.truth.TruthServer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An engine started with {@code --api-key} refuses control calls without the key: SGLang's API-key middleware
 * exempts only {@code /health} and {@code /metrics} ({@code add_api_key_middleware} in SGLang's {@code srt/utils}), so its
 * {@code /flush_cache} and {@code /version} answer 401. The calls are sent to the ground-truth server, which keeps
 * each request as it arrived (it answers 404 to both paths; the headers are what is checked).
 */
class ControlCallsCarryTheKeyTest {

    @Test
    void theCacheResetAndTheVersionQueryCarryTheBearerToken() throws Exception {
        try (TruthServer server = TruthServer.start(Script.defaults(), 0)) {
            Endpoint endpoint = new Endpoint(server.baseUri(), "m", null);
            PrefixCacheReset reset = CacheReset.reset(EngineKinds.SGLANG, endpoint, "sk-control");
            assertThat(reset.outcome()).isEqualTo(PrefixCacheReset.Outcome.FAILED);
            EnvironmentCapture.capture("s01", "sglang", "m", "", List.of(), endpoint, "sk-control", "0.1.0");

            List<ReceivedRequest> received = server.requests();
            assertThat(received).extracting(ReceivedRequest::path).containsExactly("/flush_cache", "/version");
            assertThat(received).allSatisfy(r -> assertThat(r.headers()).containsEntry("authorization", "Bearer sk-control"));
        }
    }

    @Test
    void withoutAKeyNoAuthorizationIsSent() throws Exception {
        try (TruthServer server = TruthServer.start(Script.defaults(), 0)) {
            CacheReset.reset(EngineKinds.VLLM, new Endpoint(server.baseUri(), "m", null), null);
            assertThat(server.requests().get(0).path()).isEqualTo("/reset_prefix_cache");
            assertThat(server.requests().get(0).headers()).doesNotContainKey("authorization");
        }
    }
}
