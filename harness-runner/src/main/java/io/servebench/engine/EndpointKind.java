package io.servebench.engine;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A server that is already running, at {@code @Engine(url = ...)} or {@code --engine-url}: waited for until it is
 * ready, never started or stopped. Its version is asked over HTTP.
 *
 * @param name the kind's name
 */
record EndpointKind(String name) implements EngineKind {

    @Override
    public Map<String, String> setupProblems(EngineSetup setup) {
        String problem = urlProblem(setup.url());
        return problem == null ? Map.of() : Map.of(setup.url().isEmpty() ? "value" : "url", problem);
    }

    /** Why {@code url} is not an endpoint's base URL, or {@code null}. */
    private String urlProblem(String url) {
        String expected = "; expected the running server's base URL, e.g. url = \"http://127.0.0.1:8000\"";
        if (url.isEmpty()) {
            return "engine kind \"" + name + "\" needs url" + expected;
        }
        try {
            URI uri = new URI(url);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                return "url \"" + url + "\" is not an http(s) URL with a host" + expected;
            }
            return null;
        } catch (java.net.URISyntaxException e) {
            return "url \"" + url + "\" is malformed (" + e.getReason() + ")" + expected;
        }
    }

    @Override
    public RunningEngine start(ServerConfig server, EngineOptions options, Path log) throws EngineStartException {
        // The API paths are appended to the base, so a URL given with its /v1 (as OpenAI clients take it) is cut back.
        URI base = URI.create(server.setup().url().replaceAll("/+$", "").replaceAll("/v1$", "") + "/");
        try {
            Files.writeString(log, "endpoint " + base + " (not started or stopped by ServeBench)" + System.lineSeparator());
        } catch (IOException e) {
            throw new EngineStartException("cannot write the engine log " + log + ": " + e.getMessage(), e);
        }
        new Readiness(base, server.model(), options.apiKey()).await(options.readyTimeout(), () -> null);
        // not ours to stop
        return RunningEngine.of(new Endpoint(base, server.model(), base.resolve("metrics")),
                "endpoint " + base + " (started elsewhere)", () -> { });
    }
}
