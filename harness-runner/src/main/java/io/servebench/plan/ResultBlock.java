package io.servebench.plan;

import java.util.Map;

/**
 * One result block: a variant of a study at one point of its parameters, as JMH reports one
 * benchmark at one parameter combination. Several points may share one {@link Trial}.
 *
 * @param benchmark   {@code fully.qualified.Class.variant}
 * @param className   the study class
 * @param variant     the variant's method name
 * @param group       the variant's option group, {@code ""} if none
 * @param baseline    whether this is the study's baseline variant
 * @param paramValues the values of the parameters this point was expanded over, in declaration order
 * @param trial       the measurement that gives this block its numbers
 * @param recommended whether this is the study's recommended variant
 */
public record ResultBlock(String benchmark, String className, String variant, String group, boolean baseline,
                             Map<String, String> paramValues, Trial trial, boolean recommended) {

    public ResultBlock {
        paramValues = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(paramValues));
    }
}
