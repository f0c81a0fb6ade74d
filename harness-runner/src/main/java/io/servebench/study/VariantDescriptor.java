package io.servebench.study;

import java.util.List;
import java.util.Objects;

/**
 * One {@code @Variant} method of a study.
 *
 * @param name     the method's name, which names the variant
 * @param group    the option group, {@code ""} for none
 * @param flags    the variant's own flags as written (not merged with the class's; see
 *                 {@link Studies#effectiveFlags(StudyDescriptor, VariantDescriptor)})
 * @param engine   the engine kind this variant switches to, {@code ""} for the class's
 * @param baseline whether the method carries {@code @Baseline}
 * @param workload the method's {@code @Workload} settings, {@link WorkloadOptions#UNSET} when it has none
 * @param recommended whether the method carries {@code @Recommended}
 */
public record VariantDescriptor(String name, String group, List<String> flags, String engine, boolean baseline,
                                WorkloadOptions workload, boolean recommended) {

    public VariantDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(workload, "workload");
        flags = List.copyOf(flags);
    }

    /** A variant without {@code @Recommended}. */
    public VariantDescriptor(String name, String group, List<String> flags, String engine, boolean baseline,
                             WorkloadOptions workload) {
        this(name, group, flags, engine, baseline, workload, false);
    }
}
