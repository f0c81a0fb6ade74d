package io.servebench.engine.kind;

import java.net.URI;
import java.util.Map;

/**
 * A server that is already running, at {@code @Engine(url = ...)} or {@code --engine-url}: waited for until it is
 * ready, never started or stopped. Its version is asked over HTTP.
 *
 * @param name the kind's name
 */
public record EndpointKind(String name) implements EngineKind {

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
}
