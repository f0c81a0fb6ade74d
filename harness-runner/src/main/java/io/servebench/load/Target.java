package io.servebench.load;

import java.net.URI;
import java.util.Objects;

/**
 * Where the load goes: an OpenAI-compatible server and the model to ask for.
 *
 * @param baseUri the server's base, e.g. {@code http://127.0.0.1:8000}; the API's paths ({@code v1/chat/completions})
 *                are appended to it
 * @param model   the model id put in every request body
 */
public record Target(URI baseUri, String model) {

    public Target {
        Objects.requireNonNull(baseUri, "baseUri");
        Objects.requireNonNull(model, "model");
    }
}
