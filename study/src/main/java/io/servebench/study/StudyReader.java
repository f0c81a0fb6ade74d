package io.servebench.study;

import io.servebench.annotations.ServingBenchmark;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.kind.ServerSettingsOptions;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one reader of a study's annotations: from a {@link StudyClass}, whether javac is compiling it (the annotation
 * processor) or it is loaded (the runner, the JUnit engine), into a {@link StudyDescriptor}. What was written is kept
 * as written (an explicit {@code -1} or an empty text included, for the {@link StudyChecker} to judge); the class is
 * neither initialised nor instantiated.
 *
 * <p>A study may extend another class, as a JMH benchmark may: it has the {@code @Param} fields and {@code @Variant}
 * methods of the classes it extends, theirs first, a member it declares again taking the inherited one's place (without
 * {@code @Variant} it is no variant); and each of {@code @Engine}, {@code @Workload}, {@code @Slo}, {@code @ServerOptions}
 * and {@code @Tune} from the nearest class that has it. Its own {@code @ServingBenchmark} makes it a study.
 */
public final class StudyReader {

    private StudyReader() {
    }

    /**
     * The study that a loaded class's annotations describe, variants and params in declaration order. The descriptor
     * is not checked: run {@link StudyChecker} on it.
     *
     * @throws IllegalArgumentException when {@code type} has no {@link ServingBenchmark} annotation
     */
    public static StudyDescriptor read(Class<?> type) {
        if (!type.isAnnotationPresent(ServingBenchmark.class)) {
            throw new IllegalArgumentException("class " + type.getName()
                    + " is not a study: expected it to be annotated @" + ServingBenchmark.class.getName());
        }
        return read(new ReflectedStudyClass(type));
    }

    /** The study that {@code type}'s annotations describe; its {@code @ServingBenchmark} is there. */
    public static StudyDescriptor read(StudyClass<?> type) {
        AnnotationValues study = type.annotation("ServingBenchmark").orElseThrow(() -> new IllegalArgumentException(
                "class " + type.binaryName() + " is not a study: it has no @ServingBenchmark"));
        Optional<AnnotationValues> engine = nearest(type, "Engine");
        List<ParamSpec> params = params(type).stream().map(f -> new ParamSpec(f.name(), f.typeName(),
                f.annotation("Param").orElseThrow().strings("value"))).toList();
        List<VariantDescriptor> variants = variants(type).stream().map(StudyReader::variant).toList();
        return new StudyDescriptor(type.binaryName(), study.string("model"), study.string("description"),
                engine.map(e -> e.string("value")).orElse(StudyDescriptor.DEFAULT_ENGINE),
                engine.map(e -> e.strings("flags")).orElse(List.of()), workload(nearest(type, "Workload")), params,
                variants, engine.map(StudyReader::engineSetup).orElse(EngineSetup.NONE), slo(nearest(type, "Slo")),
                serverOptions(nearest(type, "ServerOptions")), nearest(type, "Tune").map(StudyReader::tune),
                engine.map(e -> e.string("version")).orElse(""));
    }

    /** The class's variant methods, inherited ones first, in the order of {@link StudyDescriptor#variants()}. */
    public static <M extends StudyMember> List<M> variants(StudyClass<M> type) {
        return members(type, StudyClass::methods).stream().filter(m -> m.annotation("Variant").isPresent()).toList();
    }

    /** The class's {@code @Param} fields, inherited ones first, in the order of {@link StudyDescriptor#params()}. */
    public static <M extends StudyMember> List<M> params(StudyClass<M> type) {
        return members(type, StudyClass::fields).stream().filter(f -> f.annotation("Param").isPresent()).toList();
    }

    /**
     * The members of {@code type} and the classes it extends, theirs first; one declared again replaces the inherited one
     * of its name in place.
     */
    private static <M extends StudyMember> List<M> members(StudyClass<M> type,
                                                           Function<StudyClass<M>, List<M>> declared) {
        List<M> inherited = type.superclass().map(parent -> members(parent, declared)).orElse(List.of());
        List<M> members = new ArrayList<>(inherited);
        for (M member : declared.apply(type)) {
            // an inherited member is replaced once; a second of the name (an overload) is the class's own, and so a
            // name used twice, which the checker reports
            int replaced = -1;
            for (int i = 0; i < inherited.size() && replaced < 0; i++) {
                if (members.get(i) == inherited.get(i) && inherited.get(i).name().equals(member.name())) {
                    replaced = i;
                }
            }
            if (replaced >= 0) {
                members.set(replaced, member);
            } else {
                members.add(member);
            }
        }
        return members;
    }

    /** The annotation of that name on {@code type}, else on the nearest class it extends that has it. */
    private static Optional<AnnotationValues> nearest(StudyClass<?> type, String simpleName) {
        return type.annotation(simpleName).or(() -> type.superclass().flatMap(parent -> nearest(parent, simpleName)));
    }

    private static VariantDescriptor variant(StudyMember method) {
        AnnotationValues variant = method.annotation("Variant").orElseThrow();
        return new VariantDescriptor(method.name(), variant.string("group"), variant.strings("flags"),
                variant.string("engine"), method.annotation("Baseline").isPresent(),
                workload(method.annotation("Workload")), method.annotation("Recommended").isPresent(),
                slo(method.annotation("Slo")), serverOptions(method.annotation("ServerOptions")),
                variant.string("engineVersion"));
    }

    private static EngineSetup engineSetup(AnnotationValues engine) {
        return new EngineSetup(engine.string("executable"), engine.strings("env"), engine.string("workdir"),
                engine.strings("command"), engine.string("url"), engine.string("image"));
    }

    /** The bounds written on an {@code @Slo}. */
    private static SloOptions slo(Optional<AnnotationValues> annotation) {
        return annotation.map(slo -> new SloOptions(slo.givenNumber("ttftMs"), slo.givenNumber("tpotMs"),
                slo.givenNumber("itlMs"), slo.givenNumber("e2eMs"), slo.givenNumber("minAttainment")))
                .orElse(SloOptions.UNSET);
    }

    /** The settings written on a {@code @ServerOptions}; its {@code prefixCaching} {@code DEFAULT} is no setting. */
    private static ServerSettingsOptions serverOptions(Optional<AnnotationValues> annotation) {
        return annotation.map(o -> {
            String toggle = o.givenText("prefixCaching");
            return new ServerSettingsOptions(o.givenWhole("maxModelLen"), o.givenWhole("tensorParallelSize"),
                    o.givenNumber("gpuMemoryFraction"), o.givenNumber("staticMemoryFraction"), o.givenWhole("maxNumSeqs"),
                    "ON".equals(toggle) ? Boolean.TRUE : "OFF".equals(toggle) ? Boolean.FALSE : null,
                    o.givenText("speculative"), o.givenText("draftModel"), o.givenText("simulatedModelConfig"));
        }).orElse(ServerSettingsOptions.NONE);
    }

    /** A {@code @Tune}'s settings, its defaults where an attribute is left out. */
    private static TuneOptions tune(AnnotationValues tune) {
        return new TuneOptions(tune.string("engineGroup"), tune.string("metric"),
                ((List<?>) tune.value("validationRates")).stream().map(r -> ((Number) r).doubleValue()).toList(),
                ((List<?>) tune.value("validationConcurrencies")).stream().map(c -> ((Number) c).intValue()).toList(),
                ((Number) tune.value("maxRepetitions")).intValue(), ((Number) tune.value("closeCall")).doubleValue());
    }

    /**
     * The settings written on a {@code @Workload}, each load option read from the attribute its key names
     * ({@link LoadOption}); an empty text is no setting.
     */
    private static WorkloadOptions workload(Optional<AnnotationValues> annotation) {
        return annotation.map(w -> {
            Map<String, String> options = new LinkedHashMap<>();
            for (LoadOption option : LoadOption.values()) {
                w.given(option.key()).ifPresent(value -> {
                    if (value instanceof Number n) {
                        options.put(option.key(), LoadOption.format(n.doubleValue()));
                    } else if (!String.valueOf(value).isEmpty()) {
                        options.put(option.key(), String.valueOf(value));
                    }
                });
            }
            return new WorkloadOptions(w.givenText(WorkloadSetting.DATASET.key()), w.givenText(WorkloadSetting.PROFILE.key()),
                    w.givenNumber(WorkloadSetting.RATE.key()), w.givenWhole(WorkloadSetting.CONCURRENCY.key()),
                    w.givenWhole(WorkloadSetting.REQUESTS.key()), w.givenWhole(WorkloadSetting.WARMUP.key()), options);
        }).orElse(WorkloadOptions.UNSET);
    }
}
