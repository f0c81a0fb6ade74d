package io.servebench.metrics;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * One scrape of a Prometheus text exposition (format 0.0.4), reduced to what deltas need: each
 * sample's value summed over label sets (an engine with several model or engine labels counts as
 * one server), except one label kept apart: {@code le}, which a histogram's buckets need, or
 * another chosen when parsing (a DCGM exporter's {@code gpu}).
 *
 * @param samples metric name (with its {@code _total}, {@code _bucket}, {@code _sum}, {@code _count}
 *                suffix) to the kept label's value ({@code ""} when absent) to value
 */
public record PrometheusSnapshot(Map<String, Map<String, Double>> samples) {

    public PrometheusSnapshot {
        Map<String, Map<String, Double>> copy = new HashMap<>();
        samples.forEach((k, v) -> copy.put(k, Collections.unmodifiableMap(new TreeMap<>(v))));
        samples = Collections.unmodifiableMap(copy);
    }

    /**
     * Parses an exposition, keeping {@code le} apart. Comment lines, blank lines and lines that do not parse as a sample are
     * skipped (a scrape must never fail a trial); {@code NaN} and {@code ±Inf} values are kept.
     */
    public static PrometheusSnapshot parse(String text) {
        return parse(text, "le");
    }

    /** Parses an exposition as {@link #parse(String)} does, keeping the label {@code kept} apart instead of {@code le}. */
    public static PrometheusSnapshot parse(String text, String kept) {
        return parse(text, kept, Double::sum);
    }

    /**
     * Parses an exposition keeping the label {@code kept} apart, one value per value of that label: the first line's.
     * For a page that repeats one device's value over several label sets (a DCGM exporter's MIG instances of a GPU, or
     * the pods sharing it), where a sum would multiply the device's power and energy.
     */
    public static PrometheusSnapshot parseFirstPerLabel(String text, String kept) {
        return parse(text, kept, (first, later) -> first);
    }

    private static PrometheusSnapshot parse(String text, String kept, java.util.function.BinaryOperator<Double> merge) {
        Map<String, Map<String, Double>> samples = new HashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            String name;
            String key = "";
            String rest;
            if (brace >= 0 && (space < 0 || brace < space)) {
                int close = line.lastIndexOf('}');
                if (close < brace) {
                    continue;
                }
                name = line.substring(0, brace);
                key = label(line.substring(brace + 1, close), kept);
                rest = line.substring(close + 1).strip();
            } else if (space > 0) {
                name = line.substring(0, space);
                rest = line.substring(space + 1).strip();
            } else {
                continue;
            }
            // the value is the first field after the labels; a timestamp may follow
            String value = rest.split("\\s+")[0];
            double v;
            try {
                v = switch (value) {
                    case "+Inf" -> Double.POSITIVE_INFINITY;
                    case "-Inf" -> Double.NEGATIVE_INFINITY;
                    default -> Double.parseDouble(value);
                };
            } catch (NumberFormatException e) {
                continue;
            }
            samples.computeIfAbsent(name, k -> new HashMap<>()).merge(key, v, merge);
        }
        return new PrometheusSnapshot(samples);
    }

    /** The value of a label in a label list ({@code a="x",le="0.5"}), {@code ""} when absent. */
    private static String label(String labels, String key) {
        int i = 0;
        while (i < labels.length()) {
            int eq = labels.indexOf('=', i);
            if (eq < 0 || eq + 1 >= labels.length() || labels.charAt(eq + 1) != '"') {
                return "";
            }
            String k = labels.substring(i, eq).strip();
            StringBuilder v = new StringBuilder();
            int j = eq + 2;
            while (j < labels.length() && labels.charAt(j) != '"') {
                if (labels.charAt(j) == '\\' && j + 1 < labels.length()) {
                    j++;
                }
                v.append(labels.charAt(j));
                j++;
            }
            if (k.equals(key)) {
                return v.toString();
            }
            int comma = labels.indexOf(',', j);
            if (comma < 0) {
                return "";
            }
            i = comma + 1;
        }
        return "";
    }

    /**
     * The scrapes of several replicas of one engine as one: each sample summed over them, as the scrape of one server
     * sums it over label sets (counters and histograms add; gauges give the replicas' total).
     */
    public static PrometheusSnapshot sum(java.util.List<PrometheusSnapshot> scrapes) {
        Map<String, Map<String, Double>> samples = new HashMap<>();
        for (PrometheusSnapshot s : scrapes) {
            s.samples().forEach((name, byKey) -> byKey.forEach((key, v) -> samples.computeIfAbsent(name,
                    k -> new HashMap<>()).merge(key, v, Double::sum)));
        }
        return new PrometheusSnapshot(samples);
    }

    /** A sample without {@code le}, summed over label sets; empty when the scrape lacks it. */
    public OptionalDouble value(String name) {
        Map<String, Double> byLe = samples.get(name);
        Double v = byLe == null ? null : byLe.get("");
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** A sample's values by the kept label's value ({@code ""} for lines without it); empty when the scrape lacks it. */
    public Map<String, Double> byLabel(String name) {
        return samples.getOrDefault(name, Map.of());
    }

    /** A histogram's cumulative bucket counts by upper bound ({@code +Inf} included), sorted; empty when absent. */
    public TreeMap<Double, Double> buckets(String histogram) {
        TreeMap<Double, Double> out = new TreeMap<>();
        Map<String, Double> byLe = samples.get(histogram + "_bucket");
        if (byLe != null) {
            byLe.forEach((le, count) -> {
                try {
                    out.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), count);
                } catch (NumberFormatException e) {
                    // a bucket without a numeric bound is not a bucket of this histogram's
                }
            });
        }
        return out;
    }
}
