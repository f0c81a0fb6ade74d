package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The engine that serves the study's model and the flags every variant starts it with.
 *
 * <p>Each flag is one element: {@code "--name"}, {@code "--name=value"} or {@code "--name value"}.
 * The order of flags does not matter: two variants whose flags name the same values share one server.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Engine {

    /** Engine kind: {@code "vllm"}, {@code "sglang"} or {@code "sim"} (the built-in simulated engine). */
    String value() default "sim";

    /** Flags passed to the engine's serve command, in this engine's dialect. */
    String[] flags() default {};
}
