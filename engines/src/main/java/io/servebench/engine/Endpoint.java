package io.servebench.engine;

import io.servebench.load.Target;

import java.net.URI;

/**
 * A running engine's address.
 *
 * @param baseUri    where the OpenAI-compatible API lives, e.g. {@code http://127.0.0.1:8000} (no {@code /v1})
 * @param model      the model id to put in requests
 * @param metricsUri the Prometheus endpoint, {@code null} when the engine has none
 * @param adapterAfterBase whether the engine takes a LoRA adapter as {@code "base:adapter"} ({@link Target})
 */
public record Endpoint(URI baseUri, String model, URI metricsUri, boolean adapterAfterBase) {

    /** An engine that takes an adapter by its own name (vLLM, and any server but SGLang). */
    public Endpoint(URI baseUri, String model, URI metricsUri) {
        this(baseUri, model, metricsUri, false);
    }

    /** Where the load generator sends requests: this address and model. */
    public Target target() {
        return new Target(baseUri, model, adapterAfterBase);
    }
}
