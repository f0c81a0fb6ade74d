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

    /**
     * The names of the {@code @Param} fields that set a workload setting and so apply to every variant: the numeric
     * ones of the six every workload has ({@code BlockResult.WORKLOAD_PARAMS}); dataset and profile are the class's or
     * {@code -p}'s, and a field of that name is a variant's like any other.
     */
    public static final List<String> WORKLOAD_FIELDS = List.of("rate", "requests", "warmup", "concurrency");

    /** The field types a {@code @Param} may have. */
    public static final Set<String> SUPPORTED_TYPES = Set.of("int", "long", "double", "boolean", "String");

    public ParamSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        values = List.copyOf(values);
    }

    /** Whether this field sets a workload setting (and so applies to every variant). */
    public boolean isWorkloadParam() {
        return WORKLOAD_FIELDS.contains(name);
    }
}
