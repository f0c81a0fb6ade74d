package io.servebench.results.jmh;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One entry of a JMH JSON result file.
 *
 * @param benchmark        fully qualified benchmark name ({@code Class.method})
 * @param mode             JMH's short mode label: {@code "sample"}, {@code "thrpt"}, {@code "avgt"}, {@code "ss"}
 * @param forks            forks (ServeBench: repetitions)
 * @param params           params as written in the file (ServeBench's are encoded: see {@link JmhParamCodec})
 * @param primaryMetric    the primary metric
 * @param secondaryMetrics secondary metrics by name, in file order
 */
public record JmhBenchmark(String benchmark, String mode, int forks, Map<String, String> params,
                           JmhMetric primaryMetric, Map<String, JmhMetric> secondaryMetrics) {

    public JmhBenchmark {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        secondaryMetrics = Collections.unmodifiableMap(new LinkedHashMap<>(secondaryMetrics));
    }

    /** The params decoded back to ServeBench's values ({@link JmhParamCodec#decode}). */
    public Map<String, String> decodedParams() {
        Map<String, String> decoded = new LinkedHashMap<>();
        params.forEach((k, v) -> decoded.put(k, JmhParamCodec.decode(k, v)));
        return Collections.unmodifiableMap(decoded);
    }
}
