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
 * @param params           params as written in the file: a ServeBench entry's axes, or (files written before
 *                         ServeBench wrote axes) every param encoded by {@link JmhParamCodec}
 * @param primaryMetric    the primary metric
 * @param secondaryMetrics secondary metrics by name without JMH's {@code ·} ({@code ttft.p99}, {@code gc.alloc.rate}),
 *                         in file order
 * @param allParams        a ServeBench entry's params as the block had them ({@value JmhJsonWriter#EXTRA}), empty for
 *                         an entry without them
 * @param block            a ServeBench entry's block name, {@code Class.variant} ({@value JmhJsonWriter#EXTRA}), empty
 *                         for an entry without it
 * @param environment      where a ServeBench entry's server ran, by what it names ({@code engine}, {@code engine version},
 *                         {@code GPUs}), in the file's order; empty for an entry without it (JMH's, or written before)
 */
public record JmhBenchmark(String benchmark, String mode, int forks, Map<String, String> params,
                           JmhMetric primaryMetric, Map<String, JmhMetric> secondaryMetrics, Map<String, String> allParams,
                           String block, Map<String, String> environment) {

    public JmhBenchmark {
        block = block == null ? "" : block;
        environment = environment == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        secondaryMetrics = Collections.unmodifiableMap(new LinkedHashMap<>(secondaryMetrics));
        allParams = Collections.unmodifiableMap(new LinkedHashMap<>(allParams));
    }

    /** An entry without ServeBench's own object: JMH's, or ServeBench's of before. */
    public JmhBenchmark(String benchmark, String mode, int forks, Map<String, String> params, JmhMetric primaryMetric,
                        Map<String, JmhMetric> secondaryMetrics) {
        this(benchmark, mode, forks, params, primaryMetric, secondaryMetrics, Map.of(), "", Map.of());
    }

    /**
     * What the entry measured: its block's {@code Class.variant} where ServeBench wrote it, else its benchmark, so
     * that entries match whether their benchmark carries params in its name or not.
     */
    public String identity() {
        return block.isEmpty() ? benchmark : block;
    }

    /**
     * Every param with ServeBench's values: the block's as written in the entry's own object, or, in an entry of
     * before, its params decoded ({@link JmhParamCodec#decode}), so results of both layouts match.
     */
    public Map<String, String> decodedParams() {
        if (!allParams.isEmpty()) {
            return allParams;
        }
        Map<String, String> decoded = new LinkedHashMap<>();
        params.forEach((k, v) -> decoded.put(k, JmhParamCodec.decode(k, v)));
        return Collections.unmodifiableMap(decoded);
    }
}
