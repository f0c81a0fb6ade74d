package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * vLLM's MXFP4 experts as its kernels hold them, against what vLLM itself logged loading gpt-oss-120b on one H100:
 * "Model loading took 65.9651 GiB" with Marlin (vLLM 0.10.1, vllm-project/vllm issue #23278) and "Model loading took
 * 64.38 GiB memory" with Triton (0.14.1, issue #33155). The logs count a little more than the weights (buffers the
 * model registers), so the twin's figures are taken within a quarter of a GiB below them.
 */
class Mxfp4KernelTest {

    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final String MODEL = "openai/gpt-oss-120b";

    /** The weights vLLM holds, served as GPUStack's lab served it ({@code --max-model-len 32768}). */
    private static double weightsGib(List<String> flags, String gpu) {
        List<String> all = new java.util.ArrayList<>(flags);
        all.add("--max-model-len=32768");
        return SimParams.fromFlags(SimDialect.VLLM, MODEL, all, GpuProfile.named(gpu)).model().weightBytes() / GIB;
    }

    @Test
    void withMarlinsPaddingOnAnH100TheDefaultContextDoesNotFitAsVllmsOwnLogSays() {
        // issue #23278: vLLM 0.10.1 with Marlin on one H100 at its defaults (131,072 tokens of context): "Available KV
        // cache memory: -2.14 GiB", then "EngineCore failed to start"
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--sim-mxfp4-kernel=marlin"),
                GpuProfile.named("h100"))).hasMessageStartingWith("the KV cache does not fit one sequence of max model length 131072");
    }

    @Test
    void vllmHoldsGptOss120bAsItsOwnLoadLogsSay() {
        double marlin = weightsGib(List.of("--sim-mxfp4-kernel=marlin"), "h100");
        double triton = weightsGib(List.of(), "h100");
        assertThat(marlin).isBetween(65.9651 - 0.25, 65.9651);
        assertThat(triton).isBetween(64.38 - 0.25, 64.38);
    }

    /**
     * SGLang runs gpt-oss's experts with the same {@code triton_kernels} on Hopper ({@code ServerArgs}: {@code
     * moe_runner_backend = "triton_kernel"} unless on Blackwell or with {@code --ep-size} above 1) and holds them as that
     * library's layouts do ({@code mxfp4.py}: {@code _swizzle_mxfp4} on weights and scales, the loaded weights deleted,
     * the loaded scales kept), so on an H100 it holds what vLLM's own log measured for that layout, 64.38 GiB; on a
     * B200 (FlashInfer), an A100 and under expert parallelism the checkpoint's bytes, over 3 GiB less.
     */
    @Test
    void sglangHoldsGptOss120bOnHopperAsTheSameKernelsLayoutDoes() {
        java.util.function.BiFunction<List<String>, String, Double> sglang = (flags, gpu) -> SimParams.fromFlags(
                SimDialect.SGLANG, MODEL, flags, GpuProfile.named(gpu)).model().weightBytes() / GIB;
        double hopper = sglang.apply(List.of(), "h100");
        assertThat(hopper).isBetween(64.38 - 0.25, 64.38);
        assertThat(sglang.apply(List.of(), "h200")).isCloseTo(hopper, within(1e-9));
        assertThat(sglang.apply(List.of(), "b200")).isLessThan(hopper - 3);
        assertThat(sglang.apply(List.of(), "a100")).isLessThan(hopper - 3);
        assertThat(sglang.apply(List.of("--tp-size=2", "--ep-size=2"), "h100"))
                .isLessThan(sglang.apply(List.of("--tp-size=2"), "h100") - 3);
    }

    @Test
    void vllmPicksTheKernelByTheGpusComputeCapability() {
        // Marlin below 9.0 (the A100), Triton on Hopper, the checkpoint's layout on Blackwell (FlashInfer's, not modelled)
        assertThat(weightsGib(List.of(), "a100")).isCloseTo(weightsGib(List.of("--sim-mxfp4-kernel=marlin"), "h100"), within(1e-9));
        assertThat(weightsGib(List.of(), "h200")).isCloseTo(weightsGib(List.of(), "h100"), within(1e-9));
        assertThat(weightsGib(List.of(), "b200")).isLessThan(weightsGib(List.of(), "h100") - 3);
        // a model without MXFP4 experts is held as it is
        SimParams dense = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--sim-mxfp4-kernel=marlin"),
                GpuProfile.named("a100"));
        assertThat(dense.model()).isEqualTo(ModelProfile.forModel("Qwen/Qwen3-8B"));
    }

    @Test
    void marlinPadsTheExpertsShapeAndTritonKeepsTheScalesTwice() {
        // gpt-oss's experts, 2,880 x 2,880, held by Marlin as 2,944 x 3,072 (intermediate to 128, hidden to 256)
        double mxfp4 = 4.25 / 8;
        assertThat(Mxfp4Kernel.MARLIN.bytesPerParameter(2880, 2880)).isCloseTo(mxfp4 * 2944 * 3072 / (2880.0 * 2880), within(1e-12));
        // Triton: a byte of scale per 32 weights as loaded, and again swizzled with 5,760 gate-up and 2,880 down outputs
        // padded to 5,888 and 3,072
        double gateUp = mxfp4 + 5888 / 5760.0 / 32;
        double down = mxfp4 + 3072 / 2880.0 / 32;
        assertThat(Mxfp4Kernel.TRITON.bytesPerParameter(2880, 2880)).isCloseTo((2 * gateUp + down) / 3, within(1e-12));
        assertThat(Mxfp4Kernel.CHECKPOINT.bytesPerParameter(2880, 2880)).isEqualTo(mxfp4);
    }

    /**
     * Under tensor parallelism each GPU pads its own share of an expert: gpt-oss-120b at TP 8 holds 360 of the 2,880
     * intermediate columns a GPU, which Marlin pads to 384 (6.7% more where the whole expert pads 2.2%).
     */
    @Test
    void eachGpuPadsItsOwnShareOfAnExpert() {
        SimParams tp8 = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--sim-mxfp4-kernel=marlin",
                "--tensor-parallel-size=8"), GpuProfile.named("h100"));
        assertThat(tp8.model().expertBytesPerParameter())
                .isCloseTo(4.25 / 8 * 384 * 3072 / (360.0 * 2880), within(1e-12));
    }

    /**
     * vLLM's own switch is an environment variable, read as an integer (vllm/envs.py: {@code VLLM_MXFP4_USE_MARLIN:
     * maybe_convert_bool(...)}, {@code bool(int(value))}): 1 runs Marlin on any GPU, 0 leaves the choice to vLLM, and a
     * value {@code int()} refuses stops vLLM from starting. SGLang reads no such variable.
     */
    @Test
    void vllmsEnvironmentVariableChoosesMarlinAsVllmReadsIt() {
        assertThat(SimParams.flagsFromEnvironment(SimDialect.VLLM, List.of("CUDA_VISIBLE_DEVICES=0", "VLLM_MXFP4_USE_MARLIN=1")))
                .containsExactly("--sim-mxfp4-kernel=marlin");
        assertThat(SimParams.flagsFromEnvironment(SimDialect.VLLM, List.of("VLLM_MXFP4_USE_MARLIN=0"))).isEmpty();
        assertThat(SimParams.flagsFromEnvironment(SimDialect.VLLM, List.of("VLLM_MXFP4_USE_MARLIN="))).isEmpty();
        assertThat(SimParams.flagsFromEnvironment(SimDialect.SGLANG, List.of("VLLM_MXFP4_USE_MARLIN=1"))).isEmpty();
        assertThatThrownBy(() -> SimParams.flagsFromEnvironment(SimDialect.VLLM, List.of("VLLM_MXFP4_USE_MARLIN=yes")))
                .hasMessage("VLLM_MXFP4_USE_MARLIN=yes: vLLM reads it as an integer (0 or 1) and would not start;"
                        + " expected VLLM_MXFP4_USE_MARLIN=1");
    }

    @Test
    void aKernelVllmDoesNotHaveOrAnSglangStudyIsRefused() {
        assertThatThrownBy(() -> weightsGib(List.of("--sim-mxfp4-kernel=cutlass"), "h100"))
                .hasMessage("--sim-mxfp4-kernel cutlass is not a kernel vLLM runs MXFP4 experts with; expected marlin or triton");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--sim-mxfp4-kernel=marlin"),
                GpuProfile.named("h100")))
                .hasMessageContaining("--sim-mxfp4-kernel chooses vLLM's kernel for MXFP4 experts; the simulated SGLang"
                        + " holds them as its own choice of kernel does");
    }
}
