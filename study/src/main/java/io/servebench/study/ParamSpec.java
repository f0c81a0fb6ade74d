package io.servebench.study;

import io.servebench.workload.WorkloadSetting;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
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

    /** The field types a {@code @Param} may have. */
    public static final Set<String> SUPPORTED_TYPES = Set.of("int", "long", "double", "boolean", "String");

    public ParamSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        values = List.copyOf(values);
    }

    /**
     * The workload setting this field sets for every variant: one of the numeric ones of the six every workload has
     * ({@link WorkloadSetting#numeric()}); dataset and profile are the class's or {@code -p}'s, and a field of that name
     * is a variant's like any other.
     */
    public Optional<WorkloadSetting> workloadSetting() {
        return WorkloadSetting.byKey(name).filter(WorkloadSetting::numeric);
    }

    /** Whether this field sets a workload setting (and so applies to every variant). */
    public boolean isWorkloadParam() {
        return workloadSetting().isPresent();
    }
}
