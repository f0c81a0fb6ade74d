package io.servebench.study;

import java.util.Objects;

/**
 * One listed benchmark: a variant of a study.
 *
 * @param study   the study the variant belongs to
 * @param variant one of {@code study}'s variants
 */
public record Benchmark(StudyDescriptor study, VariantDescriptor variant) {

    public Benchmark {
        Objects.requireNonNull(study, "study");
        Objects.requireNonNull(variant, "variant");
    }

    /** The name as listed: {@code binary.ClassName.method}. */
    public String name() {
        return study.className() + "." + variant.name();
    }
}
