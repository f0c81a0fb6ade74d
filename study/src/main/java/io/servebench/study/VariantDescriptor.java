package io.servebench.study;

import io.servebench.engine.kind.ServerSettingsOptions;

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
 * @param slo      the method's {@code @Slo}, {@link SloOptions#UNSET} when it has none (see
 *                 {@link StudyDescriptor#slo(String)} for what holds)
 * @param serverOptions the method's {@code @ServerOptions}, {@link ServerSettingsOptions#NONE} when it has none (see
 *                 {@link StudyDescriptor#serverOptions(String)})
 * @param engineVersion the version of {@code engine} whose flags the variant's are checked against, {@code ""} for
 *                 the newest known
 */
public record VariantDescriptor(String name, String group, List<String> flags, String engine, boolean baseline,
                                WorkloadOptions workload, boolean recommended, SloOptions slo,
                                ServerSettingsOptions serverOptions, String engineVersion) {

    public VariantDescriptor {
        Objects.requireNonNull(engineVersion, "engineVersion");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(slo, "slo");
        Objects.requireNonNull(serverOptions, "serverOptions");
        flags = List.copyOf(flags);
    }

    /** A variant that names no engine version. */
    public VariantDescriptor(String name, String group, List<String> flags, String engine, boolean baseline,
                             WorkloadOptions workload, boolean recommended, SloOptions slo,
                             ServerSettingsOptions serverOptions) {
        this(name, group, flags, engine, baseline, workload, recommended, slo, serverOptions, "");
    }

    /** A variant that restates no SLO or server option. */
    public VariantDescriptor(String name, String group, List<String> flags, String engine, boolean baseline,
                             WorkloadOptions workload, boolean recommended) {
        this(name, group, flags, engine, baseline, workload, recommended, SloOptions.UNSET, ServerSettingsOptions.NONE);
    }

    /** A variant without {@code @Recommended}. */
    public VariantDescriptor(String name, String group, List<String> flags, String engine, boolean baseline,
                             WorkloadOptions workload) {
        this(name, group, flags, engine, baseline, workload, false);
    }
}
