package io.servebench.study;

import io.servebench.engine.Flag;
import io.servebench.annotations.ServerOptions;

import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.List;

/**
 * A variant's {@link ServerOptions} as data, each setting {@code null} when not stated, and their flags
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

    /** The options a variant of a study class states: the method's laid over the class's. */
    public static ServerOptionsSpec declared(Class<?> study, String variant) {
        return Studies.declared(study, variant, ServerOptionsSpec::of, ServerOptionsSpec::overriddenBy);
    }

    private static ServerOptionsSpec of(AnnotatedElement element, String where) {
        ServerOptions o = element.getAnnotation(ServerOptions.class);
        if (o == null) {
            return NONE;
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

    /**
     * The options as flags of {@code engineKind}'s dialect ({@code sim} reads vLLM's).
     *
     * @throws IllegalArgumentException when an option is stated for a kind without a known dialect
     *                                  ({@code command}, {@code endpoint}), or one the dialect cannot spell
     */
    public List<Flag> flags(String engineKind) {
        if (equals(NONE)) {
            return List.of();
        }
        boolean sglang = "sglang".equals(engineKind);
        if (!sglang && !"vllm".equals(engineKind) && !"sim".equals(engineKind)) {
            throw new IllegalArgumentException("@ServerOptions cannot be written for engine kind \"" + engineKind
                    + "\": ServeBench knows the flags of vllm and sglang only; write the flags out in @Engine(flags)");
        }
        List<String> args = new ArrayList<>();
        if (maxModelLen != null) {
            args.add((sglang ? "--context-length=" : "--max-model-len=") + maxModelLen);
        }
        if (tensorParallelSize != null) {
            args.add((sglang ? "--tp-size=" : "--tensor-parallel-size=") + tensorParallelSize);
        }
        if (gpuMemoryFraction != null) {
            args.add((sglang ? "--mem-fraction-static=" : "--gpu-memory-utilization=") + gpuMemoryFraction);
        }
        if (maxNumSeqs != null) {
            args.add((sglang ? "--max-running-requests=" : "--max-num-seqs=") + maxNumSeqs);
        }
        if (prefixCaching != null) {
            if (sglang) {
                if (!prefixCaching) {
                    args.add("--disable-radix-cache");
                }
            } else {
                args.add(prefixCaching ? "--enable-prefix-caching" : "--no-enable-prefix-caching");
            }
        }
        if (speculative != null) {
            String method = speculative.substring(0, speculative.indexOf(':'));
            int tokens = Integer.parseInt(speculative.substring(speculative.indexOf(':') + 1));
            if (sglang) {
                String algorithm = switch (method) {
                    case "mtp" -> "NEXTN";
                    case "eagle" -> "EAGLE";
                    case "eagle3" -> "EAGLE3";
                    default -> throw new IllegalArgumentException("speculative = \"" + speculative
                            + "\": SGLang has no " + method + " drafting under this option; write its flags in @Variant(flags)");
                };
                args.addAll(List.of("--speculative-algorithm=" + algorithm, "--speculative-num-steps=" + tokens,
                        "--speculative-eagle-topk=1", "--speculative-num-draft-tokens=" + (tokens + 1)));
            } else {
                args.add("--speculative-config={\"method\":\"" + method + "\",\"num_speculative_tokens\":" + tokens + "}");
            }
        }
        return args.stream().map(a -> Flag.parse(a).orElseThrow()).toList();
    }
}
