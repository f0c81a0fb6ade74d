package io.servebench.sim;

/**
 * The kernels one forward step launches, counted by kind over all its decoder layers: each takes a few microseconds
 * however little it computes, which the roofline's bytes and FLOPs do not see: a small kernel or a layer's attention
 * at least its floor ({@link StepCostModel#kernelFloorNanos}), a matrix product a fixed time beside its bytes ({@link
 * StepCostModel#GEMM_FIXED_NANOS}). On one GPU a layer's products stream long enough for that to be a few percent;
 * split over eight GPUs they do not, and a step of one sequence is mostly these fixed times.
 *
 * <p>The counts follow the kernels vLLM's and SGLang's decode graphs launch per layer (vLLM's layerwise profile of
 * Llama-3-8B in a CUDA graph, neuralmagic/nm-vllm PR #332: two fused residual-add norms, rotary embedding, the KV
 * cache write, attention, the activation, four matrix products and, for FP8 weights, one activation quantisation per
 * product; TensorRT-LLM's tech blog 1 for a DeepSeek layer's modules). Kernels an engine fuses further (SGLang's
 * all-reduce with the norm, TensorRT-LLM's rotary with the cache write) are counted as the common engines launch them,
 * an assumption. Not counted: Qwen3's per-head q/k norms, a shared expert's products, a linear-attention layer's own
 * kernels (counted as an attention layer's).
 *
 * @param gemms           matrix products over the layers' dense weights: query/key/value and output projections, a
 *                        dense MLP's two, a sparse layer's router; five attention products for latent attention (the
 *                        compressed q and kv projection, q's up-projection, the two absorbed per-head products, the
 *                        output)
 * @param smallKernels    kernels that move a few kilobytes per token: norms, rotary embedding, the KV cache write,
 *                        the activation, a sparse layer's top-k and its sum of the experts' outputs, FP8 activation
 *                        quantisation
 * @param attentionLayers layers with an attention kernel (every layer)
 */
record LayerKernels(int gemms, int smallKernels, int attentionLayers) {

    /**
     * The kernels of one forward step of {@code model}.
     *
     * @param quantisesActivations whether each product first quantises its activations: FP8 weights on FP8 tensor cores
     *                             (on an A100 vLLM runs FP8 weights through Marlin, weight-only, with no such kernel)
     */
    static LayerKernels of(ModelProfile model, boolean quantisesActivations) {
        int layers = model.layers();
        int sparse = model.experts().layers();
        int dense = layers - sparse;
        boolean latent = model.kvSplit() == 1;
        // per layer: two residual-add norms, rotary, the KV cache write; latent attention adds its q and kv norms
        int small = layers * (latent ? 6 : 4) + dense + 2 * sparse;
        int gemms = layers * (latent ? 5 : 2) + 2 * dense + sparse;
        if (quantisesActivations) {
            small += gemms;
        }
        return new LayerKernels(gemms, small, layers);
    }
}
