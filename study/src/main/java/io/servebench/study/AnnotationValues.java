package io.servebench.study;

import java.util.List;
import java.util.Optional;

/**
 * One ServeBench annotation on a study class or member, as {@link StudyReader} reads it: from source while javac compiles
 * (the annotation processor) or from a loaded class (reflection). Values are a {@code String}, a {@code Number}, a
 * {@code Boolean}, an enum constant's name, or a {@code List} of those for an array attribute.
 */
public interface AnnotationValues {

    /**
     * The value written for {@code attribute}; empty when it was left out. Reflection cannot tell a value written out
     * from the default, so there a value equal to the default counts as left out.
     */
    Optional<Object> given(String attribute);

    /** The value written for {@code attribute}, else the annotation's default. */
    Object value(String attribute);

    /** A text attribute's value. */
    default String string(String attribute) {
        return String.valueOf(value(attribute));
    }

    /** An array attribute's values as text. */
    default List<String> strings(String attribute) {
        return ((List<?>) value(attribute)).stream().map(String::valueOf).toList();
    }

    /** A text attribute written and not empty; {@code null} otherwise (empty text means "not set here"). */
    default String givenText(String attribute) {
        return given(attribute).map(String::valueOf).filter(t -> !t.isEmpty()).orElse(null);
    }

    /** A number written for {@code attribute}, {@code null} when left out (an explicit {@code -1} is kept). */
    default Double givenNumber(String attribute) {
        return given(attribute).map(v -> ((Number) v).doubleValue()).orElse(null);
    }

    /** A whole number written for {@code attribute}, {@code null} when left out (an explicit {@code -1} is kept). */
    default Integer givenWhole(String attribute) {
        return given(attribute).map(v -> ((Number) v).intValue()).orElse(null);
    }
}
