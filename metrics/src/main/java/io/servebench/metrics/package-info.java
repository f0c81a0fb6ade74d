/**
 * Metrics: {@link io.servebench.metrics.MetricsAggregator} turns request records into a repetition's metrics exactly
 * as DESIGN.md defines them (HdrHistogram, 3 significant digits; absent, never zero, without samples), goodput under
 * {@link io.servebench.measure.SloParams}s, and server-side deltas from Prometheus scrapes before and after a load.
 *
 * <p>Imports {@code load} (its records) and below.
 */
package io.servebench.metrics;
