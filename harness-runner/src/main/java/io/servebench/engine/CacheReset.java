package io.servebench.engine;

import io.servebench.results.PrefixCacheReset;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Empties an engine's prefix cache before a load, so that an earlier load's cached prompts do not speed up the next,
 * with the {@code POST} its kind offers ({@link EngineKind#cacheResetPath()}).
 */
public final class CacheReset {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private CacheReset() {
    }

    /**
     * Resets the cache, once.
     *
     * @return whether the engine confirmed it (a 2xx answer), and how or why not ("POST /flush_cache answered 400")
     */
    public static PrefixCacheReset reset(EngineKind kind, Endpoint endpoint) {
        Optional<String> path = kind.cacheResetPath();
        if (path.isEmpty()) {
            return PrefixCacheReset.notOffered("engine kind " + kind.name() + " offers no reset");
        }
        String base = endpoint.baseUri().toString();
        java.net.URI uri = java.net.URI.create((base.endsWith("/") ? base : base + "/") + path.get());
        try {
            HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            String post = "POST /" + path.get();
            return r.statusCode() / 100 == 2 ? PrefixCacheReset.emptied(post)
                    : PrefixCacheReset.failed(post + " answered " + r.statusCode());
        } catch (IOException e) {
            return PrefixCacheReset.failed("POST /" + path.get() + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PrefixCacheReset.failed("POST /" + path.get() + " was interrupted");
        }
    }
}
