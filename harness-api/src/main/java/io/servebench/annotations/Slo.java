package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Service-level objectives for goodput: the requests per second that succeeded and met every stated
 * bound. On a class it applies to every variant; on a variant method it overrides the class's bounds
 * one attribute at a time; {@code --slo ttft=200,tpot=50} on the command line overrides both. Bounds
 * are in milliseconds; {@code -1} (the default) means "not stated here". A stated bound must be
 * positive. Without any stated bound, goodput is absent from the reports.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Slo {

    /** Not stated here: inherit from the enclosing level, or no bound. */
    double UNSET = -1;

    /** Bound on time to first token, ms. */
    double ttftMs() default UNSET;

    /** Bound on time per output token (excluding the first), ms. */
    double tpotMs() default UNSET;

    /** Bound on every inter-token latency sample of a request, ms. */
    double itlMs() default UNSET;

    /** Bound on end-to-end latency, ms. */
    double e2eMs() default UNSET;

    /**
     * The share of measured requests that must meet every stated bound, in (0, 1], e.g. {@code 0.99}: below it, the
     * JUnit engine fails the trial's test (the reports show the attainment either way). Needs a stated bound.
     */
    double minAttainment() default UNSET;
}
