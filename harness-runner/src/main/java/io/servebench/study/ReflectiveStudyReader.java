package io.servebench.study;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Recommended;
import io.servebench.annotations.ServerOptions;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Slo;
import io.servebench.annotations.Tune;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;
import io.servebench.engine.EngineSetup;
import io.servebench.engine.ServerSettingsOptions;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Reads a compiled study class into a {@link StudyDescriptor} through reflection. Only the class's
 * own (declared) members count; the class is neither initialised nor instantiated.
 */
public final class ReflectiveStudyReader {

    private ReflectiveStudyReader() {
    }

    /**
     * The study that {@code type}'s annotations describe, variants and params in declaration order.
     * The descriptor is not checked: run {@link StudyChecker} on it.
     *
     * @throws IllegalArgumentException when {@code type} has no {@link ServingBenchmark} annotation
     */
    public static StudyDescriptor read(Class<?> type) {
        ServingBenchmark study = type.getAnnotation(ServingBenchmark.class);
        if (study == null) {
            throw new IllegalArgumentException("class " + type.getName()
                    + " is not a study: expected it to be annotated @" + ServingBenchmark.class.getName());
        }
        Engine engine = type.getAnnotation(Engine.class);
        Workload workload = type.getAnnotation(Workload.class);
        DeclarationOrder order = DeclarationOrder.of(type);

        List<ParamSpec> params = Arrays.stream(type.getDeclaredFields())
                .filter(f -> f.isAnnotationPresent(Param.class))
                .sorted(Comparator.comparingInt(f -> order.fields().indexOf(f.getName())))
                .map(ReflectiveStudyReader::param)
                .toList();
        List<VariantDescriptor> variants = Arrays.stream(type.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Variant.class))
                .sorted(Comparator.comparingInt(m -> order.methods().indexOf(m.getName())))
                .map(ReflectiveStudyReader::variant)
                .toList();
        return new StudyDescriptor(type.getName(), study.model(), study.description(),
                engine == null ? StudyDescriptor.DEFAULT_ENGINE : engine.value(),
                engine == null ? List.of() : List.of(engine.flags()),
                workload == null ? WorkloadOptions.UNSET : WorkloadOptions.of(workload),
                params, variants, engine == null ? EngineSetup.NONE : EngineSetup.of(engine), SloOptions.of(type.getAnnotation(Slo.class)),
                serverOptions(type), Optional.ofNullable(type.getAnnotation(Tune.class)).map(TuneOptions::of),
                engine == null ? "" : engine.version());
    }

    private static ParamSpec param(Field field) {
        Class<?> t = field.getType();
        String type = t.isPrimitive() ? t.getName() : t == String.class ? "String" : t.getTypeName();
        return new ParamSpec(field.getName(), type, List.of(field.getAnnotation(Param.class).value()));
    }

    private static VariantDescriptor variant(Method method) {
        Variant variant = method.getAnnotation(Variant.class);
        Workload workload = method.getAnnotation(Workload.class);
        return new VariantDescriptor(method.getName(), variant.group(), List.of(variant.flags()), variant.engine(),
                method.isAnnotationPresent(Baseline.class),
                workload == null ? WorkloadOptions.UNSET : WorkloadOptions.of(workload),
                method.isAnnotationPresent(Recommended.class), SloOptions.of(method.getAnnotation(Slo.class)),
                serverOptions(method), variant.engineVersion());
    }

    /** An element's {@code @ServerOptions}, {@link ServerOptions#UNSET} read as not stated. */
    private static ServerSettingsOptions serverOptions(AnnotatedElement element) {
        ServerOptions o = element.getAnnotation(ServerOptions.class);
        if (o == null) {
            return ServerSettingsOptions.NONE;
        }
        return new ServerSettingsOptions(stated(o.maxModelLen()), stated(o.tensorParallelSize()),
                o.gpuMemoryFraction() == ServerOptions.UNSET ? null : o.gpuMemoryFraction(),
                o.staticMemoryFraction() == ServerOptions.UNSET ? null : o.staticMemoryFraction(), stated(o.maxNumSeqs()),
                switch (o.prefixCaching()) {
                    case ON -> Boolean.TRUE;
                    case OFF -> Boolean.FALSE;
                    case DEFAULT -> null;
                }, o.speculative().isEmpty() ? null : o.speculative(), o.draftModel().isEmpty() ? null : o.draftModel(),
                o.simulatedModelConfig().isEmpty() ? null : o.simulatedModelConfig());
    }

    private static Integer stated(int value) {
        return value == ServerOptions.UNSET ? null : value;
    }
}
