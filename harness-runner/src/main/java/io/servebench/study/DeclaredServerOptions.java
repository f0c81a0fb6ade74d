package io.servebench.study;

import io.servebench.annotations.ServerOptions;
import io.servebench.engine.ServerOptionsSpec;

import java.lang.reflect.AnnotatedElement;

/** Reads a variant's {@link ServerOptions}: the method's laid over the class's, as {@link Slos} reads {@code @Slo}. */
public final class DeclaredServerOptions {

    private DeclaredServerOptions() {
    }

    /** The options a variant of a study class states; {@link ServerOptionsSpec#NONE} when neither level states any. */
    public static ServerOptionsSpec of(Class<?> study, String variant) {
        return Studies.declared(study, variant, DeclaredServerOptions::of, ServerOptionsSpec::overriddenBy);
    }

    private static ServerOptionsSpec of(AnnotatedElement element, String where) {
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

    private static Integer stated(int value) {
        return value == ServerOptions.UNSET ? null : value;
    }
}
