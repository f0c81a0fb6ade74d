package io.servebench.load;

import io.servebench.wire.openai.Routes;

/** Which OpenAI-compatible streaming API the load generator calls. */
public enum OpenAiApi {
    /** {@code POST /v1/chat/completions}: one user message; tokens arrive in {@code choices[0].delta}. */
    CHAT(Routes.CHAT_COMPLETIONS),
    /** {@code POST /v1/completions}: a plain prompt; tokens arrive in {@code choices[0].text}. */
    COMPLETIONS(Routes.COMPLETIONS);

    private final String path;

    OpenAiApi(String path) {
        this.path = path;
    }

    /** The request path, appended to the endpoint's base URI. */
    public String path() {
        return path;
    }
}
