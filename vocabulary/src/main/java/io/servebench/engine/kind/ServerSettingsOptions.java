package io.servebench.engine.kind;

import io.servebench.flags.Flag;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code @ServerOptions} as data, each setting {@code null} when not stated, as written ({@link #problems()} says
 * what is out of range), and their flags in an engine's dialect.
 *
 * @param maxModelLen        longest sequence in tokens
 * @param tensorParallelSize GPUs the model is split over
 * @param gpuMemoryFraction  the whole GPU memory budget, in (0, 1] (vLLM's meaning)
 * @param staticMemoryFraction the share of GPU memory for weights and KV cache only, in (0, 1] (SGLang's meaning)
 * @param maxNumSeqs         most sequences in a batch
 * @param prefixCaching      prefix caching on or off
 * @param speculative        {@code METHOD:TOKENS}, e.g. {@code mtp:1}
 * @param draftModel         the draft model of a method that drafts with one ({@link #DRAFT_MODEL_METHODS})
 * @param simulatedModelConfig the model's {@code config.json} (or its folder) for the simulated engine; no flag of a
 *                           real engine
 */
public record ServerSettingsOptions(Integer maxModelLen, Integer tensorParallelSize, Double gpuMemoryFraction,
                                Double staticMemoryFraction, Integer maxNumSeqs, Boolean prefixCaching, String speculative,
                                String draftModel, String simulatedModelConfig) {

    /** Nothing stated. */
    public static final ServerSettingsOptions NONE = new ServerSettingsOptions(null, null, null, null, null, null, null, null, null);

    /** Settings without a model config for the simulated engine. */
    public ServerSettingsOptions(Integer maxModelLen, Integer tensorParallelSize, Double gpuMemoryFraction,
                             Double staticMemoryFraction, Integer maxNumSeqs, Boolean prefixCaching, String speculative,
                             String draftModel) {
        this(maxModelLen, tensorParallelSize, gpuMemoryFraction, staticMemoryFraction, maxNumSeqs, prefixCaching,
                speculative, draftModel, null);
    }

    /** Settings without a memory share of SGLang's meaning, as most studies write them. */
    public ServerSettingsOptions(Integer maxModelLen, Integer tensorParallelSize, Double gpuMemoryFraction, Integer maxNumSeqs,
                             Boolean prefixCaching, String speculative, String draftModel) {
        this(maxModelLen, tensorParallelSize, gpuMemoryFraction, null, maxNumSeqs, prefixCaching, speculative, draftModel);
    }

    /**
     * Methods that draft with a model of their own, which must be named: vLLM refuses EAGLE without one ("was provided
     * but without speculative model", {@code SpeculativeConfig} in {@code vllm/config/speculative.py}), SGLang needs
     * {@code --speculative-draft-model-path} for it.
     */
    static final List<String> DRAFT_MODEL_METHODS = List.of("eagle", "eagle3");

    /** Speculative methods, as vLLM names them (SGLang: NEXTN, EAGLE, EAGLE3, NGRAM). */
    private static final List<String> SPECULATIVE_METHODS = List.of("mtp", "eagle", "eagle3", "ngram");

    /**
     * Why each stated setting is wrong, by the annotation's attribute name, in declaration order; empty when every one
     * is in range. Nothing is checked on construction: the record holds what was written, and the study checker reports.
     */
    public Map<String, String> problems() {
        Map<String, String> problems = new LinkedHashMap<>();
        Map<String, Number> numbers = new LinkedHashMap<>();
        numbers.put("maxModelLen", maxModelLen);
        numbers.put("tensorParallelSize", tensorParallelSize);
        numbers.put("gpuMemoryFraction", gpuMemoryFraction);
        numbers.put("staticMemoryFraction", staticMemoryFraction);
        numbers.put("maxNumSeqs", maxNumSeqs);
        numbers.forEach((attribute, value) -> {
            String problem = value == null ? null : problem(attribute, value.doubleValue());
            if (problem != null) {
                problems.put(attribute, problem);
            }
        });
        String problem = speculative == null ? null : speculativeProblem(speculative);
        if (problem == null) {
            problem = draftModelProblem();
        }
        if (problem != null) {
            problems.put(speculative == null ? "draftModel" : "speculative", problem);
        }
        return problems;
    }

    /** Why the draft model does not fit the (well-formed) speculative method, or {@code null}. */
    private String draftModelProblem() {
        String method = speculative == null ? null : speculative.substring(0, speculative.indexOf(':'));
        boolean needsOne = method != null && DRAFT_MODEL_METHODS.contains(method);
        if (needsOne && draftModel == null) {
            return "speculative = \"" + speculative + "\" drafts with a model of its own: name it with draftModel, e.g."
                    + " draftModel = \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\" (neither vLLM nor SGLang starts "
                    + method + " without one)";
        }
        if (!needsOne && draftModel != null) {
            return "draftModel = \"" + draftModel + "\" is for speculative = \"eagle:N\" or \"eagle3:N\" only"
                    + (speculative == null ? "; no speculative method is set" : ", not \"" + speculative + "\"");
        }
        return null;
    }

    /** Why a stated numeric attribute's value is wrong, or {@code null}; the processor reports it on the value. */
    public static String problem(String attribute, double value) {
        if ("gpuMemoryFraction".equals(attribute) || "staticMemoryFraction".equals(attribute)) {
            return value > 0 && value <= 1 ? null
                    : attribute + " = " + value + " is out of range; expected a share of GPU memory in (0, 1], e.g. 0.9";
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
    public ServerSettingsOptions overriddenBy(ServerSettingsOptions other) {
        return new ServerSettingsOptions(
                other.maxModelLen != null ? other.maxModelLen : maxModelLen,
                other.tensorParallelSize != null ? other.tensorParallelSize : tensorParallelSize,
                other.gpuMemoryFraction != null ? other.gpuMemoryFraction : gpuMemoryFraction,
                other.staticMemoryFraction != null ? other.staticMemoryFraction : staticMemoryFraction,
                other.maxNumSeqs != null ? other.maxNumSeqs : maxNumSeqs,
                other.prefixCaching != null ? other.prefixCaching : prefixCaching,
                other.speculative != null ? other.speculative : speculative,
                other.draftModel != null ? other.draftModel : sameMethod(other.speculative) ? draftModel : null,
                other.simulatedModelConfig != null ? other.simulatedModelConfig : simulatedModelConfig);
    }

    /** Whether {@code otherSpeculative} leaves this spec's speculative method (and so its draft model) as it is. */
    private boolean sameMethod(String otherSpeculative) {
        return otherSpeculative == null || (speculative != null && speculative.indexOf(':') > 0
                && otherSpeculative.startsWith(speculative.substring(0, speculative.indexOf(':') + 1)));
    }

    /**
     * The options as flags of {@code kind}'s dialect (the simulated engine reads vLLM's), for a server of
     * {@code servedModel} (SGLang's multi-token prediction names it as its own draft).
     *
     * @throws IllegalArgumentException when an option is stated for a kind without a dialect ({@code command},
     *                                  {@code endpoint}), or one the dialect cannot spell
     */
    public List<Flag> flags(EngineKind kind, String servedModel) {
        // the simulated engine's model config is no engine's flag: the server carries it (ServerConfig)
        if (new ServerSettingsOptions(maxModelLen, tensorParallelSize, gpuMemoryFraction, staticMemoryFraction, maxNumSeqs,
                prefixCaching, speculative, draftModel).equals(NONE)) {
            return List.of();
        }
        return kind.dialect().orElseThrow(() -> new IllegalArgumentException("@ServerOptions cannot be written for engine"
                + " kind \"" + kind.name() + "\": ServeBench knows the flags of " + EngineKinds.withDialect()
                + " only; write the flags out in @Engine(flags)")).spell(this, servedModel);
    }
}
