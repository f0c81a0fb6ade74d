package io.servebench.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One result block of the reference study ({@code seed-study/results.json}): the configuration that ran and what
 * it measured, under the report's own metric names ({@code "Mean Latency(s)"}, {@code "P95 ITL (ms)"}).
 *
 * @param engine   {@code vllm} or {@code sglang}
 * @param group    the tuning step ({@code engine-selection}, {@code rate-16}, ...)
 * @param variant  the variant's name within the group
 * @param flags    the engine flags, {@code --name=value}
 * @param rate     requests per second, constant arrivals
 * @param requests requests in the trial
 * @param metrics  the block's figures by the report's names
 */
public record ReferenceBlock(String engine, String group, String variant, List<String> flags, double rate, int requests,
                             Map<String, Double> metrics) {

    /** The copy of the reference study's results shipped with ServeBench. */
    static final String BUNDLED = "seed-study-results.json";

    public ReferenceBlock {
        flags = List.copyOf(flags);
        metrics = Map.copyOf(metrics);
    }

    /** A short label: {@code vllm rate-16/optimized}. */
    public String label() {
        return engine + " " + group + "/" + variant;
    }

    /** One of the block's figures. */
    public double metric(String name) {
        Double value = metrics.get(name);
        if (value == null) {
            throw new IllegalArgumentException("reference block " + label() + " has no \"" + name + "\"; it has "
                    + metrics.keySet());
        }
        return value;
    }

    /** The blocks of the reference study bundled with ServeBench. */
    public static List<ReferenceBlock> bundled() {
        try (InputStream in = ReferenceBlock.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IllegalStateException("the bundled reference study " + BUNDLED + " is missing from the jar");
            }
            return parse(new ObjectMapper().readTree(in), BUNDLED);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled reference study", e);
        }
    }

    /**
     * Reads a results file in the reference study's format.
     *
     * @throws IllegalArgumentException naming the file and what is missing or malformed
     */
    public static List<ReferenceBlock> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("reference file " + file + " does not exist; expected a results file in"
                    + " seed-study/results.json's format");
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        return parse(root, file.toString());
    }

    private static List<ReferenceBlock> parse(JsonNode root, String source) {
        JsonNode trials = root.path("trials");
        if (!trials.isArray() || trials.isEmpty()) {
            throw new IllegalArgumentException(source + ": expected an object with a non-empty \"trials\" array, as"
                    + " seed-study/results.json has");
        }
        List<ReferenceBlock> blocks = new ArrayList<>();
        for (int i = 0; i < trials.size(); i++) {
            JsonNode t = trials.get(i);
            String where = source + " trials[" + i + "]";
            List<String> flags = new ArrayList<>();
            t.path("flags").forEach(f -> flags.add(f.asText()));
            Map<String, Double> metrics = new LinkedHashMap<>();
            t.path("metrics").fields().forEachRemaining(e -> metrics.put(e.getKey(), e.getValue().asDouble()));
            blocks.add(new ReferenceBlock(text(t, "engine", where), text(t, "group", where), text(t, "variant", where),
                    flags, number(t, "request_rate", where), (int) number(t, "total_requests", where), metrics));
        }
        return List.copyOf(blocks);
    }

    private static String text(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new IllegalArgumentException(where + ": expected a non-empty string \"" + field + "\"");
        }
        return v.asText();
    }

    private static double number(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isNumber() || !(v.asDouble() > 0)) {
            throw new IllegalArgumentException(where + ": expected a positive number \"" + field + "\"");
        }
        return v.asDouble();
    }
}
