package io.servebench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.wire.openai.CompletionRequest;
import io.servebench.workload.BodyFields;
import io.servebench.workload.ChatMessage;
import io.servebench.workload.RequestSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/** Builds a request spec's streaming request to the OpenAI-compatible APIs, written by the wire layer's {@link CompletionRequest}. */
final class RequestBodies {

    private RequestBodies() {
    }

    /**
     * A request's body and the output tokens it asks for.
     *
     * @param json      the body as UTF-8 JSON
     * @param maxTokens {@code max_tokens} (or, for chat, {@code max_completion_tokens}) as the extra body fields leave
     *                  it, the request's own over the study's, else {@link RequestSpec#maxTokens()}
     */
    record Body(byte[] json, int maxTokens) {
    }

    /**
     * The body asking {@code target}'s model (or the adapter {@code spec} names, as the target takes it) to stream a completion of {@code spec}'s prompt, with usage in the
     * stream ({@code stream_options.include_usage}) and, when {@code continuousUsageStats}, cumulative
     * usage on every chunk. With {@link RequestSpec#exactOutput()} it also sends
     * {@code min_tokens = max_tokens} and {@code ignore_eos}, so that the output length is the one asked for.
     *
     * @return the body and the tokens it asks for
     */
    static Body build(OpenAiApi api, Target target, RequestSpec spec, boolean continuousUsageStats) {
        return build(api, target, spec, continuousUsageStats, null);
    }

    /**
     * Like {@link #build(OpenAiApi, Target, RequestSpec, boolean)}, then with every field of {@code extraBody}
     * added, replacing a field of the same name (e.g. {@code max_tokens}), and then the request's own
     * ({@link RequestSpec#extraBody()}), which replace the study's.
     *
     * @param extraBody fields to add, a JSON object without {@link BodyFields#RESERVED}; {@code null} for none
     */
    static Body build(OpenAiApi api, Target target, RequestSpec spec, boolean continuousUsageStats,
                      ObjectNode extraBody) {
        CompletionRequest.Input input = switch (api) {
            case CHAT -> {
                List<CompletionRequest.Message> messages = new ArrayList<>();
                spec.context().forEach(m -> messages.add(new CompletionRequest.Message(m.role(), m.content())));
                messages.add(new CompletionRequest.Message("user", spec.prompt()));
                yield new CompletionRequest.Messages(messages);
            }
            // a completion has no roles: the messages' texts, one paragraph each, then the prompt
            case COMPLETIONS -> new CompletionRequest.Text(spec.context().isEmpty() ? spec.prompt()
                    : spec.context().stream().map(ChatMessage::content).collect(Collectors.joining("\n\n")) + "\n\n"
                            + spec.prompt());
        };
        CompletionRequest request = new CompletionRequest(input, Optional.of(target.requestModel(spec.model())),
                OptionalInt.of(spec.maxTokens()),
                spec.exactOutput() ? spec.maxTokens() : 0, spec.exactOutput(), true, true, continuousUsageStats);
        List<ObjectNode> extra = new ArrayList<>(2);
        if (extraBody != null) {
            extra.add(extraBody);
        }
        if (spec.extraBody() != null) {
            extra.add(BodyFields.parse(spec.extraBody()));
        }
        return new Body(request.toJson(extra), maxTokens(spec.maxTokens(), extra));
    }

    /** The tokens asked for once the extra body fields, in order, have had their say. */
    private static int maxTokens(int asked, List<ObjectNode> extra) {
        int tokens = asked;
        for (ObjectNode layer : extra) {
            for (String field : List.of("max_tokens", "max_completion_tokens")) {
                if (layer.path(field).canConvertToInt() && layer.path(field).isIntegralNumber()) {
                    tokens = layer.get(field).intValue();
                }
            }
        }
        return tokens;
    }
}
