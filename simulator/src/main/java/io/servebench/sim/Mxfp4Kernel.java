package io.servebench.sim;

import java.util.Locale;

/**
 * The kernel vLLM or SGLang runs MXFP4 experts (gpt-oss's) with, which holds them in a layout of its own: the bytes a
 * weight takes in memory, all of which the KV cache does without. vLLM's own "Model loading took" lines for
 * gpt-oss-120b on one H100 measure it: 65.97 GiB with Marlin (vLLM 0.10.1, vllm-project/vllm issue #23278) and 64.38
 * GiB with Triton (0.14.1, issue #33155), where the checkpoint's bytes are 60.8 GiB; the layouts below give 65.9 and
 * 64.3 GiB.
 * ({@code vllm/model_executor/layers/quantization/mxfp4.py}, {@code get_mxfp4_backend} and {@code create_weights}.)
 */
public enum Mxfp4Kernel {
    /**
     * Marlin, weight-only FP4 dequantised in the kernel: vLLM's choice below compute capability 9.0 (A100, L40S: "GPT-OSS
     * works on Ampere devices by default, using ... Marlin MXFP4 MoE", vllm-project/recipes' GPT-OSS page), and on
     * Hopper before vLLM 0.12, whose wheels lacked OpenAI's {@code triton_kernels} (issue #26582: a 0.11.0 user had to
     * build them; PR #28788 bundled them). It pads each expert's intermediate size to a multiple of 128 and the hidden
     * size to one of 256 ("The moe marlin kernel requires that for each linear n % 256 == 0 and k % 128 == 0"):
     * gpt-oss's 2,880 x 2,880 held as 2,944 x 3,072, 9% more bytes, read as well as held.
     */
    MARLIN,
    /**
     * OpenAI's {@code triton_kernels} ({@code matmul_ogs}): vLLM's choice on compute capability 9.x and 10.x since 0.12.
     * The weights stay unpadded; their scales (a byte per 32 weights) are held twice, as loaded and swizzled for Hopper
     * with the output dimension padded to a multiple of 256 (0.13–0.14's {@code process_weights_after_loading} frees
     * only the loaded weights). The copy kept as loaded is counted as read too: about 6% more expert bytes a step than
     * the kernel reads. SGLang holds them so too where it runs this kernel ({@link #sglangDefault}): its {@code
     * Mxfp4MoEMethod.process_weights_after_loading} swizzles weights and scales with the same {@code triton_kernels}
     * layouts ({@code _swizzle_mxfp4}, {@code python/sglang/srt/layers/quantization/mxfp4.py}), deletes the loaded
     * weights and keeps the loaded scales.
     */
    TRITON,
    /**
     * As the checkpoint stores them: FlashInfer's kernels on Blackwell, SGLang's on an A100 and under expert
     * parallelism, whose layouts are not modelled.
     */
    CHECKPOINT;

    /** The kernel vLLM picks by itself on a GPU of this compute capability (major x 10 + minor). */
    static Mxfp4Kernel vllmDefault(int computeCapability) {
        return computeCapability < 90 ? MARLIN : computeCapability < 100 ? TRITON : CHECKPOINT;
    }

    /**
     * The kernel SGLang runs MXFP4 experts with on a GPU of this compute capability, with {@code epSize} its {@code
     * --ep-size}: OpenAI's {@code triton_kernels} on Hopper without expert parallelism, else the checkpoint's layout.
     * SGLang's {@code ServerArgs} sets gpt-oss's {@code moe_runner_backend} to {@code flashinfer_mxfp4} on Blackwell and
     * to {@code triton_kernel} elsewhere when {@code ep_size == 1} and the library is installed, in each of the three
     * versions read (one still with 0.5.3's other rules for gpt-oss, two later); on an A100 {@code triton_kernels} keeps
     * a strided layout whose bytes were not read, so it stays the checkpoint's.
     */
    static Mxfp4Kernel sglangDefault(int computeCapability, int epSize) {
        return computeCapability >= 90 && computeCapability < 100 && epSize <= 1 ? TRITON : CHECKPOINT;
    }

    /** The kernel a {@code --sim-mxfp4-kernel} value names: {@code marlin} or {@code triton}, any case. */
    static Mxfp4Kernel named(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "marlin" -> MARLIN;
            case "triton" -> TRITON;
            default -> throw new IllegalArgumentException("--sim-mxfp4-kernel " + value + " is not a kernel vLLM runs"
                    + " MXFP4 experts with; expected marlin or triton");
        };
    }

    /**
     * Bytes one MXFP4 expert weight takes as this kernel holds it, for experts of {@code hidden} x {@code intermediate}
     * (a gate and an up projection of that shape, and a down projection back).
     */
    double bytesPerParameter(int hidden, int intermediate) {
        double checkpoint = ModelProfile.MXFP4_BYTES_PER_PARAMETER;
        return switch (this) {
            case MARLIN -> checkpoint * roundUp(intermediate, 128) * roundUp(hidden, 256) / ((double) intermediate * hidden);
            case TRITON -> {
                // the gate and up projections (two thirds of the weights) have 2 x intermediate outputs, the down one hidden
                double gateUp = checkpoint + roundUp(2 * intermediate, 256) / (2.0 * intermediate) / 32;
                double down = checkpoint + roundUp(hidden, 256) / (double) hidden / 32;
                yield (2 * gateUp + down) / 3;
            }
            case CHECKPOINT -> checkpoint;
        };
    }

    private static int roundUp(int n, int multiple) {
        return (n + multiple - 1) / multiple * multiple;
    }
}
