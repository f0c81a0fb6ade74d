package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the study as a tuning method instead of trial by trial: the runner chooses between its steps from what it
 * measured, as a person following the reference study's method would.
 * <ol>
 *   <li><b>Engine selection</b>: the {@link Baseline} and the variants of the {@link #engineGroup()} group, each an
 *       engine with its baseline flags, at the class's {@link Workload} point; the winner is the fastest by the primary
 *       metric, and it must be significantly faster than the baseline, else the baseline stays.</li>
 *   <li><b>Option groups</b>, one at a time in declaration order: each other group's variants (every {@link Param}
 *       point of them) against the winner; an option wins its group only when it is significantly better.</li>
 *   <li><b>Combination</b>: the winning options' flags together, measured against the baseline and against each
 *       winning option alone, since gains need not add up; a combination that loses to one of its parts is reported
 *       and the better part recommended.</li>
 *   <li><b>Validation</b>: baseline against the recommendation at each of {@link #validationRates()}, or of
 *       {@link #validationConcurrencies()} for a study tuned at a concurrency.</li>
 * </ol>
 * A comparison that is not significant but differs by more than {@link #closeCall()} is too close to call: both sides
 * get another repetition, up to {@link #maxRepetitions()}. Noise never picks a winner.
 *
 * <p>Option variants are written for the study's own engine ({@link Engine}); when another engine wins, the groups
 * whose variants do not name it are reported as not tried.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Tune {

    /** The group whose variants are the candidate engines (with the {@link Baseline}). */
    String engineGroup() default "engine-selection";

    /**
     * The primary metric, lower is better: {@code e2e_latency} (default), {@code ttft}, {@code tpot} or {@code itl}, each
     * compared on its mean per request, or with a percentile after a dot: {@code ttft.p99}, {@code e2e_latency.p90}
     * ({@code p50}, {@code p90}, {@code p95}, {@code p99}, {@code p99.9}); or a figure of the GPUs' telemetry,
     * {@code energy_per_output_token}, {@code energy_per_request} or {@code cost_per_million_output_tokens}, compared
     * over repetitions (on a real engine it needs GPU telemetry; the simulated engine has its power model); or, higher
     * being better, {@code goodput} or {@code slo_attainment} (under the study's one set of SLOs, {@link Slo} on the
     * class or {@code --slo}), {@code output_throughput} (at a fixed rate only what a configuration that falls behind
     * fails to deliver: the reports say so) or {@code output_tokens_per_joule}, each compared over repetitions; or
     * {@code capacity}, the highest request rate meeting the SLOs.
     */
    String metric() default "e2e_latency";

    /**
     * Request rates at which the recommendation is checked against the baseline; none for no validation step, and none
     * for a study tuned at a concurrency ({@code @Workload(concurrency = C)}), which has {@link #validationConcurrencies()}.
     */
    double[] validationRates() default {};

    /**
     * For a study tuned at a concurrency: the numbers of closed-loop streams at which the recommendation is checked
     * against the baseline; none for no validation step.
     */
    int[] validationConcurrencies() default {};

    /** Most repetitions of one configuration, the first included; 1 adds none. */
    int maxRepetitions() default 3;

    /**
     * The smallest difference, as a ratio above 1, that is worth more repetitions when it is not significant
     * ({@code 1.02}: 2%); a smaller one is a non-difference at once.
     */
    double closeCall() default 1.02;
}
