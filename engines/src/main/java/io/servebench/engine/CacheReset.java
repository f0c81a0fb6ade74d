package io.servebench.engine;

import io.servebench.engine.kind.EngineKind;
import io.servebench.results.PrefixCacheReset;
import io.servebench.wire.http.ControlClient;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Empties an engine's prefix cache before a load, so that an earlier load's cached prompts do not speed up the next,
 * with the {@code POST} its kind offers ({@link EngineKind#cacheResetPath()}).
 */
final class CacheReset {

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final ControlClient HTTP = new ControlClient(Duration.ofSeconds(5));

    private CacheReset() {
    }

    /**
     * Resets the cache, once, with {@code apiKey} as a bearer token when not {@code null}.
     *
     * @return whether the engine confirmed it (a 2xx answer whose JSON body, if any, has no {@code "success": false}),
     * and how or why not ("POST /flush_cache answered 400", "POST /reset_prefix_cache answered 200 {"success": false}")
     */
    public static PrefixCacheReset reset(EngineKind kind, Endpoint endpoint, String apiKey) {
        Optional<String> path = kind.cacheResetPath();
        if (path.isEmpty()) {
            return PrefixCacheReset.notOffered("engine kind " + kind.name() + " offers no reset");
        }
        String base = endpoint.baseUri().toString();
        java.net.URI uri = java.net.URI.create((base.endsWith("/") ? base : base + "/") + path.get());
        try {
            ControlClient.Reply r = HTTP.post(uri, ControlClient.withBearer(Map.of(), apiKey), new byte[0], Duration.ofSeconds(30));
            String post = "POST /" + path.get();
            if (!r.ok()) {
                return PrefixCacheReset.failed(post + " answered " + r.status());
            }
            // vLLM 0.26 answers 200 {"success": false} while requests still hold blocks (its dev cache router):
            // a 2xx is a success only when the body does not say otherwise
            return refused(r.text()) ? PrefixCacheReset.failed(post + " answered " + r.status() + " " + r.text().strip())
                    : PrefixCacheReset.emptied(post);
        } catch (IOException e) {
            return PrefixCacheReset.failed("POST /" + path.get() + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PrefixCacheReset.failed("POST /" + path.get() + " was interrupted");
        }
    }

    /** Whether a 2xx body is a JSON object whose {@code success} is {@code false}. */
    static boolean refused(String body) {
        try {
            com.fasterxml.jackson.databind.JsonNode json = JSON.readTree(body);
            return json != null && json.isObject() && json.path("success").isBoolean() && !json.get("success").asBoolean();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // SGLang answers its flush in plain text, whose status says it all
            return false;
        }
    }
}
