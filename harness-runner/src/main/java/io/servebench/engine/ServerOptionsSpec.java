package io.servebench.engine;

import java.util.List;

/**
 * A variant's {@code @ServerOptions} as data, each setting {@code null} when not stated, and their flags
 * in an engine's dialect.
 *
 * @param maxModelLen        longest sequence in tokens
 * @param tensorParallelSize GPUs the model is split over
 * @param gpuMemoryFraction  share of GPU memory, in (0, 1]
 * @param maxNumSeqs         most sequences in a batch
 * @param prefixCaching      prefix caching on or off
 * @param speculative        {@code METHOD:TOKENS}, e.g. {@code mtp:1}
 */
public record ServerOptionsSpec(Integer maxModelLen, Integer tensorParallelSize, Double gpuMemoryFraction, Integer maxNumSeqs,
                                Boolean prefixCaching, String speculative) {

    /** Nothing stated. */
    public static final ServerOptionsSpec NONE = new ServerOptionsSpec(null, null, null, null, null, null);

    /** Speculative methods and how each engine names them; SGLang has no n-gram drafting under that name. */
    private static final List<String> SPECULATIVE_METHODS = List.of("mtp", "eagle", "eagle3", "ngram");

    public ServerOptionsSpec {
        check("maxModelLen", maxModelLen);
        check("tensorParallelSize", tensorParallelSize);
        check("maxNumSeqs", maxNumSeqs);
        if (gpuMemoryFraction != null) {
            String problem = problem("gpuMemoryFraction", gpuMemoryFraction);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        }
        if (speculative != null) {
            String problem = speculativeProblem(speculative);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        }
    }

    private static void check(String attribute, Integer value) {
        if (value != null) {
            String problem = problem(attribute, value);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        }
    }

    /** Why a stated numeric attribute's value is wrong, or {@code null}; the processor reports it on the value. */
    public static String problem(String attribute, double value) {
        if ("gpuMemoryFraction".equals(attribute)) {
            return value > 0 && value <= 1 ? null
                    : "gpuMemoryFraction = " + value + " is out of range; expected a share of GPU memory in (0, 1], e.g. 0.9";
        }
        return value >= 1 && value == Math.rint(value) ? null
                : attribute + " = " + value + " is out of range; expected a whole number of at least 1";
    }

    /** Why {@code text} is not {@code METHOD:TOKENS}, or {@code null}. */
    public static String speculativeProblem(String text) {
        String expected = "; expected METHOD:TOKENS with METHOD one of " + String.join(", ", SPECULATIVE_METHODS)
                + " and TOKENS a whole number of at least 1, e.g. \"mtp:1\"";
        int colon = text.indexOf(':');
        if (colon < 0) {
            return "speculative = \"" + text + "\" has no ':'" + expected;
        }
        if (!SPECULATIVE_METHODS.contains(text.substring(0, colon))) {
            return "speculative = \"" + text + "\" names an unknown method" + expected;
        }
        try {
            return Integer.parseInt(text.substring(colon + 1)) >= 1 ? null : "speculative = \"" + text + "\": TOKENS below 1" + expected;
        } catch (NumberFormatException e) {
            return "speculative = \"" + text + "\": TOKENS is not a whole number" + expected;
        }
    }

    /** This spec with every setting {@code other} states replacing this one's. */
    public ServerOptionsSpec overriddenBy(ServerOptionsSpec other) {
        return new ServerOptionsSpec(
                other.maxModelLen != null ? other.maxModelLen : maxModelLen,
                other.tensorParallelSize != null ? other.tensorParallelSize : tensorParallelSize,
                other.gpuMemoryFraction != null ? other.gpuMemoryFraction : gpuMemoryFraction,
                other.maxNumSeqs != null ? other.maxNumSeqs : maxNumSeqs,
                other.prefixCaching != null ? other.prefixCaching : prefixCaching,
                other.speculative != null ? other.speculative : speculative);
    }

    /**
     * The options as flags of {@code kind}'s dialect (the simulated engine reads vLLM's).
     *
     * @throws IllegalArgumentException when an option is stated for a kind without a dialect ({@code command},
     *                                  {@code endpoint}), or one the dialect cannot spell
     */
    public List<Flag> flags(EngineKind kind) {
        if (equals(NONE)) {
            return List.of();
        }
        return kind.dialect().orElseThrow(() -> new IllegalArgumentException("@ServerOptions cannot be written for engine"
                + " kind \"" + kind.name() + "\": ServeBench knows the flags of " + EngineKinds.withDialect()
                + " only; write the flags out in @Engine(flags)")).spell(this);
    }
}
