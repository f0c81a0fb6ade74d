package io.servebench.sim;

/**
 * What vLLM 0.17.1 and SGLang 0.5.9 derive from the GPU and the model when a study leaves a setting to them: each
 * method one rule of the engine's own source, named in its javadoc, so that the simulated engine starts with the
 * limits the real one would pick on the same GPU rather than an H100's for all. Memory sizes are the engines' own
 * units (SGLang reasons in MiB of {@code nvidia-smi}'s total, read here as the GPU profile's nominal GiB).
 */
public final class EngineDefaults {

    private EngineDefaults() {
    }

    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final double MIB = 1024.0 * 1024;

    /**
     * vLLM's {@code max_num_seqs} for an API server ({@code vllm/engine/arg_utils.py}, {@code get_batch_defaults}):
     * 1024 on a GPU of at least 70 GiB that is not an A100, else 256 ("setting large max_num_batched_tokens for A100
     * reduces throughput, see PR #17885").
     */
    static int vllmMaxNumSeqs(GpuProfile gpu) {
        return vllmMaxNumSeqs(gpu.name(), gpu.memoryBytes());
    }

    /** {@link #vllmMaxNumSeqs(GpuProfile)} for a GPU known by its name and memory in bytes (a real one's). */
    public static int vllmMaxNumSeqs(String gpuName, double memoryBytes) {
        return vllmLargeDefaults(gpuName, memoryBytes) ? 1024 : 256;
    }

    /** vLLM's {@code max_num_batched_tokens} for an API server, by the same rule: 8192, else 2048. */
    static int vllmMaxNumBatchedTokens(GpuProfile gpu) {
        return vllmMaxNumBatchedTokens(gpu.name(), gpu.memoryBytes());
    }

    /** {@link #vllmMaxNumBatchedTokens(GpuProfile)} for a GPU known by its name and memory in bytes. */
    public static int vllmMaxNumBatchedTokens(String gpuName, double memoryBytes) {
        return vllmLargeDefaults(gpuName, memoryBytes) ? 8192 : 2048;
    }

    private static boolean vllmLargeDefaults(String gpuName, double memoryBytes) {
        return memoryBytes >= 70 * GIB && !gpuName.toLowerCase(java.util.Locale.ROOT).contains("a100");
    }

    /**
     * Whether vLLM caches prefixes when no flag says ({@code vllm/config/model.py}, {@code is_prefix_caching_supported}):
     * for a decoder-only model yes, for a hybrid of attention and linear-attention (mamba-like) layers no, "since the
     * feature is still experimental".
     */
    static boolean vllmPrefixCaching(ModelProfile model) {
        return !hybrid(model);
    }

    /**
     * SGLang's {@code --chunked-prefill-size} ({@code server_args.py}, {@code _handle_gpu_memory_settings}), by the
     * GPU's memory: 2048 under 35 GiB, 4096 under 60 GiB, 8192 under 160 GiB (H100, A100 80GB, H20, H200), else 16384.
     */
    static int sglangChunkedPrefillSize(GpuProfile gpu) {
        double mib = gpu.memoryBytes() / MIB;
        return mib < 35 * 1024 ? 2048 : mib < 60 * 1024 ? 4096 : mib < 160 * 1024 ? 8192 : 16384;
    }

    /**
     * SGLang's {@code cuda_graph_max_bs} (same method): 8 under 20 GiB; 24 (80 from 4 GPUs) under 35 GiB; 32 (160)
     * under 60 GiB; 256 (512 from 4 GPUs) under 160 GiB; else 512.
     */
    static int sglangCudaGraphMaxBs(GpuProfile gpu, int tensorParallelSize) {
        double mib = gpu.memoryBytes() / MIB;
        boolean wide = tensorParallelSize >= 4;
        if (mib < 20 * 1024) {
            return 8;
        }
        if (mib < 35 * 1024) {
            return wide ? 80 : 24;
        }
        if (mib < 60 * 1024) {
            return wide ? 160 : 32;
        }
        return mib < 160 * 1024 ? (wide ? 512 : 256) : 512;
    }

    /**
     * SGLang's {@code --mem-fraction-static} when not given (same file): {@code (gpu - reserved) / gpu} rounded to
     * three places, with {@code reserved} (MiB) = 512 + 1.5 x max(chunked prefill size, 2048) for activations
     * + 2 x {@code cuda_graph_max_bs} + 1024 per 8 GPUs, at least 10 GiB on a GPU over 60 GiB, plus 2 GiB for an
     * EAGLE/NEXTN draft model and its graphs (6 GiB for a separate draft model, none for NGRAM). On an H100 (81,089 MiB)
     * that is 0.834, on an H200 (143,156 MiB) 0.906. A multimodal model's further cut for its vision encoder
     * ({@code adjust_mem_fraction_for_vlm}) is not modelled.
     *
     * @param speculativeMethod SGLang's algorithm in lower case, {@code null} without speculative decoding
     */
    static double sglangMemFractionStatic(GpuProfile gpu, int tensorParallelSize, int chunkedPrefillSize,
                                          String speculativeMethod) {
        double mib = gpu.memoryBytes() / MIB;
        double reserved = 512 + Math.max(chunkedPrefillSize, 2048) * 1.5
                + sglangCudaGraphMaxBs(gpu, tensorParallelSize) * 2 + tensorParallelSize / 8.0 * 1024;
        if (mib > 60 * 1024) {
            reserved = Math.max(reserved, 10 * 1024);
        }
        if (speculativeMethod != null) {
            reserved += speculativeMethod.equals("standalone") ? 6 * 1024 : speculativeMethod.equals("ngram") ? 0 : 2 * 1024;
        }
        return Math.round((mib - reserved) / mib * 1000) / 1000.0;
    }

    /**
     * SGLang's {@code max_running_requests} with speculative decoding when not given: 48 for EAGLE, EAGLE3, NEXTN,
     * STANDALONE and NGRAM ({@code server_args.py}: "Max running requests is reset to 48 for speculative decoding").
     */
    public static final int SGLANG_SPECULATIVE_MAX_RUNNING_REQUESTS = 48;

    /**
     * The ratio of SGLang's mamba state pool to its KV cache, both in bytes, when the pool is sized from memory:
     * {@code --mamba-full-memory-ratio} 0.9 ({@code server_args.py}); the pool takes 0.9 / 1.9 of what the weights leave
     * ({@code model_runner_kv_cache_mixin.py}, {@code handle_max_mamba_cache}).
     */
    static final double SGLANG_MAMBA_FULL_MEMORY_RATIO = 0.9;

    /**
     * SGLang's {@code --max-prefill-tokens} default, 16,384 ({@code server_args.py}): the prompt tokens of one prefill
     * batch when chunked prefill is off ({@code PrefillAdder}'s {@code rem_input_tokens}; its first prompt is taken whole
     * whatever its length).
     */
    static final int SGLANG_MAX_PREFILL_TOKENS = 16_384;

    /**
     * Tokens of SGLang's sliding-window pool per token of its full-attention pool, for a model with both kinds of layer
     * that it pools apart ({@link ModelProfile.SglangWindow#OWN_POOL}):
     * {@code swa_full_tokens_ratio: float = 0.8} ({@code server_args.py}); the memory left after the weights is split so
     * that the two pools keep that ratio.
     */
    static final double SGLANG_SWA_FULL_TOKENS_RATIO = 0.8;

    /**
     * State slots per running request in SGLang's mamba pool with the radix cache on: 3
     * ({@code MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO}; cached prefixes keep their states in the same pool, and the
     * default {@code no_buffer} strategy adds none), 1 with the radix cache off.
     */
    static int sglangMambaSlotsPerRequest(boolean radixCache) {
        return radixCache ? 3 : 1;
    }

    /**
     * SGLang's request pool size when {@code --max-running-requests} is not given ({@code init_memory_pool}):
     * {@code min(max(kvTokens / contextLength * 512, 2048), 4096)}.
     */
    static int sglangRequestPool(long kvTokens, int contextLength) {
        return (int) Math.min(Math.max(kvTokens * 512 / contextLength, 2048), 4096);
    }

    /** Whether the model has linear-attention (mamba-like) layers that keep a state per sequence. */
    static boolean hybrid(ModelProfile model) {
        return model.stateBytesPerSequence() > 0;
    }
}
