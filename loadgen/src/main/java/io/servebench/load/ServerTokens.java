package io.servebench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.wire.http.ControlClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Token counts from the running engine itself: its {@code POST /tokenize} (vLLM, SGLang and the simulated engine
 * have one), asked for a text's tokens without special tokens, so that built prompts are exactly as long as the
 * server will count them. One call per count; a dataset is built once per run.
 */
public final class ServerTokens {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private ServerTokens() {
    }

    /**
     * A counter asking {@code tokenizeUri}.
     *
     * @param apiKey sent as a bearer token when not {@code null}; never logged
     * @return a counter that throws {@link IllegalStateException} naming the URI when the server does not answer
     *         with a count
     */
    public static ToIntFunction<String> counter(URI tokenizeUri, String model, String apiKey) {
        ControlClient client = new ControlClient(TIMEOUT);
        Map<String, String> headers = ControlClient.withBearer(Map.of("Content-Type", "application/json"), apiKey);
        return text -> {
            byte[] body;
            try {
                body = JSON.writeValueAsBytes(JSON.createObjectNode().put("model", model).put("prompt", text)
                        .put("add_special_tokens", false));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            ControlClient.Reply response;
            try {
                response = client.post(tokenizeUri, headers, body, TIMEOUT);
            } catch (IOException e) {
                throw new IllegalStateException("POST " + tokenizeUri + " failed: " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("POST " + tokenizeUri + " was interrupted", e);
            }
            return count(tokenizeUri, response.status(), response.text());
        };
    }

    /** The count in a {@code /tokenize} answer: its {@code count}, else the length of its {@code tokens}. */
    static int count(URI uri, int status, String answer) {
        String tail = answer.length() > 200 ? answer.substring(0, 200) + "..." : answer;
        if (status != 200) {
            throw new IllegalStateException("POST " + uri + " answered HTTP " + status + ": " + tail);
        }
        try {
            JsonNode node = JSON.readTree(answer);
            if (node.path("count").canConvertToInt()) {
                return node.get("count").asInt();
            }
            if (node.path("tokens").isArray()) {
                return node.get("tokens").size();
            }
        } catch (IOException e) {
            // said below
        }
        throw new IllegalStateException("POST " + uri + " answered " + tail + "; expected {\"count\": N, \"tokens\": [...]}");
    }
}
