package io.servebench.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.workload.BodyFields;
import io.servebench.workload.ChatMessage;
import io.servebench.workload.RequestSpec;

import java.util.stream.Collectors;

/** Builds the JSON bodies of streaming requests to the OpenAI-compatible APIs. */
final class RequestBodies {

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
        return build(api, model, spec, continuousUsageStats, null);
    }

    /**
     * Like {@link #build(OpenAiApi, String, RequestSpec, boolean)}, then with every field of {@code extraBody}
     * added, replacing a field of the same name (e.g. {@code max_tokens}), and then the request's own
     * ({@link RequestSpec#extraBody()}), which replace the study's.
     *
     * @param extraBody fields to add, a JSON object without {@link BodyFields#RESERVED}; {@code null} for none
     */
    public static byte[] build(OpenAiApi api, String model, RequestSpec spec, boolean continuousUsageStats,
                               ObjectNode extraBody) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", model);
        switch (api) {
            case CHAT -> {
                ArrayNode messages = body.putArray("messages");
                spec.context().forEach(m -> messages.addObject().put("role", m.role()).put("content", m.content()));
                messages.addObject().put("role", "user").put("content", spec.prompt());
            }
            // a completion has no roles: the messages' texts, one paragraph each, then the prompt
            case COMPLETIONS -> body.put("prompt", spec.context().isEmpty() ? spec.prompt()
                    : spec.context().stream().map(ChatMessage::content).collect(Collectors.joining("\n\n")) + "\n\n"
                            + spec.prompt());
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
        if (extraBody != null) {
            body.setAll(extraBody);
        }
        if (spec.extraBody() != null) {
            body.setAll(BodyFields.parse(spec.extraBody()));
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a request body built from plain values", e);
        }
    }
}
