package io.servebench.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * NVFP4 checkpoints ({@link LowBitWeights#NVFP4}): NVIDIA ModelOpt's ({@code nvidia/...-FP4}: {@code quant_algo}
 * NVFP4, {@code ModelOptNvFp4Config} in vLLM's {@code modelopt.py}) and compressed-tensors' ({@code
 * nvfp4-pack-quantized}, vLLM's {@code CompressedTensorsW4A4Fp4}). A weight is 4 bits and each group of 16 shares a
 * one-byte FP8 scale ({@code ModelOptNvFp4LinearMethod.create_weights}: {@code weight} uint8 of half the input columns,
 * {@code weight_scale} float8_e4m3fn of a sixteenth). Products run on FP4 tensor cores on datacenter Blackwell, and
 * weight-only in 16 bits elsewhere ("Your GPU does not have native support for FP4 computation but FP4 quantization is
 * being used. Weight-only FP4 compression will be used leveraging the Marlin kernel.", {@code marlin_utils_fp4.py}).
 * Llama 3.1 8B's shape throughout: 32 layers of q, k, v, o (4,096 x 4,096, two of 4,096 x 1,024, 4,096 x 4,096) and an
 * MLP of 3 x 4,096 x 14,336, two untied tables of 128,256 x 4,096.
 */
class Nvfp4Test {

    private static final String MODEL = "nvidia/Llama-3.1-8B-Instruct-FP4";
    private static final double LINEAR = 32 * (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336);
    private static final double TABLES = 2 * 128_256.0 * 4096;
    private static final double KV_16_BITS = 32 * 2 * 8 * 128 * 2.0;

    /** The first nvidia/...-FP4 checkpoints name their quantisation in an hf_quant_config.json beside the config. */
    @Test
    void aModelOptCheckpointIsReadAtFourBitsAndAScaleForEverySixteenWeights(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("config.json"), ModelConfigs.LLAMA31_8B_INSTRUCT);
        Files.writeString(dir.resolve("hf_quant_config.json"), "{\"producer\": {\"name\": \"modelopt\"},"
                + " \"quantization\": {\"quant_algo\": \"NVFP4\", \"kv_cache_quant_algo\": \"FP8\", \"group_size\": 16,"
                + " \"exclude_modules\": [\"lm_head\"]}}");
        ModelProfile model = params(SimDialect.VLLM, dir, List.of(), "h100").model();
        assertThat(model.lowBitWeights()).isEqualTo(LowBitWeights.NVFP4);
        assertThat(model.bytesPerParameter()).isEqualTo(0.5625);
        // the layers at 4.5 bits, the tables at 16 (the norms, 266,240 weights, counted with the layers)
        assertThat(model.weightBytes()).isCloseTo(LINEAR * 0.5625 + TABLES * 2, within(1e6));
        assertThat(model.fp8Weights()).isFalse();
        // its kv_cache_quant_algo FP8: an FP8 cache by default
        assertThat(model.kvBytesPerToken()).isEqualTo(KV_16_BITS / 2);
        // no GPU of the twin's is below ModelOptNvFp4Config's minimum capability (7.5), unlike FP8's 8.9
        assertThat(params(SimDialect.VLLM, dir, List.of(), "a100").model().lowBitWeights())
                .isEqualTo(LowBitWeights.NVFP4);
        assertThat(params(SimDialect.SGLANG, dir, List.of(), "b200").model().bytesPerParameter()).isEqualTo(0.5625);
        // the serving commands NVIDIA's model cards give: --quantization modelopt_fp4, which both engines take
        for (SimDialect engine : List.of(SimDialect.VLLM, SimDialect.SGLANG)) {
            for (String argument : List.of("modelopt_fp4", "modelopt")) {
                assertThat(params(engine, dir, List.of("--quantization=" + argument), "b200").model().lowBitWeights())
                        .isEqualTo(LowBitWeights.NVFP4);
            }
        }
        assertThatThrownBy(() -> params(SimDialect.VLLM, dir, List.of("--quantization=fp8"), "b200"))
                .hasMessageContaining("Quantization method specified in the model config (modelopt_fp4) does not match"
                        + " the quantization method specified in the `quantization` argument (fp8).");
    }

    /**
     * On a B200 the products multiply on FP4 tensor cores, twice FP8's rate, so a long prefill takes less than the same
     * model's in FP8; on an H100 they multiply in 16 bits in Marlin, half FP8's rate, so it takes more. A decode step
     * reads the weights, 0.5625 bytes against FP8's 1, and is shorter on both.
     */
    @Test
    void productsRunOnFp4TensorCoresOnBlackwellAndWeightOnlyElsewhere(@TempDir Path dir) throws IOException {
        Path nvfp4 = Files.createDirectories(dir.resolve("nvfp4"));
        Path fp8 = Files.createDirectories(dir.resolve("fp8"));
        Files.writeString(nvfp4.resolve("config.json"), llama("{\"quant_method\": \"modelopt\", \"quant_algo\":"
                + " \"NVFP4\", \"group_size\": 16, \"ignore\": [\"lm_head\"]}"));
        Files.writeString(fp8.resolve("config.json"), llama("{\"quant_method\": \"modelopt\", \"quant_algo\":"
                + " \"FP8\", \"ignore\": [\"lm_head\"]}"));
        for (String gpu : List.of("b200", "h100")) {
            long fp4Prefill = step(nvfp4, gpu, 8192);
            long fp8Prefill = step(fp8, gpu, 8192);
            if (gpu.equals("b200")) {
                assertThat(fp4Prefill).isLessThan(fp8Prefill);
            } else {
                assertThat(fp4Prefill).isGreaterThan(fp8Prefill);
            }
            assertThat(step(nvfp4, gpu, 1)).isLessThan(step(fp8, gpu, 1));
        }
    }

    /** RedHatAI's -NVFP4 models: llm-compressor's NVFP4 preset, weights and activations of 4-bit floats in groups of 16. */
    @Test
    void aCompressedTensorsCheckpointIsReadAsModelOptsIs() {
        ModelProfile model = ModelProfile.fromConfig("RedHatAI/Llama-3.1-8B-Instruct-NVFP4", llama(compressedTensors(
                NVFP4_ARGS, NVFP4_ARGS, "nvfp4-pack-quantized")));
        assertThat(model.lowBitWeights()).isEqualTo(LowBitWeights.NVFP4);
        assertThat(model.weightBytes()).isCloseTo(LINEAR * 0.5625 + TABLES * 2, within(1e6));
        // NVFP4 weights beside 16-bit activations run in Marlin on every GPU: not modelled
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", llama(compressedTensors(NVFP4_ARGS, "null",
                "nvfp4-pack-quantized")))).hasMessageContaining("and no input activations in the format"
                + " \"nvfp4-pack-quantized\" (modelled of 4-bit floats: NVFP4 W4A4");
    }

    /**
     * Qwen3-30B-A3B with its routed experts alone in NVFP4: its exclusions name every layer's attention and router, so
     * the attention keeps 16 bits and the 48 x 128 experts of 3 x 2,048 x 768 take 0.5625 bytes a weight.
     */
    @Test
    void routedExpertsAloneKeepTheRestInSixteenBits() {
        String config = ModelConfigs.QWEN3_30B_A3B;
        ModelProfile model = ModelProfile.fromConfig("nvidia/Qwen3-30B-A3B-FP4", config.substring(0,
                config.lastIndexOf('}')) + ",\"quantization_config\": {\"quant_method\": \"modelopt\", \"quantization\":"
                + " {\"quant_algo\": \"NVFP4\", \"group_size\": 16, \"exclude_modules\": [\"lm_head\", \"*self_attn*\","
                + " \"*mlp.gate\"]}}}");
        assertThat(model.lowBitWeights()).isEqualTo(LowBitWeights.NVFP4);
        assertThat(model.bytesPerParameter()).isEqualTo(2);
        assertThat(model.expertBytesPerParameter()).isEqualTo(0.5625);
        double routed = 48 * 128 * 3 * 2048.0 * 768;
        assertThat(model.weightBytes()).isCloseTo(routed * 0.5625 + (model.parameters() - routed) * 2, within(1.0));
        assertThat(model.nvfp4Experts()).isTrue();
        assertThat(model.nvfp4Layers()).isFalse();
    }

    @Test
    void whatIsNotModelledIsRefusedByName() {
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", llama("{\"quant_method\": \"modelopt\", \"quant_algo\":"
                + " \"NVFP4\", \"group_size\": 32}"))).hasMessageContaining("ModelOpt NVFP4 with group_size 32"
                + " (modelled: NVFP4's groups of 16)");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", llama("{\"quant_method\": \"modelopt\", \"quant_algo\":"
                + " \"W4A16_NVFP4\", \"group_size\": 16}"))).hasMessageContaining("ModelOpt with quant_algo W4A16_NVFP4");
        // the twin reads one layer of each part: an exclusion of one layer's attention would be taken for every layer's
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", nvfp4Excluding("\"model.layers.0.self_attn*\"")))
                .hasMessageContaining("exclude entry \"model.layers.0.self_attn*\", which names one layer's modules"
                        + " (model.layers.0.self_attn.q_proj)");
        // a dense model's attention left in 16 bits beside NVFP4 MLPs
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", nvfp4Excluding("\"lm_head\", \"*self_attn*\"")))
                .hasMessageContaining("ModelOpt NVFP4 leaving the attention in 16 bits (modelled: NVFP4 on every linear"
                        + " layer, or on the routed experts alone");
        // a part left partly: the down projections, whose names hold the entry (vLLM's substring rule)
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", nvfp4Excluding("\"down_proj\"")))
                .hasMessageContaining("leaving some of the dense MLP's modules in 16 bits (model.layers.0.mlp.down_proj");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", nvfp4Excluding("\"model.norm\"")))
                .hasMessageContaining("ModelOpt NVFP4 leaving \"model.norm\" unquantised");
    }

    /** vLLM's is_layer_excluded: the name, a name holding the entry, or a wildcard match (fnmatch). */
    @Test
    void exclusionsNameModulesAsVllmMatchesThem() {
        assertThat(ModelOpt.excludes("lm_head", "lm_head")).isTrue();
        assertThat(ModelOpt.excludes("self_attn", "model.layers.3.self_attn.q_proj")).isTrue();
        assertThat(ModelOpt.excludes("model.layers.*.mlp.experts*", "model.layers.3.mlp.experts.0.up_proj")).isTrue();
        assertThat(ModelOpt.excludes("model.layers.?.mlp*", "model.layers.12.mlp.down_proj")).isFalse();
        assertThat(ModelOpt.excludes("*mlp.gate", "model.layers.3.mlp.gate_proj")).isFalse();
        assertThat(ModelOpt.excludes("model.layers.1.", "model.layers.12.mlp.down_proj")).isFalse();
    }

    private static final String NVFP4_ARGS = "{\"num_bits\":4,\"type\":\"float\",\"symmetric\":true,"
            + "\"strategy\":\"tensor_group\",\"group_size\":16,\"dynamic\":false}";

    private static String compressedTensors(String weights, String activations, String format) {
        return "{\"quant_method\":\"compressed-tensors\",\"format\":\"" + format + "\",\"config_groups\":{\"group_0\":{"
                + "\"weights\":" + weights + ",\"input_activations\":" + activations + ",\"targets\":[\"Linear\"],"
                + "\"format\":\"" + format + "\"}},\"ignore\":[\"lm_head\"]}";
    }

    private static String nvfp4Excluding(String entries) {
        return llama("{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"ignore\": ["
                + entries + "]}");
    }

    private static String llama(String quantisation) {
        String config = ModelConfigs.LLAMA31_8B_INSTRUCT;
        return config.substring(0, config.lastIndexOf('}')) + ",\"quantization_config\":" + quantisation + "}";
    }

    /** One step of vLLM on the GPU: {@code tokens} prefilled by one sequence, or one decoded. */
    private static long step(Path dir, String gpu, int tokens) {
        return new StepCostModel(params(SimDialect.VLLM, dir, List.of(), gpu)).stepNanos(tokens, tokens, 1, 0, 0);
    }

    private static SimParams params(SimDialect dialect, Path dir, List<String> flags, String gpu) {
        List<String> all = new ArrayList<>(flags);
        all.add(SimParams.SIM_MODEL_CONFIG + "=" + dir);
        return SimParams.fromFlags(dialect, MODEL, all, GpuProfile.named(gpu));
    }
}
