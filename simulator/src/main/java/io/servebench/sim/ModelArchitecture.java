package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Arrays;
import java.util.List;

/**
 * The model architectures whose {@code config.json} {@link ModelProfile#fromConfig} reads right, each by the class name
 * the engines load it by (the config's {@code "architectures"}, which vLLM's and SGLang's model registries look up,
 * the first entry first) and the {@code "model_type"}s that name it where a config lists no class. Every other
 * architecture is refused by name: read with these rules it would be another model. Jamba and Nemotron-H (Mamba
 * layers) have keys this reader does not know and would read as dense attention. The multimodal ones ({@code ...ForConditionalGeneration}) count their vision tower's weights beside the
 * language model ({@code vision_config}), not its memory at work.
 */
enum ModelArchitecture {
    LLAMA("LlamaForCausalLM", "{\"tie_word_embeddings\":false}", "llama"),
    /**
     * Without a {@code sliding_window} key, transformers gives every layer a window of 4,096 ({@code MistralConfig});
     * Mistral 7B v0.1 states that, later Mistrals {@code null} ({@link #windowsEveryLayer}).
     */
    MISTRAL("MistralForCausalLM", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":8,\"sliding_window\":4096}",
            "mistral"),
    /**
     * Mistral Small 3.1 and 3.2: a Mistral language model ({@code text_config}, {@code MistralConfig}'s defaults) beside
     * a Pixtral vision tower ({@code vision_config}) and its projector.
     */
    MISTRAL3("Mistral3ForConditionalGeneration", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":8,"
            + "\"sliding_window\":4096}", "mistral3"),
    MIXTRAL("MixtralForCausalLM", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":8,\"num_local_experts\":8,"
            + "\"num_experts_per_tok\":2}", "mixtral"),
    QWEN2("Qwen2ForCausalLM", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":32}", "qwen2"),
    QWEN2_MOE("Qwen2MoeForCausalLM", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":16,\"num_experts\":60,"
            + "\"num_experts_per_tok\":4,\"moe_intermediate_size\":1408,\"shared_expert_intermediate_size\":5632}",
            "qwen2_moe"),
    QWEN3("Qwen3ForCausalLM", "{\"tie_word_embeddings\":false,\"head_dim\":128,\"num_key_value_heads\":32}", "qwen3"),
    QWEN3_MOE("Qwen3MoeForCausalLM", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":4,\"num_experts\":128,"
            + "\"num_experts_per_tok\":8,\"moe_intermediate_size\":768}", "qwen3_moe"),
    QWEN3_NEXT("Qwen3NextForCausalLM", "{\"tie_word_embeddings\":false,\"head_dim\":256,\"num_key_value_heads\":2,"
            + "\"num_experts\":512,\"num_experts_per_tok\":10,\"moe_intermediate_size\":512,"
            + "\"shared_expert_intermediate_size\":512,\"full_attention_interval\":4}", "qwen3_next"),
    QWEN3_5("Qwen3_5ForConditionalGeneration", "{\"tie_word_embeddings\":false,\"head_dim\":256,"
            + "\"num_key_value_heads\":4,\"full_attention_interval\":4}", "qwen3_5"),
    QWEN3_5_MOE("Qwen3_5MoeForConditionalGeneration", "{\"tie_word_embeddings\":false,\"head_dim\":256,"
            + "\"num_key_value_heads\":2,\"num_experts\":256,\"num_experts_per_tok\":8,\"moe_intermediate_size\":512,"
            + "\"shared_expert_intermediate_size\":512,\"full_attention_interval\":4}", "qwen3_5_moe"),
    /**
     * Qwen2.5-VL: a Qwen2 language model (its keys at the top level as first published, or in a {@code text_config}),
     * untied, beside a tower of its own ({@code vision_config}). The text class's KV-head default differs between
     * transformers releases (4, later 8), so none is taken: a config without it is refused (the published ones state
     * it).
     */
    QWEN2_5_VL("Qwen2_5_VLForConditionalGeneration", "{\"tie_word_embeddings\":false,\"vocab_size\":152064}",
            "qwen2_5_vl"),
    /**
     * Qwen3-VL: a Qwen3 language model ({@code Qwen3VLTextConfig}: head dimension 128, as many KV heads as heads, a
     * context of 128,000 unless stated) beside the tower Qwen3.5 shares.
     */
    QWEN3_VL("Qwen3VLForConditionalGeneration", "{\"tie_word_embeddings\":false,\"head_dim\":128,"
            + "\"num_key_value_heads\":32,\"vocab_size\":151936,\"max_position_embeddings\":128000}", "qwen3_vl"),
    /**
     * Qwen3-VL's mixture of experts ({@code Qwen3VLMoeTextConfig}: 60 experts of 1,408, 4 a token, 16 KV heads unless
     * stated). The text class ties its embeddings by default in transformers 5, the whole config's does not, and the
     * published configs state it; untied is taken where neither does.
     */
    QWEN3_VL_MOE("Qwen3VLMoeForConditionalGeneration", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":16,"
            + "\"num_experts\":60,\"num_experts_per_tok\":4,\"moe_intermediate_size\":1408,\"vocab_size\":151936,"
            + "\"max_position_embeddings\":128000}", "qwen3_vl_moe"),
    /** Its layers alternate, the first sliding ({@link #slidingPattern}). */
    GPT_OSS("GptOssForCausalLM", "{\"tie_word_embeddings\":false,\"head_dim\":64,\"num_key_value_heads\":8,"
            + "\"num_local_experts\":128,\"num_experts_per_tok\":4,\"sliding_window\":128}", "gpt_oss"),
    /**
     * Gemma 2: its embeddings tied, every other layer sliding, the first among them ({@code Gemma2Config}'s
     * {@code layer_types}; vLLM's {@code gemma2.py} reads them, SGLang's {@code gemma2.py} slides the even layers).
     */
    GEMMA2("Gemma2ForCausalLM", "{\"tie_word_embeddings\":true,\"head_dim\":256,\"num_key_value_heads\":4,"
            + "\"sliding_window\":4096,\"vocab_size\":256000,\"max_position_embeddings\":8192}", "gemma2"),
    /**
     * Its embeddings tied, five of each six layers sliding ({@code sliding_window_pattern}); a published text config
     * leaves out what equals these (gemma-3-27b-it's names neither its vocabulary nor its context).
     */
    GEMMA3_TEXT("Gemma3ForCausalLM", Gemma3.DEFAULTS, "gemma3_text"),
    GEMMA3("Gemma3ForConditionalGeneration", Gemma3.DEFAULTS, "gemma3"),
    /**
     * Gemma 4, 31B and 26B-A4B: five of each six layers sliding, the sixth attending the whole context with heads of
     * its own width ({@code global_head_dim}) and, where its keys are its values ({@code attention_k_eq_v}), KV heads of
     * its own number ({@code num_global_key_value_heads}); in 26B-A4B routed experts beside every layer's dense MLP
     * ({@link #gemma4}). The small ones (E2B, E4B) add per-layer input embeddings and layers sharing another's KV
     * cache, which are refused by name.
     */
    GEMMA4_TEXT("Gemma4ForCausalLM", Gemma4.DEFAULTS, "gemma4_text"),
    GEMMA4("Gemma4ForConditionalGeneration", Gemma4.DEFAULTS, "gemma4"),
    /**
     * DeepSeek V2 and V2-Lite (and Coder-V2): latent attention and DeepSeek's expert keys as V3's, with {@code
     * DeepseekV2Config}'s defaults (64 routed experts of 1,407, 2 shared, every layer sparse unless stated; no default
     * for the experts a token takes, which the published configs state).
     */
    DEEPSEEK_V2("DeepseekV2ForCausalLM", "{\"tie_word_embeddings\":false,\"n_routed_experts\":64,\"n_shared_experts\":2,"
            + "\"moe_intermediate_size\":1407,\"first_k_dense_replace\":0,\"q_lora_rank\":1536,\"kv_lora_rank\":512,"
            + "\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,\"v_head_dim\":128,\"vocab_size\":32000}",
            "deepseek_v2"),
    /**
     * Llama 4 (Scout, Maverick): {@code Llama4TextConfig}'s defaults, and its keys read as the engines build the model
     * ({@link #llama4}): experts in every {@code interleave_moe_layer_step}-th layer beside one shared expert, dense
     * layers of {@code intermediate_size_mlp}, and three layers of four attending their own chunk of
     * {@code attention_chunk_size} tokens (the layers with rotary positions), the fourth the whole context.
     */
    LLAMA4("Llama4ForConditionalGeneration", "{\"tie_word_embeddings\":false,\"head_dim\":128,"
            + "\"num_key_value_heads\":8,\"vocab_size\":202048,\"intermediate_size\":8192,"
            + "\"intermediate_size_mlp\":16384,\"num_local_experts\":16,\"num_experts_per_tok\":1,"
            + "\"interleave_moe_layer_step\":1,\"no_rope_layer_interval\":4,\"attention_chunk_size\":8192,"
            + "\"max_position_embeddings\":131072}", "llama4"),
    /** DeepSeek V3 and R1; Kimi K2 ships its config with this class and a model type of its own. */
    DEEPSEEK_V3("DeepseekV3ForCausalLM", DeepSeekV3.DEFAULTS, "deepseek_v3", "kimi_k2"),
    /**
     * DeepSeek V3.2: DeepSeek V3 with DeepSeek Sparse Attention ({@link #sparseAttention}): a lightning indexer of {@code
     * index_n_heads} heads of {@code index_head_dim} scores every earlier token, and latent attention attends the {@code
     * index_topk} it scores highest. Its three keys have no default: a config without them is refused.
     */
    DEEPSEEK_V32("DeepseekV32ForCausalLM", DeepSeekV3.DEFAULTS, "deepseek_v32"),
    /**
     * Kimi K2.5 and its successors (K2.6): a DeepSeek V3 text model ({@code text_config}, read with {@code
     * DeepseekV3Config}'s defaults) beside the MoonViT vision tower ({@code KimiK25Config}, {@code
     * vllm/transformers_utils/configs/kimi_k25.py}), which takes its text config's {@code quantization_config} where the
     * top level has none ({@link #withQuantisationAtTop}).
     */
    KIMI_K25("KimiK25ForConditionalGeneration", DeepSeekV3.DEFAULTS, "kimi_k25"),
    /** GLM-4-0414 (9B, 32B) and GLM-Z1: dense ({@code Glm4Config}: two KV heads of 128 unless stated). */
    GLM4("Glm4ForCausalLM", "{\"tie_word_embeddings\":false,\"head_dim\":128,\"num_key_value_heads\":2,"
            + "\"vocab_size\":151552,\"max_position_embeddings\":131072}", "glm4"),
    /** GLM-4.5, 4.6 and 4.7. */
    GLM4_MOE("Glm4MoeForCausalLM", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":8,\"n_routed_experts\":128,"
            + "\"num_experts_per_tok\":8,\"moe_intermediate_size\":1408,\"n_shared_experts\":1,"
            + "\"first_k_dense_replace\":1}", "glm4_moe"),
    /**
     * GLM-5, 5.1 and 5.2: DeepSeek V3.2's latent and sparse attention ({@link #sparseAttention}) in GLM's dimensions,
     * which vLLM builds with its DeepSeek V2 model code. The defaults are {@code GlmMoeDsaConfig}'s
     * (huggingface/transformers@4c94ecda {@code src/transformers/models/glm_moe_dsa/modular_glm_moe_dsa.py}), but for
     * {@code first_k_dense_replace}, which that class does not define (it derives {@code mlp_layer_types}, three dense
     * layers first) while vLLM's model reads it: a config without it is refused ({@link #withDefaults}).
     */
    GLM_MOE_DSA("GlmMoeDsaForCausalLM", "{\"tie_word_embeddings\":false,\"num_key_value_heads\":64,"
            + "\"n_routed_experts\":256,\"num_experts_per_tok\":8,\"moe_intermediate_size\":2048,"
            + "\"n_shared_experts\":1,\"q_lora_rank\":2048,\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
            + "\"qk_nope_head_dim\":192,\"v_head_dim\":256,\"index_topk\":2048,\"index_head_dim\":128,"
            + "\"index_n_heads\":32,\"vocab_size\":154880,\"intermediate_size\":12288,"
            + "\"max_position_embeddings\":202752}", "glm_moe_dsa");

    /** {@code DeepseekV3Config}'s defaults that the reader would otherwise take others for. */
    private static final class DeepSeekV3 {
        static final String DEFAULTS = "{\"tie_word_embeddings\":false,\"num_key_value_heads\":128,"
                + "\"n_routed_experts\":256,\"num_experts_per_tok\":8,\"moe_intermediate_size\":2048,"
                + "\"n_shared_experts\":1,\"first_k_dense_replace\":3,\"q_lora_rank\":1536}";
    }

    private final String className;
    private final ObjectNode defaults;
    private final List<String> modelTypes;

    ModelArchitecture(String className, String defaults, String... modelTypes) {
        this.className = className;
        try {
            this.defaults = (ObjectNode) ModelProfile.JSON.readTree(defaults);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        this.modelTypes = List.of(modelTypes);
    }

    /**
     * The config's text model as the reader takes it: its {@code text_config}, else the whole config, with this
     * architecture's defaults ({@link #withDefaults}).
     */
    JsonNode textConfig(JsonNode root, String name) {
        return withDefaults(root.path("text_config").isObject() ? root.get("text_config") : root, root, name);
    }

    /**
     * The text config as the engines read it: transformers fills each key a file leaves out with the architecture's
     * class default, and a published file leaves out exactly those equal to it. Only the keys the reader would
     * otherwise take another default for are filled (its generic fallbacks: untied embeddings, a head dimension of
     * hidden size over heads, as many KV heads as heads, no experts, no shared expert, no dense-first layers, every
     * layer full attention). The values are transformers' configuration classes' (huggingface/transformers@008e5743
     * {@code src/transformers/models/<model>/configuration_<model>.py}, Gemma 3's @008f5c8c), checked in its releases
     * 4.57.6 and 5.18.0 (but for Gemma 3's vocabulary and context, read at @008f5c8c alone); a key the file sets, even to
     * null, is the file's. Tied embeddings are read from the text
     * config, else from the top level of a multimodal config (the two transformers lines read different ones).
     *
     * @param text the text config ({@code text_config}, or the whole config)
     * @param root the whole config
     * @param name the model id, for the message
     * @throws IllegalArgumentException where the text config is of a model type whose defaults these are not
     */
    private JsonNode withDefaults(JsonNode text, JsonNode root, String name) {
        String textType = text.path("model_type").asText("");
        if (this == MISTRAL3 && text != root && !textType.isEmpty() && !textType.equals("mistral")) {
            // Ministral 3 ships as Mistral3ForConditionalGeneration with a text model of its own (ministral3)
            throw new IllegalArgumentException("config.json of " + name + ": \"text_config\" names model_type " + textType
                    + ", whose class defaults the simulated engine has not read (it reads Mistral 3 with a Mistral text"
                    + " model, model_type mistral); it would give this model another model's figures, so it is refused");
        }
        if (this == KIMI_K25 && text != root && !List.of("", "deepseek_v3", "kimi_k2").contains(textType)) {
            throw new IllegalArgumentException("config.json of " + name + ": \"text_config\" names model_type " + textType
                    + ", which Kimi K2.5's config does not read as DeepSeek V3's (expected deepseek_v3 or kimi_k2); it"
                    + " would give this model another model's figures, so it is refused");
        }
        if (this == GLM_MOE_DSA) {
            requireDenseFirstLayers(text, name);
        }
        if (this == QWEN2_5_VL && !text.hasNonNull("num_key_value_heads")) {
            throw new IllegalArgumentException("config.json of " + name + ": no \"num_key_value_heads\", whose default"
                    + " Qwen2.5-VL's text class changed between transformers releases (4, later 8); expected the config"
                    + " as published, which states it");
        }
        ObjectNode c = text.deepCopy();
        if (!c.has(TIE) && root != text && root.has(TIE)) {
            c.set(TIE, root.get(TIE));
        }
        boolean experts = EXPERT_COUNTS.stream().anyMatch(c::has);
        defaults.fields().forEachRemaining(e -> {
            // transformers 5 writes Qwen3-MoE's count under its alias: a count under any name is the count
            if (!c.has(e.getKey()) && !(experts && EXPERT_COUNTS.contains(e.getKey()))) {
                c.set(e.getKey(), e.getValue());
            }
        });
        return this == LLAMA4 ? llama4(c) : isGemma4() ? gemma4(c, name) : c;
    }

    /**
     * Gemma 4's keys in the reader's terms, as vLLM builds the model ({@code vllm/model_executor/models/gemma4.py},
     * vllm-project/vllm@001cabc1) and transformers' {@code Gemma4TextConfig} derives what a config leaves out
     * (huggingface/transformers@008e5743): without {@code layer_types}, five sliding layers of each six and the last one
     * full whatever the pattern says; with {@code enable_moe_block}, {@code top_k_experts} of {@code num_experts}
     * experts of {@code moe_intermediate_size} in every layer, beside the layer's dense MLP of {@code
     * intermediate_size}, which runs on every token as a shared expert does ({@code hidden_states_1 + hidden_states_2});
     * without it the experts' keys, which a published config states as null, are no experts. Refused by name: per-layer
     * input embeddings ({@code hidden_size_per_layer_input}, E2B's and E4B's table of 256 values a layer per token) and
     * layers reading another's KV cache ({@code num_kv_shared_layers}), which the twin does not model.
     */
    private static ObjectNode gemma4(ObjectNode c, String name) {
        String why = c.path("hidden_size_per_layer_input").asInt(0) > 0
                ? "\"hidden_size_per_layer_input\" " + c.get("hidden_size_per_layer_input") + ": per-layer input embeddings"
                : c.path("num_kv_shared_layers").asInt(0) > 0
                ? "\"num_kv_shared_layers\" " + c.get("num_kv_shared_layers") + ": layers reading another layer's KV cache"
                : null;
        if (why != null) {
            throw new IllegalArgumentException("config.json of " + name + ": " + why + " (Gemma 4 E2B's and E4B's) is not"
                    + " modelled by the simulated engine; it would give this model another model's figures, so it is"
                    + " refused: rehearse Gemma 4 31B or 26B-A4B, or measure this one on a real engine");
        }
        int layers = c.path("num_hidden_layers").asInt(0);
        if (!c.hasNonNull("layer_types") && layers > 0) {
            com.fasterxml.jackson.databind.node.ArrayNode types = c.putArray("layer_types");
            for (int layer = 0; layer < layers; layer++) {
                types.add((layer + 1) % 6 != 0 && layer < layers - 1 ? "sliding_attention" : "full_attention");
            }
        }
        if (c.path("enable_moe_block").asBoolean(false)) {
            c.set("num_experts_per_tok", c.get("top_k_experts"));
            c.set("shared_expert_intermediate_size", c.get("intermediate_size"));
        } else {
            c.remove(List.of("num_experts", "top_k_experts", "moe_intermediate_size"));
        }
        return c;
    }

    /**
     * Refuses a GLM-5 config without {@code first_k_dense_replace}, which vLLM's DeepSeek V2 model code reads for the
     * dense layers, or whose {@code mlp_layer_types} (transformers' way of saying them) disagrees with it: read by either
     * the model would be another.
     */
    private static void requireDenseFirstLayers(JsonNode text, String name) {
        if (!text.path("first_k_dense_replace").canConvertToInt()) {
            throw new IllegalArgumentException("config.json of " + name + ": no \"first_k_dense_replace\", the dense"
                    + " layers' count vLLM's model reads for GLM-5 (its transformers class leaves it out); expected the"
                    + " config.json as published, which states it");
        }
        int dense = text.get("first_k_dense_replace").asInt();
        JsonNode types = text.path("mlp_layer_types");
        for (int layer = 0; layer < types.size(); layer++) {
            String expected = layer < dense ? "dense" : "sparse";
            if (!types.get(layer).asText().equals(expected)) {
                throw new IllegalArgumentException("config.json of " + name + ": \"mlp_layer_types\" names layer "
                        + layer + " " + types.get(layer) + " where \"first_k_dense_replace\" " + dense + " makes it "
                        + expected + "; expected the two to agree (the simulated engine reads the layers as vLLM does,"
                        + " by first_k_dense_replace)");
            }
        }
    }

    /**
     * Llama 4's keys in the reader's terms, as vLLM builds the model ({@code models/llama4.py}, v0.17.1 and v0.26.0):
     * a layer is sparse when {@code (layer + 1) % interleave_moe_layer_step == 0},
     * its experts and its one shared expert {@code intermediate_size} wide; a dense layer's MLP is
     * {@code intermediate_size_mlp} wide; a layer with rotary positions ({@code no_rope_layers} 1, or all but every
     * {@code no_rope_layer_interval}-th where the list is empty, as {@code Llama4TextConfig} derives it) attends its own
     * chunk of {@code attention_chunk_size} tokens ({@code ChunkedLocalAttention}), a NoPE layer the whole context.
     */
    private static ObjectNode llama4(ObjectNode c) {
        int layers = c.path("num_hidden_layers").asInt(0);
        int step = c.path("interleave_moe_layer_step").asInt(1);
        // by the step alone, as vLLM's and SGLang's models read it (transformers' moe_layers list is not read by either)
        com.fasterxml.jackson.databind.node.ArrayNode denseOnly = c.putArray("mlp_only_layers");
        for (int layer = 0; layer < layers; layer++) {
            if (!(step > 0 && (layer + 1) % step == 0)) {
                denseOnly.add(layer);
            }
        }
        c.put("decoder_sparse_step", 1);
        c.set("moe_intermediate_size", c.get("intermediate_size"));
        c.put("n_shared_experts", 1);
        c.set("intermediate_size", c.get("intermediate_size_mlp"));
        if (!c.hasNonNull("layer_types")) {
            JsonNode rope = c.path("no_rope_layers");
            int interval = c.path("no_rope_layer_interval").asInt(4);
            boolean chunks = c.hasNonNull("attention_chunk_size");
            com.fasterxml.jackson.databind.node.ArrayNode types = c.putArray("layer_types");
            for (int layer = 0; layer < layers; layer++) {
                boolean ropeLayer = rope.isArray() && !rope.isEmpty() ? rope.path(layer).asInt(1) != 0
                        : (layer + 1) % interval != 0;
                types.add(chunks && ropeLayer ? "chunked_attention" : "full_attention");
            }
        }
        return c;
    }


    /**
     * Every how many layers one attends the whole context where the config lists no {@code layer_types} (0: not a
     * pattern of this architecture): gpt-oss alternates, the first layer sliding ({@code GptOssConfig}); Gemma 3 keeps
     * one of each {@code sliding_window_pattern} (6 unless set) layers full, the last of each group
     * ({@code Gemma3TextConfig}).
     */
    int slidingPattern(JsonNode c) {
        return this == GPT_OSS || this == GEMMA2 ? 2 : isGemma3() ? c.path("sliding_window_pattern").asInt(6) : 0;
    }

    /**
     * Whether a {@code sliding_window} the config states, with no {@code layer_types}, windows every layer: Mistral's
     * (vLLM sets its cache's window from the config of a model that does not interleave layer types, {@code
     * is_interleaved} in {@code vllm/transformers_utils/config.py}, and every attention layer without a window of its
     * own takes it: {@code EngineArgs.create_engine_config}, {@code Attention.__init__}, v0.17.1 and v0.26.0).
     */
    boolean windowsEveryLayer() {
        return this == MISTRAL;
    }

    /**
     * Whether SGLang builds this architecture's vision encoder only with {@code --enable-multimodal}: Llama 4's ({@code
     * has_vision = has_vision_weights and enable_multimodal}, {@code python/sglang/srt/models/mllama4.py}), whose
     * multimodal input {@code ModelConfig} turns off by default ({@code mm_disabled_models}, {@code
     * configs/model_config.py}). Gemma 3 is in that list too, but its model builds its tower whatever it says ({@code
     * gemma3_mm.py}).
     */
    boolean sglangBuildsVisionOnRequest() {
        return this == LLAMA4;
    }

    /** How SGLang serves this architecture's sliding-window layers ({@link ModelProfile.SglangWindow}). */
    ModelProfile.SglangWindow sglangWindow() {
        return switch (this) {
            case GPT_OSS, LLAMA4, GEMMA4, GEMMA4_TEXT -> ModelProfile.SglangWindow.OWN_POOL;
            case MISTRAL -> ModelProfile.SglangWindow.IGNORED;
            default -> ModelProfile.SglangWindow.ONE_POOL;
        };
    }

    /**
     * The prefix of its checkpoint's layer modules where it names them as Llama's does, which a compressed-tensors {@code
     * ignore} list is matched against ({@link CompressedTensors#parts}): {@code model.layers.} (Kimi K2.5's text model
     * under {@code language_model.}), then {@code N.self_attn.q_proj} (latent attention's {@code q_a_proj}, {@code
     * kv_a_proj_with_mqa}, {@code kv_b_proj}), {@code mlp.gate_proj}, a routed expert's {@code mlp.experts.E.gate_proj},
     * a shared one's {@code mlp.shared_experts.gate_proj} (DeepSeek's, GLM-4.5's) or {@code mlp.shared_expert.gate_proj}
     * (Qwen2-MoE's), each as vLLM's model file names it ({@code models/llama.py}, {@code qwen2_moe.py}, {@code
     * qwen3_moe.py}, {@code deepseek_v2.py}, {@code glm4_moe.py}, {@code kimi_k25.py}); null for the others (fused
     * projections, other names), which are read only with nothing but the output head, embeddings and routers left out.
     */
    String moduleLayers() {
        return switch (this) {
            case LLAMA, MISTRAL, QWEN2, QWEN2_MOE, QWEN3, QWEN3_MOE, DEEPSEEK_V2, DEEPSEEK_V3, DEEPSEEK_V32, GLM4_MOE,
                 GLM_MOE_DSA ->
                    "model.layers.";
            case KIMI_K25 -> "language_model.model.layers.";
            default -> null;
        };
    }

    /**
     * One module of its vision tower and one of its projector, as vLLM names them, where {@link #moduleLayers} reads a
     * multimodal checkpoint: Kimi K2.5's ({@code kimi_k25.py}, {@code kimi_k25_vit.py}); empty for the others.
     */
    List<String> visionModules() {
        return this == KIMI_K25 ? List.of("vision_tower.encoder.blocks.0.wqkv", "mm_projector.linear_1") : List.of();
    }

    /**
     * The config with its quantisation where the engines read it: Kimi K2.5's {@code KimiK25Config} takes its text
     * config's {@code quantization_config} where the top level has none ("Propagate quantization config from text
     * model"); every other config as it is.
     */
    JsonNode withQuantisationAtTop(JsonNode root) {
        JsonNode text = root.path("text_config").path("quantization_config");
        if (this != KIMI_K25 || root.has("quantization_config") || !text.isObject()) {
            return root;
        }
        ObjectNode copy = root.deepCopy();
        copy.set("quantization_config", text);
        return copy;
    }

    /** Whether its full-attention layers gate their output (a second query-sized projection): the Qwen hybrids do. */
    boolean gatesAttentionOutput() {
        return this == QWEN3_NEXT || this == QWEN3_5 || this == QWEN3_5_MOE;
    }

    /**
     * Gemma 4's text config's defaults, which both its classes read ({@code Gemma4TextConfig}: tied embeddings, sliding
     * heads of 256 and full ones of 512, 4 KV heads, a window of 512, per-layer inputs of 256 unless a config says 0).
     */
    private static final class Gemma4 {
        static final String DEFAULTS = "{\"tie_word_embeddings\":true,\"head_dim\":256,\"global_head_dim\":512,"
                + "\"num_key_value_heads\":4,\"sliding_window\":512,\"vocab_size\":262144,"
                + "\"max_position_embeddings\":131072,\"hidden_size_per_layer_input\":256,\"num_kv_shared_layers\":0}";
    }

    /** Gemma 3's text config's defaults, which both its classes read. */
    private static final class Gemma3 {
        static final String DEFAULTS = "{\"tie_word_embeddings\":true,\"head_dim\":256,\"num_key_value_heads\":4,"
                + "\"sliding_window\":4096,\"vocab_size\":262208,\"max_position_embeddings\":131072}";
    }

    private static final String TIE = "tie_word_embeddings";
    private static final List<String> EXPERT_COUNTS = List.of("num_experts", "num_local_experts", "n_routed_experts");

    /**
     * Whether its latent attention is DeepSeek Sparse Attention (DeepSeek V3.2, GLM-5): each query attends the {@code
     * index_topk} earlier tokens an indexer scores highest ({@link ModelProfile.Reach#TOP_K}).
     */
    boolean sparseAttention() {
        return this == DEEPSEEK_V32 || this == GLM_MOE_DSA;
    }

    /**
     * Whether this is Gemma 4, whose full-attention layers have heads of their own width and, with {@code
     * attention_k_eq_v}, KV heads of their own number ({@link ModelProfile#fromConfig}).
     */
    boolean isGemma4() {
        return this == GEMMA4 || this == GEMMA4_TEXT;
    }

    /**
     * The KV heads of the layers attending the whole context where they are fewer than the sliding layers' {@code
     * kvHeads}, else 0: Gemma 4's {@code num_global_key_value_heads} where its keys are its values ({@code
     * attention_k_eq_v}; vLLM's {@code models/gemma4.py} and transformers' {@code Gemma4TextConfig} take them so only
     * then).
     *
     * @param c the text config ({@link #textConfig})
     */
    int fewerWholeLayerKvHeads(JsonNode c, int kvHeads) {
        int whole = isGemma4() && c.path("attention_k_eq_v").asBoolean(false)
                ? c.path("num_global_key_value_heads").asInt(0) : 0;
        return whole > 0 && whole < kvHeads ? whole : 0;
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
        if (classes != null && !classes.isNull() && !(classes.isArray() && !classes.isEmpty()
                && classes.get(0).isTextual())) {
            throw new IllegalArgumentException("config.json of " + name + ": \"architectures\" must list the model's"
                    + " class names, e.g. [\"LlamaForCausalLM\"], got " + classes);
        }
        if (classes != null && classes.isArray()) {
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
