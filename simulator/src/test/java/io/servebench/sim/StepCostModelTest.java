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
     * {@code _handle_mamba_radix_cache}); vLLM 0.17.1 does not overlap.
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
