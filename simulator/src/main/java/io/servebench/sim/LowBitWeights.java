package io.servebench.sim;

/**
 * How a model's weights of under 16 bits multiply, beyond FP8 (one byte, on FP8 tensor cores where the GPU has them)
 * and gpt-oss's MXFP4 experts ({@link Mxfp4Kernel}), which {@link ModelProfile}'s bytes alone tell apart.
 */
public enum LowBitWeights {
    /** None: 16-bit or FP8 weights (a scale per tensor or channel), or MXFP4 experts, each run as their bytes say. */
    NONE,
    /**
     * FP8 weights with a scale per block of 128 x 128 (DeepSeek's, Qwen's and GLM-5's FP8 checkpoints: {@code
     * weight_block_size} in the config's {@code quantization_config}; compressed-tensors' {@code "strategy": "block"}),
     * activations quantised per token and 128 channels as each product starts. A byte a weight as per-tensor FP8, but on
     * Hopper its products read their weights slower at decode's rows and take longer beside them ({@link
     * StepCostModel#BLOCK_FP8_PRODUCT_READ_EFFICIENCY}, {@link StepCostModel#BLOCK_FP8_GEMM_FIXED_NANOS}).
     */
    FP8_BLOCK,
    /**
     * Integers (AWQ, GPTQ: {@link GroupQuantised}; compressed-tensors' W4A16 and W8A16: {@link CompressedTensors})
     * multiplied in 16 bits by Marlin's kernels, whatever the GPU.
     */
    INTEGER,
    /**
     * NVFP4: 4-bit floats (E2M1) in groups of 16 along the input, each group with an FP8 (E4M3) scale, and activations
     * quantised to the same format as each product starts (W4A4: ModelOpt's {@code NVFP4}, compressed-tensors' {@code
     * nvfp4-pack-quantized}: {@link ModelOpt}, {@link CompressedTensors}). Multiplied on the FP4 tensor cores of
     * datacenter Blackwell ({@link GpuProfile#fp4TensorCores()}); elsewhere both engines fall back to Marlin, weight-only in 16 bits: vLLM's
     * {@code is_fp4_marlin_supported} (compute capability 7.5 and up) with "Your GPU does not have native support for FP4
     * computation but FP4 quantization is being used. Weight-only FP4 compression will be used leveraging the Marlin
     * kernel." ({@code vllm/model_executor/layers/quantization/utils/marlin_utils_fp4.py}), SGLang's {@code
     * should_use_fp4_marlin_fallback} ("non-Blackwell GPU AND Marlin kernel available (SM >= 75)", {@code
     * python/sglang/srt/layers/quantization/marlin_utils_fp4.py}).
     */
    NVFP4;

    /**
     * Whether the weights multiply as their bytes say: in 16 bits, or as FP8 on FP8 tensor cores whatever the FP8's
     * scaling ({@link #NONE}, {@link #FP8_BLOCK}), rather than through Marlin or FP4 tensor cores.
     */
    boolean asTheirBytesSay() {
        return this == NONE || this == FP8_BLOCK;
    }

    /** Weights of NVFP4's groups, each sharing one FP8 scale (the format's, in both checkpoint kinds). */
    static final int NVFP4_GROUP_SIZE = 16;

    /**
     * Bytes an NVFP4 weight takes: 4 bits, and a one-byte scale per {@link #NVFP4_GROUP_SIZE} weights (a tensor's one
     * FP32 global scale aside): 0.5625, as vLLM holds them ({@code weight} of {@code uint8} two values a byte, {@code
     * weight_scale} of {@code float8_e4m3fn} one per group: {@code ModelOptNvFp4LinearMethod.create_weights}).
     */
    static final double NVFP4_BYTES_PER_PARAMETER = 0.5 + 1.0 / NVFP4_GROUP_SIZE;
}
