package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The load a variant is measured under. On a class it applies to every variant; on a variant
 * method it overrides the class's settings one attribute at a time. Settings resolve as in JMH:
 * command line ({@code -p rate=4}) first, then the method, then the class, then the defaults below.
 *
 * <p>Numeric attributes use {@code -1} for "not set here"; an explicitly written value must be
 * positive (warm-up may be zero).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Workload {

    /** Not set here: inherit from the enclosing level. */
    int UNSET = -1;

    /**
     * Where prompts come from: {@code "sharegpt:PATH"} (a ShareGPT-format JSON file),
     * {@code "synthetic-sharegpt"} (the bundled made-up conversations) or
     * {@code "random:IN:OUT"} (random prompts of IN tokens asking for OUT tokens).
     * Default: {@code "synthetic-sharegpt"}.
     */
    String dataset() default "";

    /** Arrival profile, one of {@link Profile}'s names. Default: {@link Profile#CONSTANT}. */
    String profile() default "";

    /** Requests per second for rate profiles. Default: 1. */
    double rate() default UNSET;

    /** In-flight requests for {@link Profile#CONCURRENT}. Default: 1. */
    int concurrency() default UNSET;

    /** Measured requests per trial. Default: 100. */
    int requests() default UNSET;

    /** Requests sent before the measured ones and left out of the results. Default: 0. */
    int warmup() default UNSET;
}
