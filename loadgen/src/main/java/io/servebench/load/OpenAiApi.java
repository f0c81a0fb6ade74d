package io.servebench.load;

/** Which OpenAI-compatible streaming API the load generator calls. */
public enum OpenAiApi {
    /** {@code POST /v1/chat/completions}: one user message; tokens arrive in {@code choices[0].delta}. */
    CHAT("/v1/chat/completions"),
    /** {@code POST /v1/completions}: a plain prompt; tokens arrive in {@code choices[0].text}. */
    COMPLETIONS("/v1/completions");

    private final String path;

    OpenAiApi(String path) {
        this.path = path;
    }

    /** The request path, appended to the endpoint's base URI. */
    public String path() {
        return path;
    }
}
