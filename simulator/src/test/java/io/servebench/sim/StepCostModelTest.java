package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StepCostModelTest {

    private static final StepCostModel H100 = new StepCostModel(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of()));

    @Test
    void defaultsAreCalibratedToTheReferenceStudy() {
        // ~18 running sequences of ~480 tokens of context at 8 req/s: 7-10 ms per decode step
        double decodeMs = H100.stepNanos(18, 18 * 480, 18, 0, 0) / 1e6;
        assertThat(decodeMs).isBetween(7.0, 10.0);
        // a 340-token prefill alone: about 11 ms (compute-bound), tens of ms of TTFT at most under load
        double prefillMs = H100.stepNanos(340, 340, 1, 0, 0) / 1e6;
        assertThat(prefillMs).isCloseTo(11.4, within(1.0));
    }

    @Test
    void moreWorkNeverTakesLess() {
        long base = H100.stepNanos(10, 5000, 10, 0, 0);
        assertThat(H100.stepNanos(4000, 5000, 10, 0, 0)).isGreaterThan(base);
        assertThat(H100.stepNanos(10, 50_000, 10, 0, 0)).isGreaterThan(base);
        assertThat(H100.stepNanos(10, 5000, 20, 0, 0)).isGreaterThan(base);
    }

    @Test
    void speculationAndTensorParallelismAndPerformanceModeChangeTheStep() {
        StepCostModel spec = new StepCostModel(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B",
                List.of("--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}")));
        assertThat(spec.stepNanos(30, 5000, 10, 10, 0)).isGreaterThan(spec.stepNanos(30, 5000, 10, 0, 0));
        StepCostModel tp2 = new StepCostModel(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of("--tensor-parallel-size=2")));
        assertThat(tp2.stepNanos(10, 5000, 10, 0, 0)).isLessThan(H100.stepNanos(10, 5000, 10, 0, 0));
        StepCostModel interactive = new StepCostModel(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B",
                List.of("--performance-mode=interactivity")));
        assertThat(H100.stepNanos(10, 5000, 10, 0, 0) - interactive.stepNanos(10, 5000, 10, 0, 0))
                .isEqualTo(Math.round((1 - 0.85) * EngineProfile.vllm().stepNanos()));
    }

    /**
     * An FP8 Llama layer launches what vLLM's layerwise profile of Meta-Llama-3-8B in a CUDA graph shows per layer
     * (neuralmagic/nm-vllm PR #332): four matrix products, each after an activation quantisation (128 quantisations
     * over 32 layers), one rotary embedding per layer, two fused residual-add norms, the KV cache write, the
     * activation; a latent-attention mixture of experts adds TensorRT-LLM's DeepSeek modules (tech blog 1: the fused
     * q/kv-a product, the q and kv norms, q's up-projection, the two absorbed products, the router).
     */
    /**
     * On Hopper a block-scaled FP8 checkpoint's layer products read their weights at {@link
     * StepCostModel#BLOCK_FP8_PRODUCT_READ_EFFICIENCY} of the peak and take {@link StepCostModel#BLOCK_FP8_GEMM_FIXED_NANOS}
     * each beside that, while the output projection keeps the 16-bit rate; elsewhere (an A100 without FP8 cores, a B200
     * whose block-scaled products were not measured) it runs as FP8 with a scale per tensor does.
     */
    @Test
    void blockScaledFp8ProductsTakeLongerOnHopperThanTheirBytesAtThePerTensorRate() {
        for (String gpu : List.of("h100", "h200", "a100", "b200")) {
            SimParams block = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B-FP8", List.of(), GpuProfile.named(gpu));
            SimParams tensor = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--quantization=fp8"),
                    GpuProfile.named(gpu));
            long blockStep = new StepCostModel(block).stepNanos(4, 4 * 500, 4, 0, 0);
            long tensorStep = new StepCostModel(tensor).stepNanos(4, 4 * 500, 4, 0, 0);
            if (!GpuProfile.named(gpu).hopper()) {
                assertThat(blockStep).as(gpu).isEqualTo(tensorStep);
                assertThat(block.startLog()).as(gpu).anySatisfy(line -> assertThat(line).startsWith("FP8 weights in 128"
                        + " x 128 blocks: run as a scale per tensor runs, since no block-scaled product was measured on"));
                continue;
            }
            assertThat(block.startLog()).as(gpu).contains("FP8 weights in 128 x 128 blocks: each layer product streams"
                    + " them at 78% of the bandwidth beside 8.2 us, as such products took on an H100");
            assertThat(tensor.startLog()).as(gpu).noneMatch(line -> line.startsWith("FP8 weights in 128"));
            // the layers' 36 x 193 M one-byte weights (the tables excepted) at 0.78 instead of 0.92 of the peak, and
            // 8.2 instead of 4 us for each of the 36 x 4 products: at four sequences the products are all read time
            double layers = 36 * (4096 * (4096 + 2 * 1024) + 4096 * 4096 + 3 * 4096 * 12_288.0);
            double hbm = GpuProfile.named(gpu).hbmBytesPerSecond();
            double longer = layers / hbm * (1 / StepCostModel.BLOCK_FP8_PRODUCT_READ_EFFICIENCY
                    - 1 / StepCostModel.PRODUCT_READ_EFFICIENCY) * 1e9
                    + 36 * 4 * (StepCostModel.BLOCK_FP8_GEMM_FIXED_NANOS - StepCostModel.GEMM_FIXED_NANOS);
            assertThat((double) (blockStep - tensorStep)).as(gpu).isCloseTo(longer, within(0.02 * longer));
        }
    }

    @Test
    void aStepLaunchesTheKernelsTheEnginesProfilesShow() {
        LayerKernels llama = LayerKernels.of(SimParams.fromFlags(SimDialect.VLLM, "meta-llama/Llama-3.1-8B-Instruct",
                List.of("--quantization=fp8")).model(), true);
        assertThat(llama).isEqualTo(new LayerKernels(4 * 32, (4 + 5) * 32, 32));
        LayerKernels deepseek = LayerKernels.of(SimParams.fromFlags(SimDialect.VLLM, "deepseek-ai/DeepSeek-R1",
                List.of("--tensor-parallel-size=8"), GpuProfile.named("h200")).model(), true);
        // 61 layers of 5 attention products, 3 dense MLPs of 2, 58 routers; FP8: a quantisation before each product
        int products = 61 * 5 + 3 * 2 + 58;
        assertThat(deepseek).isEqualTo(new LayerKernels(products, 61 * 6 + 3 + 58 * 2 + products, 61));
    }

    /**
     * At prefill's rows the small kernels stream the activations: Qwen3-14B's layer, counted by hand from its config
     * (40 query and 8 KV heads of 128, MLP 17,408): rotary reads and writes q and k (2 x 48 x 128 values), the KV cache
     * write reads k and v and writes them (2 x 2 x 8 x 128), the activation reads gate and up and writes their product
     * (3 x 17,408), and the two norms 2 x 4 x 5,120, all 16-bit: 219,136 B a token and layer.
     */
    @Test
    void prefillsSmallKernelsStreamTheActivations() {
        SimParams qwen = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-14B", List.of());
        double split = 40 * (2 * 48 * 128 + 2 * 2 * 8 * 128 + 3 * 17_408) * 2.0;
        // an FP8 product quantises its input (2 B read, 1 B written): qkv and gate_up take the hidden state, o the 5,120
        // of the heads and down the 17,408 of the MLP
        assertThat(qwen.model().activationTraffic()).isEqualTo(new ModelProfile.ActivationTraffic(40 * 2 * 4 * 5120 * 2.0,
                split, 40 * 2 * 5120 * 3.0, 40 * (5120 + 17_408) * 3.0));
        StepCostModel model = new StepCostModel(qwen);
        double perToken = 40 * 2 * 4 * 5120 * 2.0 + split;
        assertThat(perToken / 40).isEqualTo(219_136);
        // at 8,192 rows 25 ms, beside the 312 ms its products took on the device's H100 (40 x 7.8 ms)
        assertThat(model.elementwiseSeconds(8192)).isCloseTo(perToken * 8192 / (3.35e12 * 0.85), within(1e-9))
                .isBetween(0.02, 0.03);
        // at a decode step's 64 rows 0.2 ms, beside 200 kernels' floors of 2 us
        assertThat(model.elementwiseSeconds(64)).isCloseTo(perToken * 64 / (3.35e12 * 0.85), within(1e-9));
        // on eight GPUs the norms run whole on each, the rest an eighth
        StepCostModel tp8 = new StepCostModel(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-14B",
                List.of("--tensor-parallel-size=8")));
        assertThat(tp8.elementwiseSeconds(8192))
                .isCloseTo((40 * 2 * 4 * 5120 * 2.0 + split / 8) * 8192 / (3.35e12 * 0.85), within(1e-9));
    }

    /**
     * On one GPU a layer's attention outlasts its kernel's floor under load, so only the small kernels add to the
     * roofline; the reference's fixed time per step at one sequence stays the 1 ms it was calibrated with, split into
     * the host's part and its kernels'. A product's fixed time is paid at any size: on one GPU it is a few percent of
     * streaming an average product's ~125 MB, on eight, where each streams ~16 MB, it is as long as the streaming, and
     * a step of one sequence is far from an eighth of one GPU's.
     */
    @Test
    void kernelFloorsAndProductsFixedTimeWeighWhereTensorParallelismLeavesEachKernelLittleWork() {
        LayerKernels k = LayerKernels.of(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of()).model(), false);
        double attentionUnderLoad = 32 * 20e-6;
        assertThat(H100.kernelFloorNanos(attentionUnderLoad))
                .isCloseTo(k.smallKernels() * StepCostModel.SMALL_KERNEL_NANOS, within(1e-6));
        ModelProfile reference = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of()).model();
        double oneSequence = (reference.kvBytes(500) + reference.stateBytesPerSequence())
                / GpuProfile.named("h100").effectiveBandwidth();
        assertThat(EngineProfile.vllm().stepNanos() + H100.kernelFloorNanos(oneSequence))
                .isCloseTo(1_000_000, within(1_000.0));

        SimParams one = SimParams.fromFlags(SimDialect.VLLM, "meta-llama/Llama-3.1-8B-Instruct", List.of(),
                GpuProfile.named("h200"));
        SimParams eight = SimParams.fromFlags(SimDialect.VLLM, "meta-llama/Llama-3.1-8B-Instruct",
                List.of("--tensor-parallel-size=8"), GpuProfile.named("h200"));
        StepCostModel tp1 = new StepCostModel(one);
        StepCostModel tp8 = new StepCostModel(eight);
        // Llama-3.1-8B: 32 layers of four products streaming 15 GB (its untied input table is looked up, not streamed)
        int gemms = LayerKernels.of(one.model(), false).gemms();
        assertThat(gemms).isEqualTo(128);
        double fixed = gemms * StepCostModel.GEMM_FIXED_NANOS;
        double readOne = one.model().denseWeightBytesRead() / (4.8e12 * StepCostModel.PRODUCT_READ_EFFICIENCY) * 1e9;
        assertThat(fixed / readOne).isBetween(0.1, 0.2);
        assertThat(fixed / (readOne / 8)).isBetween(0.8, 1.6);
        assertThat(tp8.stepNanos(1, 1000, 1, 0, 0)).isGreaterThan(tp1.stepNanos(1, 1000, 1, 0, 0) / 8 * 2);
    }

    /**
     * A long prompt's attention grows with the square of its length: FlashAttention's own benchmark counts a causal
     * forward pass as {@code 4 x seqlen^2 x heads x head dim / 2} FLOPs a layer (Dao-AILab/flash-attention,
     * benchmarks/benchmark_flash_attention.py, {@code flops(..., causal)}); for Llama-3.1-8B's 32 layers of 32 heads of
     * 128 at 32,768 tokens that is 2.8e14 FLOPs beside 5.3e14 for its weights, at the GPU's 16-bit rate.
     */
    @Test
    void aLongPrefillPaysItsAttentionsQuadraticFlops() {
        SimParams llama = SimParams.fromFlags(SimDialect.VLLM, "meta-llama/Llama-3.1-8B-Instruct", List.of(),
                GpuProfile.named("h200"));
        StepCostModel model = new StepCostModel(llama);
        long tokens = 32_768;
        double flashAttentionFlops = 32 * 4.0 * tokens * tokens * 32 * 128 / 2;
        long pairs = tokens * (tokens + 1) / 2;
        long withAttention = model.step(tokens, new StepCostModel.AttentionWork(tokens, tokens, pairs, pairs), 1, 0, 0,
                StepCostModel.LoraWork.NONE).nanos();
        long without = model.step(tokens, new StepCostModel.AttentionWork(tokens, tokens, 0, 0), 1, 0, 0,
                StepCostModel.LoraWork.NONE).nanos();
        double rate = GpuProfile.named("h200").effectiveAttentionFlops();
        assertThat((withAttention - without) / 1e9).isCloseTo(flashAttentionFlops / rate, within(1e-4));
    }

    /** A sliding layer's query attends at most its window: the pairs a chunk adds, counted one query at a time. */
    @Test
    void aSlidingLayerPairsEachQueryWithAtMostItsWindow() {
        for (long[] c : new long[][] {{0, 100, 128}, {0, 300, 128}, {50, 100, 128}, {200, 1, 128}, {127, 5, 128}}) {
            long before = c[0];
            long tokens = c[1];
            int window = (int) c[2];
            long counted = 0;
            for (long i = 1; i <= tokens; i++) {
                counted += Math.min(before + i, window);
            }
            assertThat(new ModelProfile.Window(window, 1, 1, ModelProfile.SglangWindow.OWN_POOL).pairs(before, tokens))
                    .as("%s", java.util.Arrays.toString(c)).isEqualTo(counted);
        }
        assertThat(ModelProfile.Window.NONE.pairs(10, 10)).isZero();
    }

    /**
     * A chunked layer's query attends the tokens of its own chunk, itself included: the token at position {@code p}
     * pairs with {@code p mod chunk + 1} keys, counted one query at a time, across chunk boundaries too; the last
     * token's keys are its chunk's so far.
     */
    @Test
    void aChunkedLayerPairsEachQueryWithItsOwnChunk() {
        ModelProfile.Window chunked = new ModelProfile.Window(128, 1, 1, ModelProfile.SglangWindow.OWN_POOL, false,
                ModelProfile.Reach.CHUNK);
        for (long[] c : new long[][] {{0, 100}, {0, 300}, {50, 100}, {200, 1}, {127, 5}, {128, 1}, {1000, 777}}) {
            long counted = 0;
            for (long p = c[0]; p < c[0] + c[1]; p++) {
                counted += p % 128 + 1;
            }
            assertThat(chunked.pairs(c[0], c[1])).as("%s", java.util.Arrays.toString(c)).isEqualTo(counted);
        }
        assertThat(List.of(chunked.keys(128), chunked.keys(129), chunked.keys(300))).containsExactly(128L, 1L, 44L);
    }

    @Test
    void tensorParallelAllReducesMoveTheStepsActivationsOverTheInterconnect() {
        List<String> tp2 = List.of("--tensor-parallel-size=2");
        StepCostModel nvlink = new StepCostModel(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", tp2));
        StepCostModel pcie = new StepCostModel(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", tp2,
                GpuProfile.named("l40s")));

        // 20 tokens x 4096 x 2 bytes, half of it over each link (2 (t - 1) / t = 1): 163,840 bytes per all-reduce,
        // two per layer over 32 layers, each 8 us plus the bytes at 80% of 450 GB/s (NVLink 4) or 32 GB/s (PCIe 4)
        assertThat(nvlink.allReduceNanos(20)).isCloseTo(64 * (8_000 + 163_840 / 360e9 * 1e9), within(1e-6));
        assertThat(pcie.allReduceNanos(20)).isCloseTo(64 * (8_000 + 163_840 / 25.6e9 * 1e9), within(1e-6));
        assertThat(H100.allReduceNanos(20)).isZero();
    }

    /**
     * SGLang's overlap scheduler hides the host's work behind the GPU's, except for a hybrid linear-attention model with
     * its radix cache on and no speculative decoding, where SGLang 0.5.9 turns it off ({@code server_args.py},
     * {@code _handle_mamba_radix_cache}), and where {@code --disable-overlap-schedule} turns it off; the twin's vLLM adds its host time, fitted on a reference that scheduled
     * asynchronously ({@link SimParams#overlapsHostWork} says why).
     */
    @Test
    void sglangOverlapsHostWorkWithTheGpuExceptForAHybridWithItsRadixCache() {
        SimParams denseSglang = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of());
        SimParams denseVllm = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of());
        assertThat(denseSglang.overlapsHostWork()).isTrue();
        assertThat(denseVllm.overlapsHostWork()).isFalse();
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3.5-9B", List.of()).overlapsHostWork()).isFalse();
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3.5-9B", List.of("--disable-radix-cache"))
                .overlapsHostWork()).isTrue();
        // SGLang's --disable-overlap-schedule runs the host's work between the GPU's steps
        SimParams noOverlap = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--disable-overlap-schedule"));
        assertThat(noOverlap.overlapsHostWork()).isFalse();
        assertThat(noOverlap.ignoredFlags()).isEmpty();

        // a decode step of 8 sequences of Qwen3-8B reads 16 GB of weights (~5.7 ms on an H100), longer than SGLang's
        // host work (1 ms + 8 x 305 us): overlapped, the host's time is hidden; in series (the same engine profile in
        // a dialect that does not overlap) it adds
        EngineProfile sglang = EngineProfile.sglang();
        double host = sglang.stepNanos() + 8.0 * sglang.sequenceNanos();
        long overlapped = new StepCostModel(denseSglang).stepNanos(8, 8 * 500, 8, 0, 0);
        long serial = new StepCostModel(denseVllm.withEngine(sglang)).stepNanos(8, 8 * 500, 8, 0, 0);
        assertThat((double) (serial - overlapped)).isCloseTo(host, within(1.0));
        assertThat(overlapped / 1e6).isGreaterThan(host / 1e6);
    }
}
