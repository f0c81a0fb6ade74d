package io.servebench.load;

import java.net.URI;
import java.util.Objects;

/**
 * Where the load goes: an OpenAI-compatible server and the model to ask for.
 *
 * @param baseUri the server's base, e.g. {@code http://127.0.0.1:8000}; the API's paths ({@code v1/chat/completions})
 *                are appended to it
 * @param model   the model id put in every request body
 * @param adapterAfterBase whether the server takes a LoRA adapter as {@code "base:adapter"} in {@code model}
 *                (SGLang: {@code serving_base.py} splits the name at its first colon, and runs the base model, without a
 *                word, for a name it does not know) rather than as the adapter's own name (vLLM)
 */
public record Target(URI baseUri, String model, boolean adapterAfterBase) {

    /** A server that takes an adapter by its own name, as vLLM does. */
    public Target(URI baseUri, String model) {
        this(baseUri, model, false);
    }

    /**
     * The {@code model} field of a request that names {@code named}, a mixed workload's model or adapter as the study
     * wrote it ({@code null} for none): the served model as is, an adapter as this server expects it.
     */
    public String requestModel(String named) {
        if (named == null || named.equals(model)) {
            return model;
        }
        return adapterAfterBase ? model + ":" + named : named;
    }

    public Target {
        Objects.requireNonNull(baseUri, "baseUri");
        Objects.requireNonNull(model, "model");
    }
}
