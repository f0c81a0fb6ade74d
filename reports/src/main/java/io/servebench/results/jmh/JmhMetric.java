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
 * @param rawDataHistogram per fork, per iteration, the {@code [value, count]} buckets; empty when absent
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
}
