/**
 * The load generator measured against ground truth: {@link io.servebench.loadcheck.LoadCheck} drives the scripted
 * truth server in the same JVM, {@link io.servebench.loadcheck.TruthComparison} sets each client record beside what
 * the server did (TTFT, event and ITL errors), and {@link io.servebench.loadcheck.LoadCheckReport} prints precision
 * and cost.
 *
 * <p>Below the command line; imports {@code load}, {@code metrics}, {@code workload} and the simulator's truth.
 */
package io.servebench.loadcheck;
