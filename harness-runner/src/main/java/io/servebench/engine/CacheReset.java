package io.servebench.engine;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Empties an engine's prefix cache between two trials on one server, so that one trial's cached
 * prompts do not speed up the next, with the {@code POST} its kind offers ({@link EngineKind#cacheResetPath()}).
 */
public final class CacheReset {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private CacheReset() {
    }

    /**
     * Resets the cache.
     *
     * @return what happened, for the run's output: "reset", or why not ("POST /flush_cache answered 404")
     */
    public static String reset(EngineKind kind, Endpoint endpoint) {
        Optional<String> path = kind.cacheResetPath();
        if (path.isEmpty()) {
            return "no cache reset: engine kind " + kind.name() + " offers none";
        }
        String base = endpoint.baseUri().toString();
        java.net.URI uri = java.net.URI.create((base.endsWith("/") ? base : base + "/") + path.get());
        try {
            HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() / 100 == 2 ? "reset" : "no cache reset: POST /" + path.get() + " answered " + r.statusCode();
        } catch (IOException e) {
            return "no cache reset: POST /" + path.get() + " failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "no cache reset: interrupted";
        }
    }
}
