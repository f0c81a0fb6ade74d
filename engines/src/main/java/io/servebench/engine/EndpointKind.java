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
        String problem = setup.url().isEmpty() ? urlProblem("") : setup.urls().stream().map(this::urlProblem)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
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
        java.util.List<Endpoint> endpoints = new java.util.ArrayList<>();
        for (String url : server.setup().urls()) {
            // The API paths are appended to the base, so a URL given with its /v1 (as OpenAI clients take it) is cut back.
            URI base = URI.create(url.replaceAll("/+$", "").replaceAll("/v1$", "") + "/");
            endpoints.add(new Endpoint(base, server.model(), base.resolve("metrics")));
        }
        String bases = String.join(" ", endpoints.stream().map(e -> e.baseUri().toString()).toList());
        try {
            Files.writeString(log, "endpoint " + bases + " (not started or stopped by ServeBench)" + System.lineSeparator());
        } catch (IOException e) {
            throw new EngineStartException("cannot write the engine log " + log + ": " + e.getMessage(), e);
        }
        for (Endpoint e : endpoints) {
            new Readiness(e.baseUri(), server.model(), options.apiKey()).await(options.readyTimeout(), () -> null);
        }
        // not ours to stop
        return RunningEngine.of(endpoints, "endpoint " + bases + " (started elsewhere)", () -> { });
    }
}
