package io.servebench.engine;

import io.servebench.wire.http.ControlClient;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Waits until an engine can serve: the health endpoint answers 200, then the model list names the
 * model, then one tiny completion succeeds (the first request often compiles kernels or allocates the
 * KV cache; a trial should not pay for that). Each step is retried until the deadline.
 */
final class Readiness {

    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration MAX_POLL = Duration.ofSeconds(2);

    private final ControlClient http = new ControlClient(Duration.ofSeconds(2));
    private final URI base;
    private final String model;
    private final String apiKey;

    /**
     * @param apiKey sent as a bearer token when the server wants one; {@code null} for none
     */
    Readiness(URI base, String model, String apiKey) {
        this.base = base;
        this.model = model;
        this.apiKey = apiKey;
    }

    /**
     * Returns when the engine is ready.
     *
     * @param stillRunning says why waiting is pointless (the process exited), {@code null} while it runs
     * @throws EngineStartException when {@code stillRunning} reports a reason or the timeout passes; the
     *                              message says which step was last reached
     */
    void await(Duration timeout, Supplier<String> stillRunning) throws EngineStartException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String step = "health";
        String last = "no answer yet";
        Duration pause = POLL;
        while (true) {
            String exited = stillRunning.get();
            if (exited != null) {
                throw new EngineStartException(exited + " before it was ready (waiting for " + step + ": " + last + ")");
            }
            try {
                switch (step) {
                    case "health" -> {
                        ControlClient.Reply r = get("/health", deadline);
                        last = "GET /health answered " + r.status();
                        if (r.status() == 200) {
                            step = "model list";
                            continue;
                        }
                    }
                    case "model list" -> {
                        ControlClient.Reply r = get("/v1/models", deadline);
                        last = "GET /v1/models answered " + r.status();
                        if (r.status() == 200 && r.text().contains("\"" + model + "\"")) {
                            step = "a first completion";
                            continue;
                        }
                        if (r.status() == 200) {
                            last = "GET /v1/models does not list \"" + model + "\": " + abbreviate(r.text());
                        }
                    }
                    default -> {
                        ControlClient.Reply r = post("/v1/completions", "{\"model\":" + jsonString(model)
                                + ",\"prompt\":\"Hello\",\"max_tokens\":1,\"stream\":false}", deadline);
                        last = "POST /v1/completions answered " + r.status() + ": " + abbreviate(r.text());
                        if (r.status() == 200) {
                            return;
                        }
                    }
                }
            } catch (IOException e) {
                last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EngineStartException("interrupted while waiting for the engine's " + step);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new EngineStartException("not ready after " + timeout.toSeconds() + " s (waiting for " + step
                        + ": " + last + ")");
            }
            sleep(pause);
            pause = pause.multipliedBy(2).compareTo(MAX_POLL) > 0 ? MAX_POLL : pause.multipliedBy(2);
        }
    }

    private ControlClient.Reply get(String path, long deadline) throws IOException, InterruptedException {
        return http.get(base.resolve(path), headers(Map.of()), left(deadline));
    }

    private ControlClient.Reply post(String path, String json, long deadline) throws IOException, InterruptedException {
        return http.post(base.resolve(path), headers(Map.of("Content-Type", "application/json")),
                json.getBytes(StandardCharsets.UTF_8), left(deadline));
    }

    /** A request may take until the deadline: a first completion can compile kernels for minutes. */
    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(Duration.ofSeconds(1).toNanos(), deadline - System.nanoTime()));
    }

    private Map<String, String> headers(Map<String, String> more) {
        return ControlClient.withBearer(more, apiKey);
    }

    private static String abbreviate(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() > 200 ? flat.substring(0, 200) + "..." : flat;
    }

    private static String jsonString(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void sleep(Duration d) throws EngineStartException {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineStartException("interrupted while waiting for the engine");
        }
    }
}
