package io.servebench.study;

import io.servebench.annotations.Slo;
import io.servebench.metrics.SloSpec;

import java.lang.reflect.AnnotatedElement;

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
        return Studies.declared(study, variant, Slos::of, SloSpec::overriddenBy);
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
