package io.servebench.sim;

/**
 * The duration of one forward step of the batch, from a roofline of the model on the GPUs. With
 * {@code B} the effective bandwidth (bytes/s) and {@code F} the effective FLOP/s, both summed over the
 * {@code t} tensor-parallel GPUs, and {@code I} each GPU's one-way interconnect bandwidth (bytes/s):
 * <pre>
 *   step = products(denseWeights / B_P,                                              weights and compute, joined
 *                                                                                  near the knee ({@link #products})
 *              2 * (perTokenParameters - routed) * computedTokens / F
 *              + 2 * vocabularyTable * sampledPositions / F                                the logits
 *              + (attentionFlopsPerPair * pairs + window.flopsPerPair * windowedPairs) / F16)
 *                                                                                  attention's products ({@link
 *                                                                                  AttentionWork}) at the GPUs'
 *                                                                                  16-bit rate F16
 *        + fusedMoe(expertsRead(computedTokens) / B_E,                                the routed experts, a kernel
 *                   2 * routed * computedTokens / E)                                    of their own ({@link
 *                                                                                  #fusedMoe}; four-bit experts
 *                                                                                  by {@link #products})
 *        + (kvBytesPerToken * contextTokens + window.kvBytesPerToken * windowedTokens   attention reads (a sliding
 *           + stateBytesPerSequence * sequences) / B                                 layer reads its window only)
 *        + k * draftFraction * max(weightsRead(draftingSequences) / B,
 *                                  2 * activeParameters * draftingSequences / F)   drafting
 *        + overheadFactor * engine.stepNanos                                        host work ({@link EngineProfile}):
 *        + engine.sequenceNanos * (sequences + acceptedDrafts)                    per step, and per sequence and
 *                                                                                  extra token it emits; an engine
 *                                                                                  that overlaps it with the GPU
 *                                                                                  ({@link SimParams#overlapsHostWork})
 *                                                                                  takes the larger of the two
 *        + 2 * layers * ({@value #ALL_REDUCE_LATENCY_NANOS} ns                    tensor parallelism (t > 1): two
 *            + 2 (t - 1) / t * computedTokens * hiddenSize * bytes / (I * {@value #INTERCONNECT_EFFICIENCY}))
 *                                                                                  ring all-reduces per layer
 *        + elementwiseBytes(computedTokens) / B                                     the small kernels' activation
 *                                                                                  traffic at prefill's rows ({@link
 *                                                                                  #elementwiseSeconds})
 *        + gemms * {@value #GEMM_FIXED_NANOS} ns                                   each dense product's fixed
 *                                                                                  time ({@link #GEMM_FIXED_NANOS})
 *        + kernelFloors                                                            what each kernel takes however
 *                                                                                  little it computes ({@link
 *                                                                                  #kernelFloorNanos})
 * </pre>
 * {@code B_P} is the bandwidth at which a dense product streams its weights beside its fixed time ({@link
 * #PRODUCT_READ_EFFICIENCY}; for FP8 weights scaled per block on Hopper, the layers' products {@link
 * #BLOCK_FP8_PRODUCT_READ_EFFICIENCY} beside {@link #BLOCK_FP8_GEMM_FIXED_NANOS} each), {@code B_E} the bandwidth at
 * which the fused mixture-of-experts kernel streams the routed experts ({@link #HOPPER_FP8_EXPERT_READ_EFFICIENCY};
 * {@code B} where it was not measured otherwise).
 * {@code perTokenParameters} are the layers' weights a computed token is multiplied through, and the output projection
 * ({@code vocabularyTable}, vocabulary x hidden size parameters) multiplies only the positions the step samples, one
 * per sequence and verified draft ({@link ModelProfile.Embeddings}). {@code denseWeights} is every weight but the routed
 * experts and an untied input embedding (looked up, not streamed: {@link ModelProfile#denseWeightBytesRead}), and
 * {@code expertsRead(n)} the routed experts {@code n} tokens are expected to touch ({@link
 * ModelProfile#expertBytesRead}); a mixture of experts
 * also pays {@link #MOE_LAYER_FLOOR_NANOS} per sparse layer and step, its fused kernel's fixed time, and computes its
 * {@code routed} active parameters (the experts a token runs through) at {@code E}, the FLOP/s a grouped expert kernel
 * reaches ({@link #EXPERT_COMPUTE_EFFICIENCY}), well below {@code F}. Under expert parallelism ({@link
 * SimParams#expertParallelSize}) whole experts are dealt to groups of GPUs, so a step's experts are read and computed
 * at the pace of the group its tokens load most ({@link ModelProfile#weightBytesRead(long, int)}, {@link
 * ModelProfile.Experts#busiestGroupPairs}); the all-reduces stay tensor parallelism's (an engine's own dispatch of
 * tokens to experts is not modelled).
 * Every term grows with the work in the step, so more prompt tokens, more context or more sequences
 * never make a step shorter. For Qwen3.5-9B on an H100 a decode step of ~18 sequences takes ~8 ms
 * (6.3 ms of it reading the weights) and a 340-token prefill ~11 ms; on two H100s a decode step of 20
 * sequences spends 64 x (8 + 0.46) us = 0.54 ms in all-reduces.
 */
final class StepCostModel {

    /**
     * Fixed cost of one small all-reduce among the GPUs of one node (launch and synchronisation), ns: assumed, not
     * fitted (the reference study ran on one GPU), and checked against what the engines printed for their own
     * all-reduces on H100s ({@code AllReduceMeasurementTest}): vLLM's custom all-reduce took 8.5 to 11.8 us at up to 32
     * KiB over 2, 4 and 8 GPUs outside a CUDA graph, SGLang's 3.7 to 7.8 us (sgl-project/sglang PR #2904).
     */
    static final long ALL_REDUCE_LATENCY_NANOS = 8_000;
    /**
     * Fraction of the one-way interconnect bandwidth a ring all-reduce reaches: assumed, not fitted; with {@link
     * #ALL_REDUCE_LATENCY_NANOS} it gives 0.5 to 4 MiB all-reduces over 4 and 6 H100s 2% slower to 24% faster than the
     * fastest of vLLM's own algorithms took (vllm-project/vllm PR #24111, {@code AllReduceMeasurementTest}).
     */
    static final double INTERCONNECT_EFFICIENCY = 0.8;

    /**
     * Fixed time of one fused mixture-of-experts layer beyond reading its routed experts' weights, ns: what vLLM's
     * {@code fused_moe} kernel measured in {@code benchmark_moe.py} less the experts' bytes at 85% of the bandwidth.
     * Qwen3-30B-A3B (E=128, top-8, fp8) on an H100, one token: 44.5 µs, of which 13 µs bytes (vLLM PR #24700);
     * Qwen3-Next (E=512, top-10, fp8, TP 2) on an H200: 30.0 µs, of which 4 µs bytes (PR #36559); Qwen3-30B-A3B bf16
     * on a B200: 39.6 µs, of which 11 µs bytes (PR #24700's table). At 64 tokens and more the same arithmetic leaves
     * about the same: the kernel's floor, not its bandwidth, is what a small batch of many small experts pays. The A100
     * shows about 64 µs (PR #24700, A100-PCIe bf16) but is given the Hopper figure here.
     */
    static final long MOE_LAYER_FLOOR_NANOS = 28_000;

    /**
     * Fraction of a GPU's peak bf16 FLOP/s that the routed experts' grouped matrix products of a fine-grained mixture of
     * experts reach, where the dense layers' reach {@link GpuProfile#computeEfficiency()}. vLLM's {@code fused_moe} on
     * Qwen3-30B-A3B's shape (128 experts of 3 x 2048 x 768, top 8) took 1,647.6 µs for 4,096 tokens in fp8 on an H100
     * (PR #24700, {@code benchmark_moe.py}, main): 3.09e11 FLOP, 188 TFLOP/s, 9.5% of the FP8 peak; fp8 is "10-17%
     * faster" than bf16 there (PR #35457, Qwen3-MoE shards on an H200, both tuned), so bf16 reaches about 188 / 1.15 =
     * 163 TFLOP/s, 16.5% of the bf16 peak. Many small experts leave each expert's product a few hundred rows; the
     * kernel, not the tensor cores, sets the pace. Measured on Hopper and taken as the same fraction on other GPUs.
     */
    static final double EXPERT_COMPUTE_EFFICIENCY = 0.165;
    /**
     * Fraction of a Hopper GPU's peak bandwidth at which the fused mixture-of-experts kernel streams FP8 experts, where
     * the dense layers' products reach {@link GpuProfile#bandwidthEfficiency()} (0.85). vLLM's {@code fused_moe} on
     * Qwen3-30B-A3B's shape in FP8 (W8A8) on an H100 (PR #24700, {@code benchmark_moe.py}, main) took 129.8, 185.4,
     * 238.4, 262.7, 271.0 and 273.7 us at 8, 16, 32, 64, 96 and 128 tokens, when the experts those tokens touch (51 to
     * all 128 of 4.7 MB) take 85 to 212 us at 85%: less {@link #MOE_LAYER_FLOOR_NANOS}, the kernel read them at 2.36-2.53
     * TB/s, 71-76% of 3.35. Not measured for 16-bit experts on Hopper, nor on other GPUs (the same kernel on an L40S
     * streamed at 83-86%: PRs #53710 and #53819), which keep the decode bandwidth.
     */
    static final double HOPPER_FP8_EXPERT_READ_EFFICIENCY = 0.74;
    /** The same for FP8 weights on FP8 tensor cores: 9.5% of the FP8 peak (PR #24700, as above). */
    static final double EXPERT_FP8_COMPUTE_EFFICIENCY = 0.095;
    /**
     * {@link #EXPERT_FP8_COMPUTE_EFFICIENCY} on an Ada GPU (the L40S, compute capability 8.9): the same kernel on the
     * same kind of shape computed 179-193 TFLOP/s there too, but that is a quarter of the L40S's FP8 peak (733e12), not a
     * tenth. vLLM PR #53819 (merged; Qwen3.5-35B-A3B's experts, 256 of 3 x 2,048 x 512, top 8, FP8 W8A8, tuned) printed
     * 9,198 us at 32,768 tokens and 2,772 at 8,192: 1.65e12 FLOP in 9.2 ms, 179 TFLOP/s, 24.5%; PR #53710 (Qwen3-30B-A3B's
     * shape) 3,196 us at 8,192 tokens, 193 TFLOP/s, 26%. At the H100's 9.5% the twin took 2.5x these times.
     */
    static final double ADA_EXPERT_FP8_COMPUTE_EFFICIENCY = 0.25;

    /**
     * Shortest duration of a small kernel of a decode step in a CUDA graph (a norm, rotary embedding, the KV cache
     * write, the activation, top-k, an activation quantisation), ns. Measured inside decode steps: a residual add 1.5 µs
     * and an RMSNorm 2.9 µs (NVIDIA/Megatron-LM PR #6463), a gated RMSNorm 1.90 µs at TP 8 and one sequence
     * (lightseekorg/tokenspeed PR #1154), vLLM's FP8 activation quantisation 2 µs in Llama-3-8B's graph
     * (neuralmagic/nm-vllm PR #332); silu_and_mul 1.8-2.1 µs at 4 tokens (sgl-project/sglang PR #23087).
     */
    static final long SMALL_KERNEL_NANOS = 2_000;
    /**
     * Fixed time of one matrix product beyond streaming its weights, ns: launching it, filling the GPU's SMs with its
     * first tiles and draining its last. Measured on the device's H100 ({@code scripts/kernels/sweep.py}, {@code
     * KernelMeasurementTest}): the 120 bf16 products of five dense models' layers, whole and sliced for tensor
     * parallelism 2 to 8 (10 to 525 MB each), at 1 to 16 rows, fit {@code 3.99 us + bytes / (0.918 x 3.35e12 B/s)} by
     * least squares, every product within -17..+18% (mean 6%), where the bytes at 85% with no fixed time left a TP 8
     * slice's products 24-54% short. The same sum fits what others measured at a few MB: cuBLAS on DeepSeek's 3.7 MB
     * router weights 4.66-5.06 us at 1 to 8 tokens on a B200 (vllm-project/vllm PR #44217), a block-FP8 product of 1.5
     * MB 4.05 us on an H20 (sgl-project/sglang PR #39306).
     */
    static final long GEMM_FIXED_NANOS = 4_000;
    /**
     * Fraction of a GPU's peak bandwidth at which a dense matrix product streams its weights past its fixed time
     * ({@link #GEMM_FIXED_NANOS}, the same fit): 0.918 on the device's H100, taken for every GPU. Beside the fixed time
     * it is higher than {@link GpuProfile#bandwidthEfficiency()}, the 85% that is a whole decode step's weights over
     * its time with no fixed time counted, which the KV cache's and states' reads keep.
     */
    static final double PRODUCT_READ_EFFICIENCY = 0.92;
    /**
     * Fraction of a Hopper GPU's peak bandwidth at which a product of FP8 weights with a scale per 128 x 128 block
     * ({@link LowBitWeights#FP8_BLOCK}) streams them past its fixed time ({@link #BLOCK_FP8_GEMM_FIXED_NANOS}). Measured
     * on the device's H100 ({@code scripts/kernels/sweep.py}'s {@code fp8block} part: {@code torch._scaled_mm} with 1 x
     * 128 activation and 128 x 128 weight scales, the format of DeepSeek's, Qwen's and GLM-5's FP8 checkpoints): the 32
     * products of Qwen3-14B's and Qwen3-32B's layers at 16 to 128 rows fit {@code 8.19 us + bytes / (0.783 x 3.35e12
     * B/s)} by least squares, each within -18..+23%; a second H100's run of the same products, from which no constant was
     * taken, fits 8.18 us and 0.785, a third's (stop 74) 8.56 us and 0.822. The same products with a scale per tensor
     * fit 2.3 us and 0.81, near the 16-bit rule, which they keep. Other GPUs' block-scaled products were not measured and
     * keep it too. PyTorch's kernel is cuBLASLt's; the engines run CUTLASS's, DeepGEMM's or their own Triton one, of
     * which no table at decode's rows was found, so the rate is the same scheme's (a scale per 128 of the reduction,
     * applied in the main loop) on the same GPU, not the engines' kernel's own.
     */
    static final double BLOCK_FP8_PRODUCT_READ_EFFICIENCY = 0.78;
    /** Fixed time of one block-scaled FP8 product on Hopper beside streaming its weights, ns (the same fit). */
    static final long BLOCK_FP8_GEMM_FIXED_NANOS = 8_200;
    /**
     * Shortest duration of a layer's decode attention kernel, ns: FlashInfer's at one sequence of 1K context, 9.5 µs of
     * device time on an H200 (tile-ai/TileOPs PR #2084; FlashAttention 3 16.2 µs there), 12.3 µs on Qwen-32B's heads at
     * TP 2 (vllm-project/flash-attention PR #63), latent attention through trtllm-gen 12.3-14.4 µs at one sequence on
     * Blackwell (vllm-project/vllm PR #41778). A layer whose KV cache takes longer to read takes that time instead.
     */
    static final long ATTENTION_FLOOR_NANOS = 10_000;

    private final SimParams settings;
    private final LayerKernels kernels;
    /**
     * Whether each product first quantises its activations: FP8 weights on FP8 tensor cores, NVFP4 on FP4 ones (its
     * values counted at FP8's bytes: {@link ModelProfile#QUANTISATION_BYTES}).
     */
    private final boolean quantisesActivations;
    private final double bandwidth;
    /** Bytes/s at which the dense products stream their weights ({@link #PRODUCT_READ_EFFICIENCY}), over the GPUs. */
    private final double productBandwidth;
    /**
     * Bytes/s at which the layers' dense products stream theirs: {@link #productBandwidth}, or for block-scaled FP8 on
     * Hopper {@link #BLOCK_FP8_PRODUCT_READ_EFFICIENCY} of the peak (the output projection keeps its 16-bit rate).
     */
    private final double layerProductBandwidth;
    /** Each layer product's fixed time, ns: {@link #GEMM_FIXED_NANOS}, {@link #BLOCK_FP8_GEMM_FIXED_NANOS}. */
    private final long gemmFixedNanos;
    private final double flops;
    /** FLOP/s of the routed experts' products, summed over the GPUs. */
    private final double expertFlops;
    /** Bytes/s at which the fused mixture-of-experts kernel reads its routed experts, summed over the GPUs. */
    private final double expertBandwidth;
    /** FLOP/s of attention's products (16-bit), summed over the GPUs. */
    private final double attentionFlops;

    StepCostModel(SimParams settings) {
        this.settings = settings;
        this.bandwidth = settings.gpu().effectiveBandwidth() * settings.tensorParallelSize();
        this.productBandwidth = settings.gpu().hbmBytesPerSecond() * PRODUCT_READ_EFFICIENCY
                * settings.tensorParallelSize();
        ModelProfile model = settings.model();
        GpuProfile gpu = settings.gpu();
        boolean blockScaled = model.blockScaledFp8() && gpu.hopper();
        this.layerProductBandwidth = blockScaled
                ? gpu.hbmBytesPerSecond() * BLOCK_FP8_PRODUCT_READ_EFFICIENCY * settings.tensorParallelSize()
                : productBandwidth;
        this.gemmFixedNanos = blockScaled ? BLOCK_FP8_GEMM_FIXED_NANOS : GEMM_FIXED_NANOS;
        // FP8 weights multiply on the FP8 tensor cores (W8A8, as vLLM's and SGLang's FP8 linear layers do on Hopper),
        // NVFP4 weights on FP4 tensor cores where the GPU has them (W4A4), else in 16 bits in Marlin (LowBitWeights)
        boolean fp4 = model.nvfp4Layers() && gpu.fp4TensorCores();
        this.flops = (fp4 ? gpu.effectiveFp4Flops() : model.fp8Weights() ? gpu.effectiveFp8Flops() : gpu.effectiveFlops())
                * settings.tensorParallelSize();
        this.attentionFlops = gpu.effectiveAttentionFlops() * settings.tensorParallelSize();
        boolean fp8 = model.fp8Weights() && gpu.peakFp8Flops() > 0;
        this.kernels = LayerKernels.of(model, fp8 || fp4);
        this.quantisesActivations = fp8 || fp4;
        this.expertBandwidth = expertBandwidth(gpu, fp8) * settings.tensorParallelSize();
        // NVFP4 experts on FP4 tensor cores: the FP8 fused kernel's fraction of the peak, an assumption (not measured)
        this.expertFlops = (model.nvfp4Experts() && gpu.fp4TensorCores()
                ? gpu.peakFp4Flops() * EXPERT_FP8_COMPUTE_EFFICIENCY : expertFlops(gpu, fp8))
                * settings.tensorParallelSize();
    }

    /**
     * Bytes/s at which one GPU's fused mixture-of-experts kernel reads the routed experts: {@link
     * #HOPPER_FP8_EXPERT_READ_EFFICIENCY} for FP8 experts on Hopper, the decode bandwidth otherwise.
     *
     * @param fp8 whether the experts are FP8 and multiply on the GPU's FP8 tensor cores
     */
    static double expertBandwidth(GpuProfile gpu, boolean fp8) {
        return fp8 && gpu.hopper() ? gpu.hbmBytesPerSecond() * HOPPER_FP8_EXPERT_READ_EFFICIENCY : gpu.effectiveBandwidth();
    }

    /**
     * FLOP/s one GPU's fused mixture-of-experts kernel reaches on the routed experts' products: {@link
     * #EXPERT_FP8_COMPUTE_EFFICIENCY} of the FP8 peak ({@link #ADA_EXPERT_FP8_COMPUTE_EFFICIENCY} on Ada) for FP8
     * experts, {@link #EXPERT_COMPUTE_EFFICIENCY} of the 16-bit peak otherwise.
     *
     * @param fp8 whether the experts are FP8 and multiply on the GPU's FP8 tensor cores
     */
    static double expertFlops(GpuProfile gpu, boolean fp8) {
        return fp8 ? gpu.peakFp8Flops() * (gpu.ada() ? ADA_EXPERT_FP8_COMPUTE_EFFICIENCY : EXPERT_FP8_COMPUTE_EFFICIENCY)
                : gpu.peakFlops() * EXPERT_COMPUTE_EFFICIENCY;
    }

    /**
     * Duration of one step, in nanoseconds.
     *
     * @param computedTokens     tokens run through the model: prefill chunk tokens plus, per decoding sequence,
     *                           1 (or 1 + k draft tokens to verify with speculative decoding)
     * @param contextTokens      KV-cache tokens attention reads, summed over the sequences in the step
     * @param sequences          sequences in the step
     * @param draftingSequences  decoding sequences for which k draft tokens are proposed (0 without speculation)
     * @param acceptedDrafts     draft tokens accepted in the step: the output processing (detokenising, parsing)
     *                           of each is host work like a sequence's own token
     */
    long stepNanos(long computedTokens, long contextTokens, int sequences, int draftingSequences, int acceptedDrafts) {
        return step(computedTokens, contextTokens, sequences, draftingSequences, acceptedDrafts).nanos();
    }

    /**
     * One step's duration and how its GPUs spent it, for the power model ({@link PowerModel}).
     *
     * @param nanos         the step's duration, ns
     * @param computeNanos  of it, ns the GPUs computed at their FLOP/s limit (a compute-bound step's matrix products)
     * @param memoryNanos   of it, ns the GPUs streamed memory or their links: weights (when they bound the step), the KV
     *                      cache and states, drafting, all-reduces
     * @param floorNanos    of it, ns the GPUs ran kernels at their floors ({@link #kernelFloorNanos}) or in the products'
     *                      fixed time ({@link #GEMM_FIXED_NANOS}: launch, first tiles, last tiles): busy, but with few
     *                      SMs at work and little memory traffic, so drawing about what they draw idle; the rest the
     *                      GPUs waited on the host
     */
    record Step(long nanos, double computeNanos, double memoryNanos, double floorNanos) {
    }

    /**
     * What a step's LoRA adapters add ({@link LoraParams}).
     *
     * @param tokens   tokens of the step's requests that name an adapter
     * @param adapters distinct adapters in the step
     * @param swapped  adapters copied in from host memory before it
     */
    record LoraWork(long tokens, int adapters, int swapped) {
        static final LoraWork NONE = new LoraWork(0, 0, 0);
    }

    /**
     * What a step's attention reads and computes.
     *
     * @param contextTokens  KV-cache tokens the layers attending the whole context read, summed over the sequences
     * @param windowedTokens the context the sliding-window layers read, each sequence's capped at the window
     * @param pairs          query tokens times the key tokens each attends in the layers attending the whole context,
     *                       summed over the sequences: a chunk of {@code c} tokens after {@code p} computed ones has
     *                       {@code c p + c (c + 1) / 2}
     * @param windowedPairs  the same in the sliding-window layers, each query's keys capped at the window
     */
    record AttentionWork(long contextTokens, long windowedTokens, long pairs, long windowedPairs) {

        /**
         * A step whose sequences each compute {@code computedTokens / sequences} tokens against their share of the
         * context (decode exactly; a prefill chunk counted as if each of its tokens saw the whole chunk).
         */
        static AttentionWork spread(long computedTokens, long contextTokens, int sequences) {
            long pairs = sequences == 0 ? 0 : Math.round((double) computedTokens * contextTokens / sequences);
            return new AttentionWork(contextTokens, contextTokens, pairs, pairs);
        }
    }

    /** The step's duration and its GPUs' busy time, with the arguments of {@link #stepNanos}. */
    Step step(long computedTokens, long contextTokens, int sequences, int draftingSequences, int acceptedDrafts) {
        return step(computedTokens, AttentionWork.spread(computedTokens, contextTokens, sequences), sequences,
                draftingSequences, acceptedDrafts, LoraWork.NONE);
    }

    /**
     * As {@link #step(long, long, int, int, int)}, with the attention's work per sequence, and the LoRA adapters' work:
     * their low-rank products (FLOPs, or the adapters' weights read, whichever takes longer), after the base model's,
     * and the copies of adapters swapped in before the step.
     */
    Step step(long computedTokens, AttentionWork work, int sequences, int draftingSequences, int acceptedDrafts,
              LoraWork lora) {
        ModelProfile m = settings.model();
        int groups = settings.expertParallelSize();
        double weights = m.layerWeightBytes() / layerProductBandwidth + m.tableBytesRead() / productBandwidth;
        double expertRead = m.expertBytesRead(computedTokens, groups) / expertBandwidth;
        double moeFloor = m.experts().layers() * MOE_LAYER_FLOOR_NANOS / 1e9;
        double routed = m.routedActiveParameters();
        // expert parallelism: the step waits for the group with the most token-expert pairs to compute (a dense model,
        // which SGLang serves at any --ep-size, has none: its layers are tensor-parallel only)
        double routedShare = groups <= 1 || computedTokens == 0 || m.experts().layers() == 0 ? 1
                : groups * m.experts().busiestGroupPairs(computedTokens, groups) / ((double) computedTokens * m.experts().perToken());
        // attention's products in 16 bits whatever the weights, on the GPUs its heads are split over
        // the output projection gives logits for the positions sampled: one per sequence, and each draft it verifies
        long sampled = sequences + (long) draftingSequences * settings.speculativeTokens();
        double expertCompute = 2 * routed * computedTokens * routedShare / expertFlops;
        double compute = 2 * (m.perTokenParameters() - routed) * computedTokens / flops
                + 2 * m.embeddings().parameters() * Math.min(sampled, computedTokens) / flops
                + (m.attentionFlopsPerPair() * work.pairs() + m.window().flopsPerPair() * work.windowedPairs())
                        / attentionFlops;
        // each copy of the KV cache is read by its own rank, at that rank's share of the bandwidth
        double attention = ((m.kvBytesPerToken() * work.contextTokens() + m.window().kvBytesPerToken()
                * work.windowedTokens()) * settings.kvCopies() + m.stateBytesPerSequence() * sequences) / bandwidth;
        double draft = draftingSequences == 0 ? 0
                : settings.speculativeTokens() * m.draftFraction()
                        * Math.max(m.weightBytesRead(draftingSequences) / bandwidth,
                                2 * m.activeParameters() * draftingSequences / flops);
        double allReduce = allReduceNanos(computedTokens);
        LoraParams l = settings.lora();
        double loraNanos = lora.adapters() == 0 ? 0 : Math.max(lora.tokens() * l.flopsPerToken(m) / flops,
                lora.adapters() * l.bytes(m) / bandwidth) * 1e9
                + lora.swapped() * l.bytes(m) / LoraParams.HOST_TO_DEVICE_BYTES_PER_S * 1e9;
        double floors = kernelFloorNanos(attention);
        double fixed = kernels.gemms() * gemmFixedNanos;
        double experts = m.fourBitExperts() ? products(expertRead, expertCompute) : fusedMoe(expertRead, expertCompute);
        double gpu = (products(weights, compute) + experts + moeFloor + attention + draft
                + elementwiseSeconds(computedTokens)) * 1e9 + fixed + allReduce + loraNanos
                + floors;
        EngineProfile engine = settings.engine();
        double host = settings.performanceMode().overheadFactor() * engine.stepNanos()
                + (double) engine.sequenceNanos() * (sequences + acceptedDrafts);
        long nanos = Math.round(settings.overlapsHostWork() ? Math.max(gpu, host) : gpu + host);
        double computeNanos = (compute > weights ? compute * 1e9 : 0)
                + (expertCompute > expertRead ? expertCompute * 1e9 : 0);
        // the products' fixed time streams little: counted as memory-bound it gave the tiny server's twin 45-75% more
        // energy above idle than the device's H200 measured (TinyServerTwinEnergyTest), at idle -12..+7%
        return new Step(nanos, computeNanos, gpu - computeNanos - floors - fixed, floors + fixed);
    }

    /**
     * The time of a step's matrix products, from the time their weights take to read and the time they take to compute:
     * their norm of order 3 rather than the larger, since near the knee a product neither streams its weights at full
     * bandwidth nor computes at full rate. Measured on the device's H100 ({@code scripts/kernels/sweep.py}; four dense
     * models' layers, 1 to 16,384 rows; {@code KernelMeasurementTest}): the larger of the two fell 7-9% short of the
     * measured time at 128 rows and 9-23% at 256 to 384; this norm is within -10..+3% at every row count but 192, where
     * cuBLAS's choice of kernel took Qwen3-14B's layer 455 us against 307 at 256 rows.
     *
     * @param readSeconds    the weights' bytes over the bandwidth, s
     * @param computeSeconds the products' FLOPs over the FLOP/s, s
     * @return s
     */
    static double products(double readSeconds, double computeSeconds) {
        return Math.cbrt(readSeconds * readSeconds * readSeconds + computeSeconds * computeSeconds * computeSeconds);
    }

    /**
     * The time of a step's routed experts in the fused mixture-of-experts kernel (vLLM's and SGLang's {@code fused_moe}
     * for 8- and 16-bit experts), a kernel of its own after the dense layers' products, so its time adds to theirs: its
     * experts' read and compute times joined by their norm of order 1.5, softer than the dense products' ({@link
     * #products}). Against the kernel times vLLM published ({@code FusedMoeKernelTest}: PR #24700, FP8 experts on an H100,
     * 1 to 4,096 tokens; PR #53819, on an L40S, 8 to 32,768), order 1.5 is within -12..+5% and -8..+6% at every batch,
     * with mean errors of 3.8% and 3.0%; order 3 leaves the kernel 20-25% short between 256 and 512 tokens on the H100
     * and 2,048 and 4,096 on the L40S (mean 5.4% and 8.0%), order 2 12-16% (4.0% and 5.9%).
     *
     * @param readSeconds    the touched experts' bytes over the bandwidth they are read at, s
     * @param computeSeconds their products' FLOPs over the FLOP/s the kernel reaches, s
     * @return s
     */
    static double fusedMoe(double readSeconds, double computeSeconds) {
        return Math.pow(Math.pow(readSeconds, 1.5) + Math.pow(computeSeconds, 1.5), 1 / 1.5);
    }

    /**
     * What a step's small kernels and attention take beyond the roofline, ns ({@link LayerKernels}): every small
     * kernel's floor, and a layer's attention floor where its reads take less time than the floor, a layer given an
     * equal share of the step's attention reads. (A matrix product's fixed time is not a floor but adds to its bytes'
     * time: {@link #GEMM_FIXED_NANOS}.)
     *
     * @param attentionSeconds the step's attention reads, s (the roofline's attention term)
     */
    double kernelFloorNanos(double attentionSeconds) {
        double layerAttention = attentionSeconds * 1e9 / kernels.attentionLayers();
        return kernels.smallKernels() * SMALL_KERNEL_NANOS
                + kernels.attentionLayers() * Math.max(0, ATTENTION_FLOOR_NANOS - layerAttention);
    }

    /**
     * What the small kernels take streaming a step's activations, s, beside their floors: at prefill's thousands of
     * rows the norms, rotary embedding, KV cache write and the MLP's activation each read and write megabytes
     * (Qwen3-14B: 219 KB a token and layer, 8% beside its products' time), at a decode step's few rows each a fraction
     * of a microsecond beside its floor. The norms run whole on every tensor-parallel rank, the rest split as the heads and the MLP are; the
     * bytes move at the bandwidth decode reaches ({@link ModelProfile.ActivationTraffic}), with FP8 products' activation
     * quantisation where the GPU multiplies in FP8.
     */
    double elementwiseSeconds(long computedTokens) {
        ModelProfile.ActivationTraffic traffic = settings.model().activationTraffic();
        double whole = traffic.norms() + (quantisesActivations ? traffic.quantisedWhole() : 0);
        double split = traffic.split() + (quantisesActivations ? traffic.quantisedSplit() : 0);
        return (whole * settings.tensorParallelSize() + split) * computedTokens / bandwidth;
    }

    /**
     * The tensor-parallel all-reduces of one step, ns: two per layer, each a ring over {@code t} GPUs moving
     * {@code 2 (t - 1) / t} of the step's activations ({@code computedTokens x hiddenSize} values) over each
     * GPU's link; 0 on one GPU.
     */
    double allReduceNanos(long computedTokens) {
        int t = settings.tensorParallelSize();
        if (t == 1) {
            return 0;
        }
        ModelProfile m = settings.model();
        // activations are 16-bit beside FP8 and integer weights
        double activationBytes = Math.max(ModelProfile.ACTIVATION_BYTES, m.bytesPerParameter());
        return 2.0 * m.layers() * allReduceNanos(settings.gpu(), t, computedTokens * m.hiddenSize() * activationBytes);
    }

    /**
     * One all-reduce of {@code messageBytes} over {@code t} GPUs of this kind, ns: a ring moving {@code 2 (t - 1) / t}
     * of the message over each GPU's link, beside {@link #ALL_REDUCE_LATENCY_NANOS}.
     */
    static double allReduceNanos(GpuProfile gpu, int t, double messageBytes) {
        double bytes = 2.0 * (t - 1) / t * messageBytes;
        return ALL_REDUCE_LATENCY_NANOS + bytes / (gpu.interconnectBytesPerSecond() * INTERCONNECT_EFFICIENCY) * 1e9;
    }
}
