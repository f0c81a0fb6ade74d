package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@link Variant} the study recommends: the reports print its serve command and, when it
 * ran at several workload points, a table of it against the {@link Baseline} at each. At most one
 * per study, and not the baseline itself.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Recommended {
}
