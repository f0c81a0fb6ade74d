package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Values a study field takes, as JMH's {@code @Param}: variants expand over the cartesian product
 * of the parameters they use, and {@code -p name=v1,v2} on the command line replaces the values.
 *
 * <p>A field named after a {@link Workload} setting ({@code rate}, {@code requests},
 * {@code warmup}, {@code concurrency}) sets that setting and applies to every variant. Any other
 * field is used by the variants whose flags name it as {@code ${field}}. Each value must convert to
 * the field's type ({@code int}, {@code long}, {@code double}, {@code boolean}, {@code String}).
 *
 * <pre>{@code
 * @Param({"1", "4", "8", "16"}) double rate;
 * @Param({"128", "256"}) int maxNumSeqs;
 * @Variant(group = "max-num-seqs", flags = "--max-num-seqs=${maxNumSeqs}") public void maxNumSeqs() {}
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Param {

    /** The values, as strings converted to the field's type. */
    String[] value();
}
