package io.servebench.results.jmh;

import io.servebench.results.HistogramBucket;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One metric of a JMH result entry, as read from JSON. Numbers JMH writes as strings
 * ({@code "NaN"}, {@code "+INF"}, {@code "-INF"}) are read as the matching doubles.
 *
 * @param score            the score
 * @param scoreError       half-width of the 99.9% confidence interval, NaN when JMH could not compute it
 * @param scoreConfidence  the interval's bounds {@code [low, high]}
 * @param scorePercentiles percentile (JMH's key, e.g. {@code "99.9"}) to value, in file order
 * @param scoreUnit        e.g. {@code "s/op"}, {@code "tok/s"}
 * @param rawData          per fork, per iteration scores; empty when the entry has a histogram instead
 * @param rawDataHistogram per fork, per iteration, the {@code [value, count]} buckets; empty when absent; a ServeBench
 *                         secondary metric has one of its fork values, for readers that want one
 */
public record JmhMetric(double score, double scoreError, List<Double> scoreConfidence,
                        Map<String, Double> scorePercentiles, String scoreUnit, List<List<Double>> rawData,
                        List<List<List<HistogramBucket>>> rawDataHistogram) {

    public JmhMetric {
        scoreConfidence = List.copyOf(scoreConfidence);
        scorePercentiles = Collections.unmodifiableMap(new LinkedHashMap<>(scorePercentiles));
        rawData = rawData.stream().map(List::copyOf).toList();
        rawDataHistogram = rawDataHistogram.stream().map(f -> f.stream().map(List::copyOf).toList()).toList();
    }

    /**
     * The same metric in another time unit: every number times {@code factor}, e.g. 1000 from {@code s/op} to
     * {@code ms/op}.
     */
    public JmhMetric scaled(double factor, String unit) {
        Map<String, Double> percentiles = new LinkedHashMap<>();
        scorePercentiles.forEach((k, v) -> percentiles.put(k, v * factor));
        return new JmhMetric(score * factor, scoreError * factor, scoreConfidence.stream().map(v -> v * factor).toList(),
                percentiles, unit, rawData.stream().map(f -> f.stream().map(v -> v * factor).toList()).toList(),
                rawDataHistogram.stream().map(f -> f.stream().map(i -> i.stream()
                        .map(b -> new HistogramBucket(b.value() * factor, b.count())).toList()).toList()).toList());
    }

    /**
     * A unit results.json writes in place of the reports' one, and what a value is multiplied by.
     *
     * @param unit  the unit written
     * @param scale how many of it one of the reports' unit is
     */
    public record Readable(String unit, double scale) {
    }

    /** The reports' units that results.json writes as another, so that their values keep three digits. */
    public static final Map<String, Readable> READABLE = Map.of(
            "req/s", new Readable("req/min", 60),
            "tokens/J", new Readable("tokens/kJ", 1000),
            "J/token", new Readable("mJ/token", 1000));

    /**
     * Metrics written in a unit of their own, whatever their unit in the reports: the mean requests in flight
     * ({@code requests}, where a count such as {@code successful_requests} stays whole) in thousandths, {@code mreq}.
     */
    public static final Map<String, Readable> READABLE_METRICS = Map.of("mean_concurrency", new Readable("mreq", 1000));

    /** The reports' unit of each of {@link #READABLE_METRICS}' written units. */
    private static final Map<String, String> METRIC_UNITS = Map.of("mreq", "requests");

    /**
     * How many of {@code to} one {@code from} is: two times ({@link #timeFactor}), or a unit and the one results.json
     * writes it as ({@link #READABLE}, {@link #READABLE_METRICS}), either way round; NaN for units that do not convert.
     */
    public static double factor(String from, String to) {
        double written = writtenFactor(from, to);
        if (!Double.isNaN(written)) {
            return written;
        }
        written = writtenFactor(to, from);
        return Double.isNaN(written) ? timeFactor(from, to) : 1 / written;
    }

    /** How many of the written unit {@code to} one of the reports' unit {@code from} is; NaN when {@code to} is not its. */
    private static double writtenFactor(String from, String to) {
        Readable asWritten = READABLE.get(from);
        if (asWritten != null && asWritten.unit().equals(to)) {
            return asWritten.scale();
        }
        return from.equals(METRIC_UNITS.get(to)) ? READABLE_METRICS.values().stream()
                .filter(r -> r.unit().equals(to)).findFirst().map(Readable::scale).orElse(Double.NaN) : Double.NaN;
    }

    /**
     * How many of {@code to} one {@code from} is, for two times ({@code s}, {@code ms}, {@code us}, {@code ns}, each
     * also per op: {@code ms/op}); NaN when either is not a time or they differ in being per op.
     */
    public static double timeFactor(String from, String to) {
        boolean perOp = from.endsWith("/op");
        if (perOp != to.endsWith("/op")) {
            return Double.NaN;
        }
        return seconds(perOp ? from.substring(0, from.length() - 3) : from)
                / seconds(perOp ? to.substring(0, to.length() - 3) : to);
    }

    private static double seconds(String unit) {
        return switch (unit) {
            case "s" -> 1;
            case "ms" -> 1e-3;
            case "us" -> 1e-6;
            case "ns" -> 1e-9;
            default -> Double.NaN;
        };
    }
}
