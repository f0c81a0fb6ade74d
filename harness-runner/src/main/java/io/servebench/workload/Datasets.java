package io.servebench.workload;

import java.nio.file.Path;
import java.util.function.ToIntFunction;

/** Turns a study's {@code dataset} setting into a {@link Dataset}. */
public final class Datasets {

    /** The bundled made-up conversations ({@link SyntheticShareGpt}). */
    public static final String SYNTHETIC_SHAREGPT = "synthetic-sharegpt";
    private static final String SHAREGPT_PREFIX = "sharegpt:";

    private Datasets() {
    }

    /**
     * @param spec {@code "sharegpt:PATH"} or {@code "synthetic-sharegpt"}
     * @throws IllegalArgumentException naming the spec and the accepted forms
     */
    public static Dataset resolve(String spec, ToIntFunction<String> tokenCounter) {
        if (SYNTHETIC_SHAREGPT.equals(spec)) {
            return SyntheticShareGpt.dataset(tokenCounter);
        }
        if (spec.startsWith(SHAREGPT_PREFIX) && spec.length() > SHAREGPT_PREFIX.length()) {
            return ShareGptFile.read(spec, Path.of(spec.substring(SHAREGPT_PREFIX.length())), tokenCounter);
        }
        throw new IllegalArgumentException(problem(spec));
    }

    /** Why {@code spec} names no dataset, or {@code null} when its form is right. */
    public static String problem(String spec) {
        if (SYNTHETIC_SHAREGPT.equals(spec) || spec.startsWith(SHAREGPT_PREFIX) && spec.length() > SHAREGPT_PREFIX.length()) {
            return null;
        }
        return "unknown dataset \"" + spec + "\": expected \"" + SHAREGPT_PREFIX + "PATH\" (a ShareGPT-format JSON file) or \""
                + SYNTHETIC_SHAREGPT + "\" (the bundled made-up conversations)";
    }
}
