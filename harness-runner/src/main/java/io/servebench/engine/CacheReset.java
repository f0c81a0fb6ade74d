package io.servebench.engine;

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
public final class CacheReset {

    private static final ControlClient HTTP = new ControlClient(Duration.ofSeconds(5));

    private CacheReset() {
    }

    /**
     * Resets the cache, once, with {@code apiKey} as a bearer token when not {@code null}.
     *
     * @return whether the engine confirmed it (a 2xx answer), and how or why not ("POST /flush_cache answered 400")
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
            return r.ok() ? PrefixCacheReset.emptied(post) : PrefixCacheReset.failed(post + " answered " + r.status());
        } catch (IOException e) {
            return PrefixCacheReset.failed("POST /" + path.get() + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PrefixCacheReset.failed("POST /" + path.get() + " was interrupted");
        }
    }
}
