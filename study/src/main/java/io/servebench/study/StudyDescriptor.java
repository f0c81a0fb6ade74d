package io.servebench.study;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.kind.ServerSettingsOptions;
import io.servebench.measure.SloParams;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A study class as data: everything its annotations say, read by {@link StudyReader} at run time or at compile time
 * (the annotation processor), so that
 * {@link StudyChecker}, the planner and the runner see one model and nothing reads the class again.
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
 * @param slo         the class's {@code @Slo}, {@link SloOptions#UNSET} when it has none
 * @param serverOptions the class's {@code @ServerOptions}, {@link ServerSettingsOptions#NONE} when it has none
 * @param tune        the class's {@code @Tune}; empty for a study that lists its trials
 * @param engineVersion the version {@code @Engine} names, whose flags the study's are checked against; {@code ""}
 *                    for the newest known
 */
public record StudyDescriptor(String className, String model, String description, String engineKind,
                              List<String> engineFlags, WorkloadOptions workload, List<ParamSpec> params,
                              List<VariantDescriptor> variants, EngineSetup engineSetup, SloOptions slo,
                              ServerSettingsOptions serverOptions, Optional<TuneOptions> tune, String engineVersion) {

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
        Objects.requireNonNull(slo, "slo");
        Objects.requireNonNull(serverOptions, "serverOptions");
        Objects.requireNonNull(tune, "tune");
        Objects.requireNonNull(engineVersion, "engineVersion");
    }

    /** A study whose {@code @Engine} names no version. */
    public StudyDescriptor(String className, String model, String description, String engineKind,
                           List<String> engineFlags, WorkloadOptions workload, List<ParamSpec> params,
                           List<VariantDescriptor> variants, EngineSetup engineSetup, SloOptions slo,
                           ServerSettingsOptions serverOptions, Optional<TuneOptions> tune) {
        this(className, model, description, engineKind, engineFlags, workload, params, variants, engineSetup, slo,
                serverOptions, tune, "");
    }

    /** A study whose engine needs nothing beyond its kind and flags, with no SLO, server option or tuning. */
    public StudyDescriptor(String className, String model, String description, String engineKind, List<String> engineFlags,
                           WorkloadOptions workload, List<ParamSpec> params, List<VariantDescriptor> variants) {
        this(className, model, description, engineKind, engineFlags, workload, params, variants, EngineSetup.NONE,
                SloOptions.UNSET, ServerSettingsOptions.NONE, Optional.empty());
    }

    /** This study with only these params and variants (a tuner's candidate, planned as a study of its own). */
    public StudyDescriptor with(List<ParamSpec> params, List<VariantDescriptor> variants) {
        return new StudyDescriptor(className, model, description, engineKind, engineFlags, workload, params, variants,
                engineSetup, slo, serverOptions, tune, engineVersion);
    }

    /**
     * The SLO bounds declared for the variant of that name: its method's {@code @Slo} over the class's, the class's
     * alone for a variant the study does not declare (a tuner's combination); {@link SloParams#NONE} when neither states one.
     */
    public SloParams slo(String variant) {
        return sloOptions(variant).bounds();
    }

    /** The share of requests that must meet {@link #slo(String)}; empty when neither level states one. */
    public OptionalDouble minAttainment(String variant) {
        return sloOptions(variant).attainment();
    }

    private SloOptions sloOptions(String variant) {
        return variant(variant).map(v -> slo.overriddenBy(v.slo())).orElse(slo);
    }

    /**
     * The typed engine options declared for the variant of that name: its method's {@code @ServerOptions} over the
     * class's, the class's alone for a variant the study does not declare; {@link ServerSettingsOptions#NONE} when neither
     * states any.
     */
    public ServerSettingsOptions serverOptions(String variant) {
        return variant(variant).map(v -> serverOptions.overriddenBy(v.serverOptions())).orElse(serverOptions);
    }

    /**
     * The tuner's settings; empty for a study that lists its trials.
     *
     * @throws IllegalArgumentException when {@code @Tune} has a bad value (a study the checker refuses)
     */
    public Optional<TuneParams> tuneParams() {
        return tune.map(t -> t.params(className));
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
