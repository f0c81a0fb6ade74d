package io.servebench.wire.openai;

/**
 * The routes of an OpenAI-compatible server that ServeBench calls and its two servers serve, as vLLM's and SGLang's
 * API servers spell them: the load generator streams from the two completion APIs, the engine layer asks health,
 * the model list and a completion when it waits for an engine and scrapes its metrics, and the simulated engine
 * and the ground-truth server answer them.
 */
public final class Routes {

    /** {@code POST}: a chat completion, its tokens in {@code choices[0].delta}. */
    public static final String CHAT_COMPLETIONS = "/v1/chat/completions";
    /** {@code POST}: a completion of a plain prompt, its tokens in {@code choices[0].text}. */
    public static final String COMPLETIONS = "/v1/completions";
    /** {@code GET}: the models served, by the ids a request names. */
    public static final String MODELS = "/v1/models";
    /** {@code GET}: 200 once the server takes requests. */
    public static final String HEALTH = "/health";
    /** {@code GET}: the server's Prometheus metrics. */
    public static final String METRICS = "/metrics";

    private Routes() {
    }
}
