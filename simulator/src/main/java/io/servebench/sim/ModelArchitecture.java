package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Arrays;
import java.util.List;

/**
 * The model architectures whose {@code config.json} {@link ModelProfile#fromConfig} reads right, each by the class name
 * the engines load it by (the config's {@code "architectures"}, which vLLM's and SGLang's model registries look up,
 * the first entry first) and the {@code "model_type"}s that name it where a config lists no class. Every other
 * architecture is refused by name: read with these rules it would be another model. Llama 4
 * ({@code Llama4ForConditionalGeneration}: experts in every other layer beside a shared one, chunked attention),
 * DeepSeek V3.2 and GLM-5 ({@code DeepseekV32ForCausalLM}, {@code GlmMoeDsaForCausalLM}: sparse attention over the top
 * 2,048 tokens), Jamba and Nemotron-H (Mamba layers) have keys this reader does not know and would read as dense
 * attention. The multimodal ones ({@code ...ForConditionalGeneration}) are read as their language model: the vision
 * encoder's weights and cache are not counted.
 */
enum ModelArchitecture {
    LLAMA("LlamaForCausalLM", "llama"),
    MISTRAL("MistralForCausalLM", "mistral"),
    MIXTRAL("MixtralForCausalLM", "mixtral"),
    QWEN2("Qwen2ForCausalLM", "qwen2"),
    QWEN2_MOE("Qwen2MoeForCausalLM", "qwen2_moe"),
    QWEN3("Qwen3ForCausalLM", "qwen3"),
    QWEN3_MOE("Qwen3MoeForCausalLM", "qwen3_moe"),
    QWEN3_NEXT("Qwen3NextForCausalLM", "qwen3_next"),
    QWEN3_5("Qwen3_5ForConditionalGeneration", "qwen3_5"),
    QWEN3_5_MOE("Qwen3_5MoeForConditionalGeneration", "qwen3_5_moe"),
    GPT_OSS("GptOssForCausalLM", "gpt_oss"),
    GEMMA3_TEXT("Gemma3ForCausalLM", "gemma3_text"),
    GEMMA3("Gemma3ForConditionalGeneration", "gemma3"),
    /** DeepSeek V3 and R1; Kimi K2 ships its config with this class and a model type of its own. */
    DEEPSEEK_V3("DeepseekV3ForCausalLM", "deepseek_v3", "kimi_k2"),
    /** GLM-4.5, 4.6 and 4.7. */
    GLM4_MOE("Glm4MoeForCausalLM", "glm4_moe");

    private final String className;
    private final List<String> modelTypes;

    ModelArchitecture(String className, String... modelTypes) {
        this.className = className;
        this.modelTypes = List.of(modelTypes);
    }

    /** Whether this is Gemma 3, whose context vLLM takes as its config states it ({@link ContextLength}). */
    boolean isGemma3() {
        return this == GEMMA3 || this == GEMMA3_TEXT;
    }

    /**
     * The architecture a config names: its first {@code "architectures"} entry, else its {@code "model_type"}.
     *
     * @param root the config's top-level object (where both keys stand, a {@code text_config} beside them)
     * @param name the model id, for the message
     * @throws IllegalArgumentException naming what the config names, or that it names nothing, and the architectures
     *                                  there are
     */
    static ModelArchitecture of(JsonNode root, String name) {
        JsonNode classes = root.get("architectures");
        if (classes != null && classes.isArray() && !classes.isEmpty()) {
            String first = classes.get(0).asText();
            return Arrays.stream(values()).filter(a -> a.className.equals(first)).findFirst()
                    .orElseThrow(() -> refused(name, "\"architectures\" names " + first));
        }
        JsonNode type = root.get("model_type");
        if (type != null && type.isTextual()) {
            return Arrays.stream(values()).filter(a -> a.modelTypes.contains(type.asText())).findFirst()
                    .orElseThrow(() -> refused(name, "\"model_type\" names " + type.asText()
                            + " (and no \"architectures\" are listed)"));
        }
        throw new IllegalArgumentException("config.json of " + name + ": names no architecture (neither"
                + " \"architectures\" nor \"model_type\"); expected the config.json as published, which names one of "
                + known());
    }

    private static IllegalArgumentException refused(String name, String what) {
        return new IllegalArgumentException("config.json of " + name + ": " + what + ", an architecture the"
                + " simulated engine does not model (it models " + known() + "); it would give this model another model's figures, so"
                + " it is refused: rehearse with a model of one of those architectures, or measure this one on a real"
                + " engine");
    }

    private static String known() {
        return String.join(", ", Arrays.stream(values()).map(a -> a.className).toList());
    }
}
