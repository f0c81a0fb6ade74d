/**
 * JMH's JSON result format, written and read: one entry per result block, mean E2E latency as the primary metric
 * with its histogram ({@code mode sample}), every other metric a secondary metric, the block's params as JMH params
 * (values with {@code ,} or {@code =} encoded as {@link io.servebench.results.jmh.JmhParamCodec} says). The reader
 * accepts ServeBench's files and JMH's own.
 *
 * <p>Depends on the result model and {@code io.servebench.stats} (JMH's {@code scoreError}).
 */
package io.servebench.results.jmh;
