package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Test helper: talks to a simulated engine over real loopback sockets and splits SSE bodies into events. */
public final class SimHttp {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A response: status, raw body, and for an SSE body its {@code data:} payloads in order. */
    public record Reply(int status, String body, List<String> data) {
        /** The JSON events (everything but {@code [DONE]}). */
        List<JsonNode> events() {
            List<JsonNode> out = new ArrayList<>();
            for (String d : data) {
                if (!d.equals("[DONE]")) {
                    out.add(parse(d));
                }
            }
            return out;
        }

        JsonNode json() {
            return parse(body);
        }
    }

    private SimHttp() {
    }

    public static Reply get(SimulatedEngine engine, String path) {
        return send(HttpRequest.newBuilder(engine.baseUri().resolve(path)).GET());
    }

    public static Reply post(SimulatedEngine engine, String path, String requestId, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(engine.baseUri().resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (requestId != null) {
            b.header("X-Request-Id", requestId);
        }
        return send(b);
    }

    /** A chat request body with one user message. */
    public static String chat(String prompt, String extraFields) {
        return "{\"model\":\"" + SimulatedEngineTest.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":"
                + quote(prompt) + "}]" + (extraFields.isEmpty() ? "" : "," + extraFields) + "}";
    }

    public static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code n} distinct words. */
    public static String words(int n, String stem) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(stem).append(i).append(' ');
        }
        return b.toString();
    }

    private static Reply send(HttpRequest.Builder builder) {
        try {
            HttpResponse<String> r = CLIENT.send(builder.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            List<String> data = new ArrayList<>();
            String type = r.headers().firstValue("Content-Type").orElse("");
            if (type.startsWith("text/event-stream")) {
                for (String frame : r.body().split("\n\n")) {
                    if (!frame.isEmpty()) {
                        if (!frame.startsWith("data: ")) {
                            throw new AssertionError("SSE frame without 'data: ': " + frame);
                        }
                        data.add(frame.substring(6));
                    }
                }
            }
            return new Reply(r.statusCode(), r.body(), data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static JsonNode parse(String s) {
        try {
            return JSON.readTree(s);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + s, e);
        }
    }
}
