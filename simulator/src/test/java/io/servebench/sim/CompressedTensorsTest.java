package io.servebench.sim;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * compressed-tensors checkpoints of integer weights beside 16-bit activations ({@link CompressedTensors}), as vLLM's
 * {@code CompressedTensorsWNA16} takes them: on every linear layer (RedHatAI's {@code quantized.w4a16}), or on the
 * routed experts alone (Kimi K2 Thinking). A weight costs its bits, and per group a 16-bit scale and, unless symmetric,
 * a zero point of as many bits ({@code weight_packed}, {@code weight_scale}, {@code weight_zero_point}); it multiplies in
 * 16 bits. What the {@code ignore} list leaves in 16 bits is read as vLLM matches it against module names.
 */
class CompressedTensorsTest {

    /** Llama 3.1 8B's two untied tables of 128,256 x 4,096, which stay in 16 bits. */
    private static final double LLAMA_TABLES = 2 * 128_256.0 * 4096;

    @Test
    void fourBitIntegerWeightsOnEveryLinearLayerAreReadAtTheirBitsAndScales() {
        ModelProfile w4a16 = llama(weights(4, "group", 128, true), "\"lm_head\"");
        // 4 bits, and per 128 weights a 2-byte scale; symmetric, so no zero point
        double perWeight = 0.5 + 2.0 / 128;
        assertThat(w4a16.bytesPerParameter()).isEqualTo(perWeight);
        assertThat(w4a16.weightBytes()).isCloseTo((w4a16.parameters() - LLAMA_TABLES) * perWeight + LLAMA_TABLES * 2,
                within(1.0));
        assertThat(w4a16.fp8Weights()).isFalse();
        // its KV cache keeps 16 bits: 32 layers of 8 KV heads of 128
        assertThat(w4a16.kvBytesPerToken()).isEqualTo(32 * 2 * 8 * 128 * 2.0);
        // zero points of 4 bits a group where the weights are not symmetric
        assertThat(llama(weights(4, "group", 32, false), "\"lm_head\"").bytesPerParameter())
                .isEqualTo(0.5 + 2.5 / 32);
    }

    /**
     * Eight-bit integers per channel take one byte a weight, as FP8 does, but multiply in 16 bits: not on the FP8 tensor
     * cores. (GPTQ's 8 bits per column were read as FP8 before: the profile told them apart by their bytes.)
     */
    @Test
    void eightBitIntegersPerChannelAreNotFp8() {
        ModelProfile w8a16 = llama(weights(8, "channel", null, true), "\"lm_head\"");
        assertThat(w8a16.bytesPerParameter()).isEqualTo(1);
        assertThat(w8a16.fp8Weights()).isFalse();
        String config = ModelConfigs.LLAMA31_8B_INSTRUCT;
        ModelProfile gptq = ModelProfile.fromConfig("m", config.substring(0, config.lastIndexOf('}'))
                + ",\"quantization_config\":{\"quant_method\":\"gptq\",\"bits\":8,\"group_size\":-1,\"sym\":true,"
                + "\"desc_act\":false}}");
        assertThat(gptq.bytesPerParameter()).isEqualTo(1);
        assertThat(gptq.fp8Weights()).isFalse();
    }

    /**
     * Kimi K2 Thinking: a DeepSeek V3 of 61 layers (the first dense, then 384 routed experts of 2,048 of which 8, and one
     * shared), whose routed experts alone are 4-bit integers in symmetric groups of 32; attention, the dense MLP, the
     * shared experts and the output head stay in 16 bits, by the ignore list its config carries (quoted by vLLM's test
     * of Kimi K2.6's, which "adopts the same native int4 quantization method": {@code re:.*self_attn.*}, {@code
     * re:.*shared_experts.*}, {@code re:.*mlp\.(gate|up|gate_up|down)_proj.*}). Counted by hand: 60 x 384 routed experts
     * of 3 x 7,168 x 2,048 weights, 0.5625 bytes each.
     */
    @Test
    void kimiK2ThinkingKeepsEverythingButItsRoutedExpertsInSixteenBits() {
        ModelProfile kimi = ModelProfile.fromConfig("moonshotai/Kimi-K2-Thinking", kimiK2(weights(4, "group", 32, true),
                "\"lm_head\",\"re:.*self_attn.*\",\"re:.*shared_experts.*\",\"re:.*mlp\\\\.(gate|up|gate_up|down)_proj.*\""));
        // the card's "1T total parameters, 32B activated"
        assertThat(kimi.parameters()).isCloseTo(1.03e12, within(0.02e12));
        assertThat(kimi.activeParameters()).isCloseTo(32.5e9, within(1e9));
        double routed = 60 * 384 * 3 * 7168.0 * 2048;
        double perExpertWeight = 0.5 + 2.0 / 32;
        assertThat(kimi.expertBytesPerParameter()).isEqualTo(perExpertWeight);
        assertThat(kimi.bytesPerParameter()).isEqualTo(2);
        assertThat(kimi.weightBytes()).isCloseTo(routed * perExpertWeight + (kimi.parameters() - routed) * 2,
                within(1.0));
        // multiplied in 16 bits, by Marlin's kernels rather than the fused MoE kernel of 8- and 16-bit experts
        assertThat(kimi.fp8Weights()).isFalse();
        assertThat(kimi.fourBitExperts()).isTrue();
        // no kernel lays them out anew, as MXFP4's do: 4-bit groups of 64 take MXFP4's 0.53125 bytes, and keep them
        ModelProfile groupsOf64 = ModelProfile.fromConfig("m", kimiK2(weights(4, "group", 64, true),
                "\"lm_head\",\"re:.*self_attn.*\",\"re:.*shared_experts.*\",\"re:.*mlp\\\\.(gate|up|gate_up|down)_proj.*\""));
        assertThat(groupsOf64.expertBytesPerParameter()).isEqualTo(ModelProfile.MXFP4_BYTES_PER_PARAMETER);
        assertThat(groupsOf64.withExpertsHeldBy(Mxfp4Kernel.vllmDefault(90), 8)).isEqualTo(groupsOf64);
        // the same weights on every linear layer: nothing left in 16 bits but the tables
        ModelProfile everywhere = ModelProfile.fromConfig("m", kimiK2(weights(4, "group", 32, true), "\"lm_head\""));
        assertThat(everywhere.bytesPerParameter()).isEqualTo(perExpertWeight);
        assertThat(everywhere.weightBytes()).isLessThan(kimi.weightBytes());
    }

    /**
     * What vLLM's {@code CompressedTensorsWNA16} or Marlin does not take, and ignore lists the twin does not model, are
     * refused by what they are.
     */
    @Test
    void whatIsNotModelledIsRefusedByName() {
        assertThatThrownBy(() -> llama(weights(3, "group", 128, true), "\"lm_head\""))
                .hasMessageContaining("compressed-tensors group group_0 with weights {\"num_bits\":3");
        assertThatThrownBy(() -> llama(weights(4, "group", 256, true), "\"lm_head\""))
                .hasMessageContaining("in groups of 32, 64 or 128");
        assertThatThrownBy(() -> llama(weights(4, "group", 128, true).replace("pack-quantized", "marlin-24"),
                "\"lm_head\"")).hasMessageContaining("in the format \"marlin-24\"");
        // FP8 on the attention alone, integers on the attention but not the MLP
        assertThatThrownBy(() -> llama(weights(4, "group", 128, true), "\"lm_head\",\"re:.*mlp.*\""))
                .hasMessageContaining("compressed-tensors leaving the dense MLP in 16 bits (modelled: integer weights on"
                        + " every linear layer, or on the routed experts alone");
        // a part left partly: the down projections only
        assertThatThrownBy(() -> llama(weights(4, "group", 128, true), "\"lm_head\",\"re:.*down_proj\""))
                .hasMessageContaining("leaving some of the dense MLP's modules in 16 bits (model.layers.0.mlp.down_proj");
        // an entry naming no part: one layer's modules
        assertThatThrownBy(() -> llama(weights(4, "group", 128, true), "\"lm_head\",\"re:model.layers.31.*\""))
                .hasMessageContaining("leaving \"re:model.layers.31.*\" unquantised (modelled: the output head, the"
                        + " embeddings and the routers, and whole parts: the attention, the dense MLP)");
        // a plain entry SGLang matches within names (check_contains) and vLLM as a whole name only
        assertThatThrownBy(() -> llama(weights(4, "group", 128, true), "\"lm_head\",\"down_proj\""))
                .hasMessageContaining("\"ignore\" entry \"down_proj\", which the engines read two ways: vLLM leaves out"
                        + " a module of exactly that name, SGLang every module whose name holds it"
                        + " (model.layers.0.mlp.down_proj, check_contains in its should_ignore_layer)");
        // experts alone, where the shared experts are quantised too
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", kimiK2(weights(4, "group", 32, true),
                "\"lm_head\",\"re:.*self_attn.*\",\"re:.*mlp\\\\.(gate|up|gate_up|down)_proj.*\"")))
                .hasMessageContaining("compressed-tensors leaving the attention and the dense MLP in 16 bits");
    }

    /** A config group of {@code bits}-bit integer weights, without input activations, pack-quantized. */
    private static String weights(int bits, String strategy, Integer group, boolean symmetric) {
        return "\"weights\":{\"num_bits\":" + bits + ",\"type\":\"int\",\"strategy\":\"" + strategy + "\","
                + "\"group_size\":" + group + ",\"symmetric\":" + symmetric + ",\"dynamic\":false,\"actorder\":null},"
                + "\"input_activations\":null,\"output_activations\":null,\"targets\":[\"Linear\"],"
                + "\"format\":\"pack-quantized\"";
    }

    private static ModelProfile llama(String group, String ignore) {
        String config = ModelConfigs.LLAMA31_8B_INSTRUCT;
        return ModelProfile.fromConfig("m", config.substring(0, config.lastIndexOf('}'))
                + quantisation(group, ignore) + "}");
    }

    private static String quantisation(String group, String ignore) {
        return ",\"quantization_config\":{\"quant_method\":\"compressed-tensors\",\"format\":\"pack-quantized\","
                + "\"quantization_status\":\"compressed\",\"kv_cache_scheme\":null,\"config_groups\":{\"group_0\":{"
                + group + "}},\"ignore\":[" + ignore + "]}";
    }

    /** Kimi K2's config.json, the fields the profile reads, with a compressed-tensors group and ignore list. */
    private static String kimiK2(String group, String ignore) {
        return "{\"architectures\":[\"DeepseekV3ForCausalLM\"]," + KIMI_K2_TEXT + quantisation(group, ignore) + "}";
    }

    private static final String KIMI_K2_TEXT = "\"model_type\":\"kimi_k2\",\"hidden_size\":7168,"
            + "\"num_hidden_layers\":61,\"num_attention_heads\":64,\"num_key_value_heads\":64,"
            + "\"intermediate_size\":18432,\"moe_intermediate_size\":2048,\"n_routed_experts\":384,"
            + "\"n_shared_experts\":1,\"num_experts_per_tok\":8,\"first_k_dense_replace\":1,\"moe_layer_freq\":1,"
            + "\"q_lora_rank\":1536,\"kv_lora_rank\":512,\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,"
            + "\"v_head_dim\":128,\"vocab_size\":163840,\"tie_word_embeddings\":false,\"num_nextn_predict_layers\":0,"
            + "\"max_position_embeddings\":262144,\"torch_dtype\":\"bfloat16\"";

    /** The ignore list of Kimi K2.6's config, as vLLM's test of it quotes it. */
    private static final String KIMI_K26_IGNORE = "\"re:.*self_attn.*\",\"re:.*shared_experts.*\","
            + "\"re:.*mlp\\\\.(gate|up|gate_up|down)_proj.*\",\"re:.*lm_head.*\",\"re:vision_tower.*\",\"re:mm_projector.*\"";

    /**
     * Kimi K2.5's config.json as {@code KimiK25Config} reads it: its text config Kimi K2's, with the quantisation inside
     * it, and its MoonViT tower under the checkpoint's own names ({@code vt_*}, {@code KimiK25VisionConfig}'s defaults).
     */
    private static String kimiK25(String ignore, String projector) {
        return "{\"architectures\":[\"KimiK25ForConditionalGeneration\"],\"model_type\":\"kimi_k25\","
                + "\"vision_config\":{\"vt_hidden_size\":1152,\"vt_intermediate_size\":4304,\"vt_num_hidden_layers\":27,"
                + "\"vt_num_attention_heads\":16,\"patch_size\":14,\"init_pos_emb_height\":64,\"init_pos_emb_width\":64,"
                + "\"init_pos_emb_time\":4,\"merge_kernel_size\":[2,2],\"mm_projector_type\":\"" + projector + "\","
                + "\"text_hidden_size\":7168},\"text_config\":{" + KIMI_K2_TEXT
                + quantisation(weights(4, "group", 32, true), ignore) + "}}";
    }

    /**
     * Kimi K2.5 (and K2.6, the same class): Kimi K2 Thinking's text model and its 4-bit experts, beside the MoonViT tower
     * and its projector in 16 bits. Counted by hand from vLLM's {@code kimi_k25_vit.py}: 27 layers of q/k/v and output
     * projections with biases (4 x (1,152^2 + 1,152)), an MLP with biases (2 x 1,152 x 4,304 + 4,304 + 1,152) and two
     * layer norms; a patch convolution of 3 x 14 x 14 with bias and a table of 64 x 64 positions; a final layer norm;
     * the projector's norm and its layers from 4 x 1,152 merged values, to as many and into the text's 7,168.
     */
    @Test
    void kimiK25IsKimiK2ThinkingBesideItsVisionTower() {
        double h = 1152;
        double i = 4304;
        double tower = 27 * (4 * (h * h + h) + 2 * h * i + i + h + 4 * h) + 3 * 14 * 14 * h + h + 64 * 64 * h + 2 * h;
        double m = 4 * h;
        double projector = 2 * h + m * m + m + m * 7168 + 7168;
        // its card: "MoonViT, 400M"
        assertThat(tower).isCloseTo(0.417e9, within(0.001e9));
        ModelProfile k25 = ModelProfile.fromConfig("moonshotai/Kimi-K2.5", kimiK25(KIMI_K26_IGNORE, "patchmerger"));
        assertThat(k25.nonLanguageBytes()).isCloseTo((tower + projector) * 2, within(1.0));
        ModelProfile thinking = ModelProfile.fromConfig("m", kimiK2(weights(4, "group", 32, true), KIMI_K26_IGNORE
                .replace(",\"re:vision_tower.*\",\"re:mm_projector.*\"", "")));
        assertThat(k25.parameters()).isEqualTo(thinking.parameters());
        assertThat(k25.activeParameters()).isEqualTo(thinking.activeParameters());
        assertThat(k25.expertBytesPerParameter()).isEqualTo(0.5 + 2.0 / 32);
        assertThat(k25.weightBytes()).isEqualTo(thinking.weightBytes());

        // its tower quantised with the rest, and a later projector's form, are refused by name
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", kimiK25(KIMI_K26_IGNORE.replace(
                ",\"re:vision_tower.*\",\"re:mm_projector.*\"", ""), "patchmerger")))
                .hasMessageContaining("compressed-tensors quantising the vision tower (modelled: left in 16 bits");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", kimiK25(KIMI_K26_IGNORE, "patchmergerv2")))
                .hasMessageContaining("\"vision_config\" has mm_projector_type \"patchmergerv2\", a form of Kimi K2.5's"
                        + " tower the simulated engine has not read");
    }
}
