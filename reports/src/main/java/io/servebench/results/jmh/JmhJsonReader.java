package io.servebench.results.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.results.HistogramBucket;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a JMH JSON result file: ServeBench's {@code results.json} (its params as axes with the block's own in the
 * {@value JmhJsonWriter#EXTRA} object, or, written before, every param encoded) or one written by JMH itself.
 */
public final class JmhJsonReader {

    private final ObjectMapper mapper = new ObjectMapper();

    /**
     * Reads every entry of {@code file}.
     *
     * @throws IOException when it cannot be read, or is not JSON (naming the line and column) or not JMH's form (naming
     *                     what it found), its message without the file's name
     */
    public List<JmhBenchmark> read(Path file) throws IOException {
        JsonNode root;
        try {
            root = mapper.readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            var at = e.getLocation();
            // Jackson's note of where an unclosed object began names no source: the line and column say where it broke
            String why = e.getOriginalMessage();
            int startMarker = why.indexOf(" (start marker at");
            throw new IOException("not JSON" + (at == null ? "" : " (line " + at.getLineNr() + ", column "
                    + at.getColumnNr() + ")") + ": " + (startMarker > 0 ? why.substring(0, startMarker) : why), e);
        }
        try {
            return parse(root);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Reads every entry of a JSON text. */
    public List<JmhBenchmark> readString(String json) throws IOException {
        return parse(mapper.readTree(json));
    }

    private static List<JmhBenchmark> parse(JsonNode root) {
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException("expected a JSON array of JMH results at the top level, found "
                    + (root == null || root.isMissingNode() ? "nothing (an empty file)"
                    : "a" + (root.isObject() ? "n " : " ") + root.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        List<JmhBenchmark> out = new ArrayList<>();
        for (JsonNode entry : root) {
            String name = required(entry, "benchmark").asText();
            Map<String, String> params = new LinkedHashMap<>();
            entry.path("params").properties().forEach(f -> params.put(f.getKey(), f.getValue().asText()));
            Map<String, JmhMetric> secondary = new LinkedHashMap<>();
            entry.path("secondaryMetrics").properties().forEach(f -> secondary.put(withoutPrefix(f.getKey()),
                    metric(name, f.getValue())));
            Map<String, String> all = new LinkedHashMap<>();
            entry.path(JmhJsonWriter.EXTRA).path("params").properties().forEach(f -> all.put(f.getKey(), f.getValue().asText()));
            Map<String, String> environment = new LinkedHashMap<>();
            entry.path(JmhJsonWriter.EXTRA).path("environment").properties()
                    .forEach(f -> environment.put(f.getKey(), f.getValue().asText()));
            out.add(new JmhBenchmark(name, required(entry, "mode").asText(), entry.path("forks").asInt(), params,
                    metric(name, required(entry, "primaryMetric")), secondary, all,
                    entry.path(JmhJsonWriter.EXTRA).path("benchmark").asText(""), environment));
        }
        return out;
    }

    /** A secondary metric's name without JMH's {@code ·}: {@code ·ttft.p99} and {@code ttft.p99} are one metric. */
    private static String withoutPrefix(String name) {
        return name.startsWith(JmhJsonWriter.SECONDARY_PREFIX) ? name.substring(JmhJsonWriter.SECONDARY_PREFIX.length()) : name;
    }

    private static JmhMetric metric(String benchmark, JsonNode m) {
        List<Double> confidence = new ArrayList<>();
        m.path("scoreConfidence").forEach(v -> confidence.add(number(v)));
        Map<String, Double> percentiles = new LinkedHashMap<>();
        m.path("scorePercentiles").properties().forEach(f -> percentiles.put(f.getKey(), number(f.getValue())));
        List<List<Double>> raw = new ArrayList<>();
        for (JsonNode fork : m.path("rawData")) {
            List<Double> iterations = new ArrayList<>();
            fork.forEach(v -> iterations.add(number(v)));
            raw.add(iterations);
        }
        List<List<List<HistogramBucket>>> histogram = new ArrayList<>();
        for (JsonNode fork : m.path("rawDataHistogram")) {
            List<List<HistogramBucket>> iterations = new ArrayList<>();
            for (JsonNode iteration : fork) {
                List<HistogramBucket> buckets = new ArrayList<>();
                for (Iterator<JsonNode> it = iteration.elements(); it.hasNext(); ) {
                    JsonNode pair = it.next();
                    if (!pair.isArray() || pair.size() != 2) {
                        throw new IllegalArgumentException(benchmark + ": rawDataHistogram entry " + pair
                                + " is not a [value, count] pair");
                    }
                    buckets.add(new HistogramBucket(number(pair.get(0)), pair.get(1).asLong()));
                }
                iterations.add(buckets);
            }
            histogram.add(iterations);
        }
        return new JmhMetric(number(required(m, "score")), number(m.path("scoreError")), confidence, percentiles,
                m.path("scoreUnit").asText(), raw, histogram);
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null) {
            throw new IllegalArgumentException("JMH result entry lacks \"" + field + "\": " + abbreviate(node));
        }
        return v;
    }

    /** A JSON number, or JMH's string forms of non-finite numbers; a missing value reads as NaN. */
    private static double number(JsonNode v) {
        if (v.isNumber()) {
            return v.asDouble();
        }
        return switch (v.asText()) {
            case "+INF", "Infinity" -> Double.POSITIVE_INFINITY;
            case "-INF", "-Infinity" -> Double.NEGATIVE_INFINITY;
            case "NaN", "" -> Double.NaN;
            default -> throw new IllegalArgumentException("expected a number, \"NaN\", \"+INF\" or \"-INF\", found " + v);
        };
    }

    private static String abbreviate(JsonNode node) {
        String s = node.toString();
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }
}
