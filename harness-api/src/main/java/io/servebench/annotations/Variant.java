package io.servebench.annotations;

import org.junit.platform.commons.annotation.Testable;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a {@link ServingBenchmark} class as one configuration to measure. The method
 * body is not run; the method's name names the variant.
 *
 * <p>Flags are added to the class's {@link Engine#flags()}; a flag the class already sets is
 * replaced by the variant's value. A flag value may name a {@link Param} field as {@code ${field}};
 * the variant then expands over that parameter's values.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Testable
public @interface Variant {

    /** Option group this variant belongs to; its comparisons are against the study's {@link Baseline}. */
    String group() default "";

    /** Flags added to (or replacing those of) the class's engine flags. */
    String[] flags() default {};

    /**
     * Switches this variant to another engine kind. The class's flags are then not inherited, since
     * they are written in the other engine's dialect: give this engine's flags in {@link #flags()}.
     */
    String engine() default "";

    /**
     * The version of the engine this variant switches to, whose flags {@link #flags()} are checked against at compile
     * time, e.g. {@code "0.5.9"}; only with {@link #engine()}. Empty: the newest version ServeBench knows (see
     * {@link Engine#version()}).
     */
    String engineVersion() default "";
}
