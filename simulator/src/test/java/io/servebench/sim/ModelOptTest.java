package io.servebench.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * NVIDIA ModelOpt checkpoints as vLLM reads them ({@code ModelOptFp8Config} in {@code
 * vllm/model_executor/layers/quantization/modelopt.py}, {@code get_kv_cache_quant_algo_string} in {@code
 * vllm/utils/torch_utils.py}, v0.17.1 and v0.26.0) and SGLang ({@code ModelRunner.configure_kv_cache_dtype}): FP8
 * weights, refused by vLLM below compute capability 8.9, a KV cache in FP8 by default where the checkpoint quantises it. Llama 3.1 8B's shape, whose 32 layers of 8 KV heads of 128 cache
 * 131,072 bytes a token in 16 bits.
 */
class ModelOptTest {

    private static final String MODEL = "nvidia/Llama-3.1-8B-Instruct-FP8";
    private static final double KV_16_BITS = 32 * 2 * 8 * 128 * 2.0;

    /** The config.json form: {@code quantization_config} names the method, its algorithm and its KV-cache scheme. */
    @Test
    void anFp8CheckpointIsReadAsFp8AndItsQuantisedKvCacheAsEachEngineTakesIt(@TempDir Path dir) throws IOException {
        write(dir, withQuantisation("{\"quant_method\": \"modelopt\", \"quant_algo\": \"FP8\", \"kv_cache_scheme\":"
                + " {\"dynamic\": false, \"num_bits\": 8, \"type\": \"float\"}, \"ignore\": [\"lm_head\"]}"));
        SimParams vllm = params(SimDialect.VLLM, dir, List.of(), "h100");
        assertThat(vllm.model().bytesPerParameter()).isEqualTo(1);
        assertThat(vllm.model().kvBytesPerToken()).isEqualTo(KV_16_BITS / 2);
        assertThat(params(SimDialect.VLLM, dir, List.of("--kv-cache-dtype=bfloat16"), "h100").model().kvBytesPerToken())
                .isEqualTo(KV_16_BITS);

        assertThatThrownBy(() -> params(SimDialect.VLLM, dir, List.of(), "a100"))
                .hasMessageContaining("Minimum capability: 89. Current capability: 80.");
        SimParams sglang = params(SimDialect.SGLANG, dir, List.of(), "h100");
        assertThat(sglang.model().bytesPerParameter()).isEqualTo(1);
        assertThat(sglang.model().kvBytesPerToken()).isEqualTo(KV_16_BITS / 2);
        assertThat(params(SimDialect.SGLANG, dir, List.of("--kv-cache-dtype=bfloat16"), "h100").model()
                .kvBytesPerToken()).isEqualTo(KV_16_BITS);
        // the engines' 16-bit choices are modelled, not listed among the flags the twin ignores; SGLang's 4-bit one is not
        for (String sixteen : List.of("bfloat16", "bf16")) {
            SimParams kept = params(SimDialect.SGLANG, dir, List.of("--kv-cache-dtype=" + sixteen), "h100");
            assertThat(kept.model().kvBytesPerToken()).isEqualTo(KV_16_BITS);
            assertThat(kept.ignoredFlags()).isEmpty();
        }
        assertThat(params(SimDialect.VLLM, dir, List.of("--kv-cache-dtype=bfloat16"), "h100").ignoredFlags()).isEmpty();
        assertThat(params(SimDialect.SGLANG, dir, List.of("--kv-cache-dtype=fp4_e2m1"), "h100").ignoredFlags())
                .containsExactly("--kv-cache-dtype=fp4_e2m1");
    }

    /**
     * The first ModelOpt checkpoints name their quantisation only in an {@code hf_quant_config.json} beside the config,
     * which vLLM reads: without it the twin would read the model as 16-bit.
     */
    @Test
    void anHfQuantConfigBesideTheConfigIsRead(@TempDir Path dir) throws IOException {
        write(dir, ModelConfigs.LLAMA31_8B_INSTRUCT);
        Files.writeString(dir.resolve("hf_quant_config.json"), "{\"producer\": {\"name\": \"modelopt\", \"version\":"
                + " \"0.19.0\"}, \"quantization\": {\"quant_algo\": \"FP8\", \"kv_cache_quant_algo\": \"FP8\"}}");
        SimParams vllm = params(SimDialect.VLLM, dir, List.of(), "h100");
        assertThat(vllm.model().bytesPerParameter()).isEqualTo(1);
        assertThat(vllm.model().kvBytesPerToken()).isEqualTo(KV_16_BITS / 2);

        Files.writeString(dir.resolve("hf_quant_config.json"), "{\"quantization\": {\"quant_algo\": \"W4A8_AWQ\","
                + " \"kv_cache_quant_algo\": null, \"group_size\": 128}}");
        assertThatThrownBy(() -> params(SimDialect.VLLM, dir, List.of(), "b200"))
                .hasMessageContaining("\"quantization_config\": ModelOpt with quant_algo W4A8_AWQ (modelled: FP8");
        Files.writeString(dir.resolve("hf_quant_config.json"), "{not json");
        assertThatThrownBy(() -> params(SimDialect.VLLM, dir, List.of(), "h100"))
                .hasMessageContaining("hf_quant_config.json of " + MODEL);
    }

    /** Without a KV-cache scheme the cache keeps the model's 16 bits in both engines, and nothing need be asked. */
    @Test
    void anFp8CheckpointWithoutAQuantisedKvCacheKeeps16Bits(@TempDir Path dir) throws IOException {
        write(dir, withQuantisation("{\"quant_method\": \"modelopt\", \"quant_algo\": \"FP8\"}"));
        assertThat(params(SimDialect.VLLM, dir, List.of(), "h100").model().kvBytesPerToken()).isEqualTo(KV_16_BITS);
        assertThat(params(SimDialect.SGLANG, dir, List.of(), "h100").model().kvBytesPerToken()).isEqualTo(KV_16_BITS);
    }

    private static String withQuantisation(String quantisation) {
        String config = ModelConfigs.LLAMA31_8B_INSTRUCT;
        return config.substring(0, config.lastIndexOf('}')) + ",\"quantization_config\":" + quantisation + "}";
    }

    private static void write(Path dir, String config) throws IOException {
        Files.writeString(dir.resolve("config.json"), config);
    }

    private static SimParams params(SimDialect dialect, Path dir, List<String> flags, String gpu) {
        List<String> all = new java.util.ArrayList<>(flags);
        all.add(SimParams.SIM_MODEL_CONFIG + "=" + dir);
        return SimParams.fromFlags(dialect, MODEL, all, GpuProfile.named(gpu));
    }
}
