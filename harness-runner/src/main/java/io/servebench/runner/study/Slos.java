package io.servebench.runner.study;

import io.servebench.annotations.Slo;
import io.servebench.metrics.SloSpec;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads a variant's {@link Slo}: the method's stated bounds laid over the class's. The annotation
 * processor checks the same bounds at compile time ({@link SloSpec#problem}).
 */
public final class Slos {

    private Slos() {
    }

    /**
     * The SLOs declared for {@code variant} of {@code study}; {@link SloSpec#NONE} when neither states one.
     *
     * @throws IllegalArgumentException when a stated bound is not positive, naming where it is
     */
    public static SloSpec declared(Class<?> study, String variant) {
        SloSpec onClass = of(study, study.getName());
        Optional<Method> method = Arrays.stream(study.getDeclaredMethods()).filter(m -> m.getName().equals(variant))
                .filter(m -> m.getParameterCount() == 0).findFirst();
        return method.map(m -> onClass.overriddenBy(of(m, study.getName() + "." + variant + "()"))).orElse(onClass);
    }

    private static SloSpec of(AnnotatedElement element, String where) {
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

    /** {@code null} for {@link Slo#UNSET}, the value otherwise (checked by {@link SloSpec}). */
    static Double stated(double ms) {
        return ms == Slo.UNSET ? null : ms;
    }
}
