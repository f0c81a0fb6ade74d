package io.servebench.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds the JSON bodies of streaming requests to the OpenAI-compatible APIs. */
public final class RequestBodies {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestBodies() {
    }

    /**
     * The body asking {@code model} to stream a completion of {@code spec}'s prompt, with usage in the
     * stream ({@code stream_options.include_usage}) and, when {@code continuousUsageStats}, cumulative
     * usage on every chunk. With {@link RequestSpec#exactOutput()} it also sends
     * {@code min_tokens = max_tokens} and {@code ignore_eos}, so that the output length is the one asked for.
     *
     * @return the body as UTF-8 JSON
     */
    public static byte[] build(OpenAiApi api, String model, RequestSpec spec, boolean continuousUsageStats) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", model);
        switch (api) {
            case CHAT -> body.putArray("messages").addObject().put("role", "user").put("content", spec.prompt());
            case COMPLETIONS -> body.put("prompt", spec.prompt());
        }
        body.put("max_tokens", spec.maxTokens());
        body.put("stream", true);
        ObjectNode streamOptions = body.putObject("stream_options");
        streamOptions.put("include_usage", true);
        if (continuousUsageStats) {
            streamOptions.put("continuous_usage_stats", true);
        }
        if (spec.exactOutput()) {
            body.put("min_tokens", spec.maxTokens());
            body.put("ignore_eos", true);
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a request body built from plain values", e);
        }
    }
}
