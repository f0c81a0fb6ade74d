/**
 * Comparisons: a variant against its baseline at one workload point ({@link io.servebench.compare.Comparison}, the
 * ratio of mean latencies with a 95% interval and a verdict that is "not significant" on noise), and two JMH result
 * files entry by entry ({@link io.servebench.compare.ResultsComparison}, for {@code compare} and CI).
 *
 * <p>Depends on the result model, {@code io.servebench.results.jmh} and {@code io.servebench.stats}; the words are
 * the reports'.
 */
package io.servebench.compare;
