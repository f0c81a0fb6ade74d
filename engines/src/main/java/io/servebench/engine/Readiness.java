package io.servebench.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.wire.http.ControlClient;
import io.servebench.wire.openai.Routes;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Waits until an engine can serve: the health endpoint answers 200 (or is not there at all: 404), then the model list
 * names the model (or is not there either: a gateway without one), then one tiny completion succeeds (of the chat API
 * where the server has no other; the first request often compiles kernels or allocates the KV cache; a trial should not
 * pay for that). Each step is retried until the deadline, but for answers that waiting would not change: a refusal of
 * access, a model served under a fuller name, and a server without any of the OpenAI API's routes.
 */
final class Readiness {

    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration MAX_POLL = Duration.ofSeconds(2);
    /** How long a start waits before it says what it waits for: a quick start says nothing. */
    static final Duration FIRST_NOTICE = Duration.ofSeconds(10);
    /** How often it says so again while it waits. */
    static final Duration NOTICE_EVERY = Duration.ofSeconds(30);

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
     * @param waiting      told what the wait is at, {@link #FIRST_NOTICE} after it began and every
     *                     {@link #NOTICE_EVERY} after that, e.g. "not ready after 10 s of at most 1200 s
     *                     (--ready-timeout): waiting for its health check (connection refused: nothing listens at
     *                     127.0.0.1:8000 yet)"
     * @throws EngineStartException when {@code stillRunning} reports a reason or the timeout passes; the
     *                              message says which step was last reached
     */
    void await(Duration timeout, Supplier<String> stillRunning, Consumer<String> waiting) throws EngineStartException {
        await(timeout, stillRunning, waiting, FIRST_NOTICE, NOTICE_EVERY);
    }

    /** {@link #await(Duration, Supplier, Consumer)} with other notice times (tests). */
    void await(Duration timeout, Supplier<String> stillRunning, Consumer<String> waiting, Duration firstNotice,
               Duration noticeEvery) throws EngineStartException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long nextNotice = start + firstNotice.toNanos();
        String step = "health";
        String last = "no answer yet";
        // what GET /v1/models answered when it has no such route (a gateway without a model list); null while it has one
        String noModelList = null;
        Duration pause = POLL;
        while (true) {
            // a question waits for its answer at most until the next notice is due: a server that takes the connection
            // and never answers is then said to, instead of holding the whole wait silent until its deadline
            long until = Math.min(deadline, nextNotice);
            String exited = stillRunning.get();
            if (exited != null) {
                throw new EngineStartException(exited + " before it was ready (waiting for " + step + ": " + last + ")");
            }
            try {
                switch (step) {
                    case "health" -> {
                        ControlClient.Reply r = get(Routes.HEALTH, until);
                        last = "GET " + Routes.HEALTH + " answered " + r.status();
                        // a server with no such route (an OpenAI-compatible server or gateway that has none) is asked the next question
                        if (r.status() == 200 || noRoute(r.status())) {
                            step = "model list";
                            continue;
                        }
                    }
                    case "model list" -> {
                        ControlClient.Reply r = get(Routes.MODELS, until);
                        last = "GET " + Routes.MODELS + " answered " + r.status();
                        if (noRoute(r.status())) {
                            // a gateway may list no models; whether it serves this one, a completion shows
                            noModelList = last;
                            step = "a first completion";
                            continue;
                        }
                        List<String> ids = r.status() == 200 ? modelIds(r.text()) : List.of();
                        // the served names are the list's ids (a path beside them, vLLM's "root", is not one); a body
                        // of another form is searched for the name
                        if (r.status() == 200 && (ids.isEmpty() ? r.text().contains("\"" + model + "\"")
                                : ids.contains(model))) {
                            step = "a first completion";
                            continue;
                        }
                        if (r.status() == 200) {
                            Optional<String> meant = ids.stream().filter(id -> sameModel(id, model)).findFirst();
                            if (meant.isPresent()) {
                                // a served model's list does not change while it serves: waiting would not mend it
                                throw new EngineStartException("the server serves \"" + meant.get() + "\", not \""
                                        + model + "\" (GET " + Routes.MODELS + " lists " + String.join(", ", ids) + ");"
                                        + " expected the model named as the server names it: --model " + meant.get()
                                        + " or @ServingBenchmark(model = \"" + meant.get() + "\")");
                            }
                            last = "GET " + Routes.MODELS + " does not list \"" + model + "\": " + (ids.isEmpty()
                                    ? abbreviate(r.text()) : "it lists " + String.join(", ", ids));
                        }
                    }
                    default -> {
                        ControlClient.Reply r = post(Routes.COMPLETIONS, "{\"model\":" + jsonString(model)
                                + ",\"prompt\":\"Hello\",\"max_tokens\":1,\"stream\":false}", until);
                        last = "POST " + Routes.COMPLETIONS + " answered " + r.status() + ": " + abbreviate(r.text());
                        if (r.status() == 200) {
                            return;
                        }
                        if (noRoute(r.status())) {
                            // a server of the chat API alone (a gateway, a chat model's server) is asked through that API
                            int completions = r.status();
                            r = post(Routes.CHAT_COMPLETIONS, "{\"model\":" + jsonString(model) + ",\"messages\":[{\"role\":"
                                    + "\"user\",\"content\":\"Hello\"}],\"max_tokens\":1,\"stream\":false}", until);
                            last = "POST " + Routes.COMPLETIONS + " answered " + completions + ", POST " + Routes.CHAT_COMPLETIONS + " "
                                    + r.status() + ": " + abbreviate(r.text());
                            if (r.status() == 200) {
                                return;
                            }
                            if (noModelList != null && noRoute(r.status())) {
                                // no route of the API took a request: a wrong base URL, or another kind of server,
                                // which waiting does not mend (an engine still loading refuses connections or answers 503)
                                throw new EngineStartException(base + " answers, but no route of the OpenAI API under it"
                                        + " took a request: " + noModelList + ", " + last + "; expected the base URL of"
                                        + " an OpenAI-compatible server that serves \"" + model + "\", the part before"
                                        + " /v1 (e.g. http://127.0.0.1:8000)");
                            }
                        }
                    }
                }
            } catch (HttpTimeoutException e) {
                last = e.getMessage();
            } catch (IOException e) {
                Optional<String> refused = certificateRefused(e);
                if (refused.isPresent()) {
                    // a server's certificate does not change while it runs: waiting would not mend it
                    throw new EngineStartException(base + ": " + refused.get());
                }
                last = e.getMessage() != null && e.getMessage().contains("Connection refused")
                        ? "connection refused: nothing listens at " + base.getHost() + ":" + base.getPort() + " yet"
                        : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EngineStartException("interrupted while waiting for the engine's " + step);
            }
            long now = System.nanoTime();
            if (now - deadline > 0) {
                throw new EngineStartException("not ready after " + timeout.toSeconds() + " s (waiting for " + step
                        + ": " + last + ")");
            }
            if (now - nextNotice >= 0) {
                waiting.accept("not ready after " + Duration.ofNanos(now - start).toSeconds() + " s of at most "
                        + timeout.toSeconds() + " s (--ready-timeout): waiting for " + STEPS.get(step) + " (" + last + ")");
                nextNotice = now + noticeEvery.toNanos();
            }
            sleep(pause);
            pause = pause.multipliedBy(2).compareTo(MAX_POLL) > 0 ? MAX_POLL : pause.multipliedBy(2);
        }
    }

    /**
     * What was wrong with the server's certificate and what to do, when a TLS handshake failed over it: no path to a
     * certificate this JVM trusts (unknown, self-signed, expired), or a certificate of other hosts than the one asked;
     * empty for every other failure.
     */
    static Optional<String> certificateRefused(IOException e) {
        boolean certificate = false;
        boolean path = false;
        String words = e.getMessage();
        for (Throwable t = e; t != null; t = t.getCause()) {
            certificate |= t instanceof java.security.cert.CertificateException;
            path |= t instanceof java.security.cert.CertPathBuilderException
                    || t instanceof java.security.cert.CertPathValidatorException;
            words = t.getMessage() != null ? t.getMessage() : words;
        }
        if (!certificate) {
            return Optional.empty();
        }
        return Optional.of(path ? "its TLS certificate is not trusted (" + words + "); expected one this JVM trusts:"
                + " run ServeBench as java -Djavax.net.ssl.trustStore=PATH -jar benchmarks.jar ..., PATH a trust store"
                + " that holds the server's certificate or its CA (keytool -importcert makes one), or reach the server"
                + " over http"
                : "its TLS certificate is not of the host asked (" + words + "); expected the server by a name or"
                + " address its certificate carries (its subject alternative names)");
    }

    /**
     * Whether a status says the server has no such route or method (404, 405, 501), which does not change while it
     * runs, rather than that it is not ready yet.
     */
    private static boolean noRoute(int status) {
        return status == 404 || status == 405 || status == 501;
    }

    /**
     * Fails at once when the server refuses access (401, 403): its key does not change while it serves, so waiting
     * for the rest of {@code --ready-timeout} (20 minutes by default) would not mend it.
     */
    private ControlClient.Reply refusedAccess(ControlClient.Reply r, String request) throws EngineStartException {
        if (r.status() != 401 && r.status() != 403) {
            return r;
        }
        throw new EngineStartException("the server refused " + request + " with " + r.status() + " ("
                + abbreviate(r.text()) + "): " + (apiKey == null
                ? "it wants an API key, and none was sent; expected --api-key-env NAME, the environment variable that"
                + " holds the key (e.g. --api-key-env VLLM_API_KEY), sent as 'Authorization: Bearer'"
                : "it did not take the key from --api-key-env; expected the key the server was started with"));
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The ids of an OpenAI model list ({@code {"data": [{"id": ...}]}}); empty when the body is not one. */
    static List<String> modelIds(String body) {
        try {
            List<String> ids = new ArrayList<>();
            JSON.readTree(body).path("data").forEach(m -> {
                if (m.path("id").isTextual()) {
                    ids.add(m.path("id").asText());
                }
            });
            return List.copyOf(ids);
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Whether a listed id is surely the model a study named otherwise: the same name but for case, or with or
     * without its organisation ({@code Qwen/Qwen3-8B} for {@code Qwen3-8B}, or the other way round).
     */
    static boolean sameModel(String id, String model) {
        return id.equalsIgnoreCase(model) || id.endsWith("/" + model) || model.endsWith("/" + id);
    }

    /** Each step as the notices name it. */
    private static final Map<String, String> STEPS = Map.of("health", "its health check", "model list",
            "its model list to name the model", "a first completion", "a first completion");

    /**
     * {@code GET path}, answered by {@code until} ({@link System#nanoTime()}; given a second at least); a refusal of
     * access ends the wait at once ({@link #refusedAccess}).
     */
    private ControlClient.Reply get(String path, long until)
            throws IOException, InterruptedException, EngineStartException {
        Duration within = within(until);
        try {
            return refusedAccess(http.get(at(path), headers(Map.of()), within), "GET " + path);
        } catch (HttpTimeoutException e) {
            throw noAnswer("GET " + path, within);
        }
    }

    /** {@code POST path} with a JSON body; as {@link #get}. */
    private ControlClient.Reply post(String path, String json, long until)
            throws IOException, InterruptedException, EngineStartException {
        Duration within = within(until);
        try {
            return refusedAccess(http.post(at(path), headers(Map.of("Content-Type", "application/json")),
                    json.getBytes(StandardCharsets.UTF_8), within), "POST " + path);
        } catch (HttpTimeoutException e) {
            throw noAnswer("POST " + path, within);
        }
    }

    private static HttpTimeoutException noAnswer(String request, Duration within) {
        // tenths of a second, whole seconds from 10 (a wait of 9,999 ms reads "10 s", not "10.0 s")
        long tenths = Math.round(within.toMillis() / 100.0);
        return new HttpTimeoutException(request + ": no answer within " + (tenths >= 100 ? Math.round(tenths / 10.0)
                + " s" : String.format(java.util.Locale.ROOT, "%.1f s", tenths / 10.0)));
    }

    /**
     * {@code path} under the base, as the load's requests go: a gateway's prefix ({@code http://gw/openai/}) stays,
     * where resolving the absolute path would ask the gateway's root.
     */
    private URI at(String path) {
        String b = base.toString();
        return URI.create((b.endsWith("/") ? b.substring(0, b.length() - 1) : b) + path);
    }

    /**
     * The time left until {@code until}, a second at least. A first completion that compiles kernels for longer is
     * asked again after the notice: the engine goes on compiling, and the next one finds them.
     */
    private static Duration within(long until) {
        return Duration.ofNanos(Math.max(Duration.ofSeconds(1).toNanos(), until - System.nanoTime()));
    }

    private Map<String, String> headers(Map<String, String> more) {
        return ControlClient.withBearer(more, apiKey);
    }

    /** The start of a reply's body on one line; an HTML error page (a web server's, a proxy's) as its text. */
    private static String abbreviate(String body) {
        String flat = body.replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").strip();
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
