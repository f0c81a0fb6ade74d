/**
 * Statistics: means, standard deviations, Student's t distribution, JMH's {@code scoreError} (the half-width of
 * the 99.9% interval of the mean over repetitions), Welch's test, and intervals on the ratio of two means
 * ({@link io.servebench.stats.RatioEstimate}: Welch on the log ratio of repetition means, or a seeded bootstrap over
 * histograms).
 *
 * <p>Depends on the result model's histogram buckets only.
 */
package io.servebench.stats;
