/**
 * Running studies, as JMH's {@code Runner} does: {@link io.servebench.runner.Runner} selects benchmarks, plans their
 * trials and hands each engine start to a {@code ServerSession}, which measures its trials ({@code LoadMeasurement},
 * {@code Sweep}) and journals their blocks; {@code BlockResults} turns what was measured into results, and the reports
 * are written from them, also when the run is stopped. {@link io.servebench.runner.RunOptions} is what the user asked
 * for; {@link io.servebench.runner.RunnerException} is a run that cannot go as asked.
 *
 * <p>Orchestration only: imports {@code plan} and every layer below it, never the command line.
 */
package io.servebench.runner;
