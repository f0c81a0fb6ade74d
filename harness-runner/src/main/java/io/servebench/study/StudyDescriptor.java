package io.servebench.study;

import io.servebench.engine.EngineKinds;
import io.servebench.engine.EngineSetup;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A study class as data: what its annotations say, read either at run time
 * ({@link ReflectiveStudyReader}) or at compile time (the annotation processor), so that
 * {@link StudyChecker} and the planner see one model.
 *
 * @param className   the class's binary name (what {@link Class#forName(String)} takes)
 * @param model       the model the engine serves
 * @param description one line saying what the study is for, {@code ""} for none
 * @param engineKind  the class's engine kind as written ({@link #DEFAULT_ENGINE} when the class has no {@code @Engine})
 * @param engineFlags the class's engine flags as written
 * @param workload    the class's {@code @Workload} settings, {@link WorkloadOptions#UNSET} when it has none
 * @param params      the {@code @Param} fields in declaration order
 * @param variants    the {@code @Variant} methods in declaration order
 * @param engineSetup how the class's engine is started beyond kind and flags
 */
public record StudyDescriptor(String className, String model, String description, String engineKind,
                              List<String> engineFlags, WorkloadOptions workload, List<ParamSpec> params,
                              List<VariantDescriptor> variants, EngineSetup engineSetup) {

    /** The engine kind of a class without {@code @Engine}: the built-in simulated engine. */
    public static final String DEFAULT_ENGINE = EngineKinds.SIM.name();

    public StudyDescriptor {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(engineKind, "engineKind");
        Objects.requireNonNull(workload, "workload");
        engineFlags = List.copyOf(engineFlags);
        params = List.copyOf(params);
        variants = List.copyOf(variants);
        Objects.requireNonNull(engineSetup, "engineSetup");
    }

    /** A study whose engine needs nothing beyond its kind and flags. */
    public StudyDescriptor(String className, String model, String description, String engineKind, List<String> engineFlags,
                           WorkloadOptions workload, List<ParamSpec> params, List<VariantDescriptor> variants) {
        this(className, model, description, engineKind, engineFlags, workload, params, variants, EngineSetup.NONE);
    }

    /** The class name without its package (and with {@code $} of nested classes as {@code .}). */
    public String simpleName() {
        return className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
    }

    /** The variant of that name (the first, should a broken study have two). */
    public Optional<VariantDescriptor> variant(String name) {
        return variants.stream().filter(v -> v.name().equals(name)).findFirst();
    }

    /** The variant marked {@code @Baseline} (the first, should a broken study have two). */
    public Optional<VariantDescriptor> baseline() {
        return variants.stream().filter(VariantDescriptor::baseline).findFirst();
    }

    /** The {@code @Param} field of that name. */
    public Optional<ParamSpec> param(String name) {
        return params.stream().filter(p -> p.name().equals(name)).findFirst();
    }
}
