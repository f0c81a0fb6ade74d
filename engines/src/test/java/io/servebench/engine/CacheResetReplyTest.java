package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.results.PrefixCacheReset;
import io.servebench.wire.http.HttpServer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reset's answer is read, not only its status. vLLM's dev cache router answers 200 either way: an empty body up to
 * the 0.17 releases ({@code return Response(status_code=200)}, "we currently do not check if the prefix cache is
 * successfully reset", {@code vllm/entrypoints/serve/cache/api_router.py} at vllm-project/vllm 8a68046, lines 21-44),
 * then {@code return JSONResponse(content={"success": bool(success)})}, "the reset fails ({@code success=false}) while
 * blocks are still held" ({@code vllm/frontend/entrypoints/serve/dev/cache/api_router.py} at 055e47c). SGLang's
 * {@code /flush_cache} says it in the status, 200 or 400, with a plain-text body
 * ({@code python/sglang/srt/entrypoints/http_server.py}, v0.5.9 lines 710-719, v0.5.18 lines 966-981).
 */
class CacheResetReplyTest {

    @Test
    void aTwoHundredThatSaysNoSuccessIsNotAnEmptiedCache() throws Exception {
        try (HttpServer server = HttpServer.start("reset-reply", 0, 1, (request, responder) ->
                responder.send(200, "application/json", "{\"success\":false}".getBytes(StandardCharsets.UTF_8)))) {
            PrefixCacheReset reset = CacheReset.reset(EngineKinds.VLLM, new Endpoint(server.baseUri(), "m", null), null);
            assertThat(reset.outcome()).isEqualTo(PrefixCacheReset.Outcome.FAILED);
            assertThat(reset.detail()).isEqualTo("POST /reset_prefix_cache answered 200 {\"success\":false}");
        }
    }

    @Test
    void aFourHundredIsNotAnEmptiedCacheWhateverItsText() throws Exception {
        // SGLang 0.5.9 sends the same "Cache flushed." text with its 400
        try (HttpServer server = HttpServer.start("reset-reply", 0, 1, (request, responder) ->
                responder.send(400, "text/plain", "Cache flushed.\n".getBytes(StandardCharsets.UTF_8)))) {
            assertThat(CacheReset.reset(EngineKinds.SGLANG, new Endpoint(server.baseUri(), "m", null), null).detail())
                    .isEqualTo("POST /flush_cache answered 400");
        }
    }

    @Test
    void aTwoHundredThatSaysSuccessOrIsPlainTextIsAnEmptiedCache() throws Exception {
        try (HttpServer vllm = HttpServer.start("reset-reply", 0, 1, (request, responder) ->
                responder.send(200, "application/json", "{\"success\": true}".getBytes(StandardCharsets.UTF_8)));
             HttpServer sglang = HttpServer.start("reset-reply", 0, 1, (request, responder) ->
                     responder.send(200, "text/plain", ("Cache flushed.\nPlease check backend logs for more details. (When"
                             + " there are running or waiting requests, the operation will not be performed.)\n")
                             .getBytes(StandardCharsets.UTF_8)))) {
            assertThat(CacheReset.reset(EngineKinds.VLLM, new Endpoint(vllm.baseUri(), "m", null), null))
                    .isEqualTo(PrefixCacheReset.emptied("POST /reset_prefix_cache"));
            assertThat(CacheReset.reset(EngineKinds.SGLANG, new Endpoint(sglang.baseUri(), "m", null), null))
                    .isEqualTo(PrefixCacheReset.emptied("POST /flush_cache"));
        }
    }
}
