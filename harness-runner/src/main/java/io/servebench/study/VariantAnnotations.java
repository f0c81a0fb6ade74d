package io.servebench.study;

import io.servebench.annotations.ServerOptions;
import io.servebench.annotations.Slo;
import io.servebench.engine.ServerOptionsSpec;
import io.servebench.metrics.SloSpec;

import java.lang.reflect.AnnotatedElement;
import java.util.Arrays;
import java.util.OptionalDouble;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;

/**
 * Reads the annotations a study states on its class and may restate on a variant method, {@link Slo} and
 * {@link ServerOptions}: the method's settings laid over the class's, one by one. The annotation processor checks
 * the same values at compile time ({@link SloSpec#problem}, {@link ServerOptionsSpec#problem}).
 */
public final class VariantAnnotations {

    private VariantAnnotations() {
    }

    /**
     * The SLOs declared for {@code variant} of {@code study}; {@link SloSpec#NONE} when neither states one.
     *
     * @throws IllegalArgumentException when a stated bound is not positive, naming where it is
     */
    public static SloSpec slo(Class<?> study, String variant) {
        return declared(study, variant, VariantAnnotations::slo, SloSpec::overriddenBy);
    }

    /**
     * The share of requests that must meet the SLOs declared for {@code variant} of {@code study}
     * ({@code @Slo(minAttainment)}, the method's over the class's); empty when neither states one.
     *
     * @throws IllegalArgumentException when it is not a share in (0, 1], naming where it is
     */
    public static OptionalDouble minAttainment(Class<?> study, String variant) {
        return declared(study, variant, VariantAnnotations::minAttainment, (onClass, onMethod) ->
                onMethod.isPresent() ? onMethod : onClass);
    }

    /**
     * The typed engine options declared for {@code variant} of {@code study}; {@link ServerOptionsSpec#NONE} when
     * neither states any.
     *
     * @throws IllegalArgumentException when a stated value is out of range, naming where it is
     */
    public static ServerOptionsSpec serverOptions(Class<?> study, String variant) {
        return declared(study, variant, VariantAnnotations::serverOptions, ServerOptionsSpec::overriddenBy);
    }

    /**
     * What {@code read} finds on the variant's method laid over what it finds on the class.
     *
     * @param read    reads the setting from an element; its second argument names the element for messages
     * @param overlay {@code (onClass, onMethod) -> } the method's setting laid over the class's
     */
    private static <T> T declared(Class<?> study, String variant, BiFunction<AnnotatedElement, String, T> read,
                                  BinaryOperator<T> overlay) {
        T onClass = read.apply(study, study.getName());
        return Arrays.stream(study.getDeclaredMethods())
                .filter(m -> m.getName().equals(variant) && m.getParameterCount() == 0).findFirst()
                .map(m -> overlay.apply(onClass, read.apply(m, study.getName() + "." + variant + "()")))
                .orElse(onClass);
    }

    private static SloSpec slo(AnnotatedElement element, String where) {
        Slo slo = element.getAnnotation(Slo.class);
        if (slo == null) {
            return SloSpec.NONE;
        }
        try {
            return new SloSpec(stated(slo.ttftMs()), stated(slo.tpotMs()), stated(slo.itlMs()), stated(slo.e2eMs()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("@Slo on " + where + ": " + e.getMessage(), e);
        }
    }

    private static OptionalDouble minAttainment(AnnotatedElement element, String where) {
        Slo slo = element.getAnnotation(Slo.class);
        if (slo == null || slo.minAttainment() == Slo.UNSET) {
            return OptionalDouble.empty();
        }
        String problem = SloSpec.attainmentProblem(slo.minAttainment());
        if (problem != null) {
            throw new IllegalArgumentException("@Slo on " + where + ": " + problem);
        }
        return OptionalDouble.of(slo.minAttainment());
    }

    private static ServerOptionsSpec serverOptions(AnnotatedElement element, String where) {
        ServerOptions o = element.getAnnotation(ServerOptions.class);
        if (o == null) {
            return ServerOptionsSpec.NONE;
        }
        try {
            return new ServerOptionsSpec(stated(o.maxModelLen()), stated(o.tensorParallelSize()),
                    o.gpuMemoryFraction() == ServerOptions.UNSET ? null : o.gpuMemoryFraction(), stated(o.maxNumSeqs()),
                    switch (o.prefixCaching()) {
                        case ON -> Boolean.TRUE;
                        case OFF -> Boolean.FALSE;
                        case DEFAULT -> null;
                    }, o.speculative().isEmpty() ? null : o.speculative());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("@ServerOptions on " + where + ": " + e.getMessage(), e);
        }
    }

    /** {@code null} for {@link Slo#UNSET}, the value otherwise (checked by {@link SloSpec}). */
    private static Double stated(double ms) {
        return ms == Slo.UNSET ? null : ms;
    }

    private static Integer stated(int value) {
        return value == ServerOptions.UNSET ? null : value;
    }
}
