/**
 * The result model: what a run produced, as every reporter reads it. A {@link io.servebench.results.RunResult} holds
 * the run's {@link io.servebench.results.BlockResult}s (one variant at one workload point, as reported) and the
 * {@link io.servebench.results.ServerEnvironment} of each engine start; a block holds one
 * {@link io.servebench.results.RepetitionResult} per repetition, its {@link io.servebench.measure.Metric}s as scalars
 * and {@link io.servebench.results.Distribution}s (mean, quantiles and the HdrHistogram buckets they came from). A
 * metric that had no samples is absent, never zero. {@link io.servebench.results.ResultFormat} is how a format writes
 * a run to a file.
 *
 * <p>Units are in each metric's definition (seconds for latencies, milliseconds where DESIGN.md says so, tokens per
 * second for throughputs). Immutable records; depends on nothing but the JDK (Jackson reads and writes them as they are).
 */
package io.servebench.results;
