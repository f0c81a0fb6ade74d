/**
 * Running studies, as JMH's {@code Runner} does: {@link io.servebench.runner.Runner} selects benchmarks, plans their
 * trials and hands the plan to its run strategy ({@code PlannedRun}, {@code TunedRun}, {@code CapacityRun}), which
 * has an {@link io.servebench.execution.Executor} measure the trials it chooses; {@code RunFolder} keeps the journal
 * and writes the reports, also when the run is stopped, and is the one place that picks the executor.
 * {@link io.servebench.runner.RunOptions} is what the user asked for; {@link io.servebench.runner.RunnerException} is
 * a run that cannot go as asked.
 *
 * <p>Orchestration only: imports {@code tuning}, {@code execution}, {@code plan} and the layers below, never the
 * command line.
 */
package io.servebench.runner;
