package io.servebench.study;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One {@code @Param} field of a study.
 *
 * @param name   the field's name; {@code ${name}} in a flag refers to it
 * @param type   the field's type as written: {@code int}, {@code long}, {@code double},
 *               {@code boolean} or {@code String} are supported; anything else is kept as its
 *               type name so that the checker can report it
 * @param values the values in the order given, as strings (not yet converted)
 */
public record ParamSpec(String name, String type, List<String> values) {

    /** Field names that set a workload setting and so apply to every variant, in this order. */
    public static final List<String> WORKLOAD_PARAMS = List.of("rate", "requests", "warmup", "concurrency");

    /** The field types a {@code @Param} may have. */
    public static final Set<String> SUPPORTED_TYPES = Set.of("int", "long", "double", "boolean", "String");

    public ParamSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        values = List.copyOf(values);
    }

    /** Whether this field sets a workload setting (and so applies to every variant). */
    public boolean isWorkloadParam() {
        return WORKLOAD_PARAMS.contains(name);
    }
}
