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

/**
 * {@code --quantization} against the checkpoint, as vLLM's {@code ModelConfig._verify_quantization} and its methods'
 * {@code override_quantization_method} decide it, and SGLang's copies of them ({@link QuantizationArgument}): the
 * checkpoint's own method, or its Marlin kernel, serves it; another method stops the engine with "Quantization method
 * specified in the model config (M) does not match the quantization method specified in the `quantization` argument
 * (X)."; {@code awq} or {@code gptq} named outright runs the older kernel ("... so forcing awq. Use
 * quantization=awq_marlin for faster inference"), which the twin does not model.
 */
class QuantizationArgumentTest {

    private static final String AWQ = "{\"quant_method\": \"awq\", \"bits\": 4, \"group_size\": 128,"
            + " \"zero_point\": true, \"version\": \"gemm\"}";

    @Test
    void anAwqCheckpointRunsWithMarlinUnlessTheArgumentForcesTheOldKernelOrNamesAnotherMethod(@TempDir Path dir)
            throws IOException {
        write(dir, AWQ);
        ModelProfile served = params(SimDialect.VLLM, dir).model();
        assertThat(served.bytesPerParameter()).isEqualTo(0.5 + 2.5 / 128);
        assertThat(params(SimDialect.VLLM, dir, "--quantization=awq_marlin").model()).isEqualTo(served);
        assertThat(params(SimDialect.VLLM, dir, "--quantization=marlin").model()).isEqualTo(served);
        assertThat(params(SimDialect.VLLM, dir, "--quantization=awq_marlin").ignoredFlags()).isEmpty();
        assertThatThrownBy(() -> params(SimDialect.VLLM, dir, "--quantization=awq"))
                .hasMessageContaining("makes vLLM run this AWQ checkpoint with its awq kernel rather than Marlin")
                .hasMessageContaining("so forcing awq. Use quantization=awq_marlin for faster inference")
                .hasMessageContaining("expected the flag left out, or --quantization awq_marlin");
        assertThatThrownBy(() -> params(SimDialect.VLLM, dir, "--quantization=fp8")).hasMessageContaining(
                "the engine would not start: vLLM refuses --quantization fp8 for this checkpoint (\"Quantization method"
                        + " specified in the model config (awq) does not match the quantization method specified in the"
                        + " `quantization` argument (fp8).\")");
        assertThatThrownBy(() -> params(SimDialect.SGLANG, dir, "--quantization=gptq_marlin"))
                .hasMessageContaining("SGLang refuses --quantization gptq_marlin for this checkpoint");
    }

    /** A built-in FP8 checkpoint: {@code fp8} is its own method; AWQ is another. */
    @Test
    void aCheckpointsOwnMethodServesItAndAnotherIsRefused() {
        String fp8 = "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8";
        SimParams named = SimParams.fromFlags(SimDialect.VLLM, fp8, List.of("--quantization=fp8",
                "--tensor-parallel-size=4"));
        assertThat(named.model()).isEqualTo(SimParams.fromFlags(SimDialect.VLLM, fp8,
                List.of("--tensor-parallel-size=4")).model());
        assertThat(named.model().fp8Weights()).isTrue();
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, fp8, List.of("--quantization=awq",
                "--tensor-parallel-size=4"))).hasMessageContaining("(\"Quantization method specified in the model config"
                + " (fp8) does not match the quantization method specified in the `quantization` argument (awq).\")");
    }

    /** A 16-bit checkpoint: {@code fp8} quantises it as it loads; another method is listed as not modelled. */
    @Test
    void aSixteenBitCheckpointTakesFp8AndListsOtherMethods() {
        SimParams online = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--quantization=fp8"));
        assertThat(online.model().fp8Weights()).isTrue();
        assertThat(online.ignoredFlags()).isEmpty();
        SimParams awq = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--quantization=awq"));
        assertThat(awq.model()).isEqualTo(ModelProfile.builtIn("Qwen/Qwen3-8B").orElseThrow());
        assertThat(awq.ignoredFlags()).containsExactly("--quantization=awq");
    }

    /** SGLang's own re-quantisations of a compressed-tensors checkpoint run kernels the twin does not model. */
    @Test
    void sglangsRequantisationOfAnotherMethodIsNotModelled(@TempDir Path dir) throws IOException {
        write(dir, "{\"quant_method\":\"compressed-tensors\",\"format\":\"float-quantized\",\"config_groups\":{"
                + "\"group_0\":{\"weights\":{\"num_bits\":8,\"type\":\"float\",\"strategy\":\"channel\","
                + "\"symmetric\":true,\"dynamic\":false},\"input_activations\":{\"num_bits\":8,\"type\":\"float\","
                + "\"strategy\":\"token\",\"symmetric\":true,\"dynamic\":true},\"targets\":[\"Linear\"]}},"
                + "\"ignore\":[\"lm_head\"]}");
        assertThat(params(SimDialect.SGLANG, dir, "--quantization=compressed-tensors").model().fp8Weights()).isTrue();
        assertThatThrownBy(() -> params(SimDialect.SGLANG, dir, "--quantization=w8a8_fp8"))
                .hasMessageContaining("makes SGLang re-quantise this compressed-tensors checkpoint with kernels of its"
                        + " own, which the simulated engine does not model");
        assertThatThrownBy(() -> params(SimDialect.VLLM, dir, "--quantization=w8a8_fp8"))
                .hasMessageContaining("vLLM refuses --quantization w8a8_fp8 for this checkpoint");
    }

    private static void write(Path dir, String quantisation) throws IOException {
        String config = ModelConfigs.LLAMA31_8B_INSTRUCT;
        Files.writeString(dir.resolve("config.json"), config.substring(0, config.lastIndexOf('}'))
                + ",\"quantization_config\":" + quantisation + "}");
    }

    private static SimParams params(SimDialect dialect, Path dir, String... flags) {
        List<String> all = new ArrayList<>(List.of(flags));
        all.add(SimParams.SIM_MODEL_CONFIG + "=" + dir);
        return SimParams.fromFlags(dialect, "org/quantised-model", all);
    }
}
