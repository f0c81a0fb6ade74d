package io.servebench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Body fields a study or one of its requests adds to what the client sends ({@code {"temperature": 0}}): what they
 * may be, checked where they are written (an option, a dataset line) before anything starts.
 */
public final class BodyFields {

    // "{} x" must not pass as the object {}
    private static final ObjectMapper STRICT = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Fields they may not set: the client needs them to be what it sent to parse and time the stream. */
    public static final Set<String> RESERVED = Set.of("model", "messages", "prompt", "stream", "stream_options");

    private BodyFields() {
    }

    /**
     * What is wrong with {@code json} as extra body fields, or {@code null} when it is a JSON object that
     * sets no {@link #RESERVED}.
     */
    public static String problem(String json) {
        return read(json).problem();
    }

    /**
     * {@code json} parsed as extra body fields.
     *
     * @throws IllegalArgumentException when {@link #problem(String)} finds a problem
     */
    public static ObjectNode parse(String json) {
        Read read = read(json);
        if (read.problem() != null) {
            throw new IllegalArgumentException("extra body " + read.problem());
        }
        return (ObjectNode) read.node();
    }

    /** A text read once: its node, and what is wrong with it as body fields ({@code null} for nothing). */
    private record Read(JsonNode node, String problem) {
    }

    private static Read read(String json) {
        JsonNode node;
        try {
            node = STRICT.readTree(json);
        } catch (JsonProcessingException e) {
            return new Read(null, "is not valid JSON (" + JsonProblem.of(e) + "); expected a JSON object such as"
                    + " {\"temperature\": 0}");
        }
        if (node == null || node.isMissingNode()) {
            return new Read(node, "is empty; expected a JSON object such as {\"temperature\": 0}");
        }
        if (!node.isObject()) {
            return new Read(node, "is a JSON " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + "; expected a JSON object such as {\"temperature\": 0}");
        }
        List<String> reserved = new ArrayList<>();
        node.fieldNames().forEachRemaining(f -> {
            if (RESERVED.contains(f)) {
                reserved.add(f);
            }
        });
        return new Read(node, reserved.isEmpty() ? null : "sets " + reserved + ", which the client controls; expected"
                + " none of " + RESERVED.stream().sorted().toList());
    }
}
