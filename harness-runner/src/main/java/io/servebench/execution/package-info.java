/**
 * Measuring trials: an {@link io.servebench.execution.Executor} takes batches of trials (one server configuration
 * each) and measures them, here ({@link io.servebench.execution.LocalExecutor}: a {@code ServerSession} per engine
 * start, a {@code LoadMeasurement} per load, {@code Sweep} for sweeps) or on a cluster ({@code execution.slurm}).
 * What to measure is the caller's ({@code runner}); how to measure it is {@link io.servebench.execution.ExecutionParams}.
 */
package io.servebench.execution;
