package io.servebench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * The step model's fused mixture-of-experts layer against the kernel times vLLM published for it: {@code
 * benchmarks/kernels/benchmark_moe.py --model=Qwen/Qwen3-30B-A3B -tp=1 --dtype=fp8_w8a8} on an H100, the "Main"
 * column of vllm-project/vllm PR #24700 ("Improve default fused moe configs by analyzing tuned configs"), one layer's
 * {@code fused_moe} (both grouped products and the activation between them) at each batch of tokens. The oracle is that
 * printed table; the twin's side is its experts' reads at {@link StepCostModel#expertBandwidth}, its products at
 * {@link StepCostModel#expertFlops}, joined by {@link StepCostModel#fusedMoe}, and {@link
 * StepCostModel#MOE_LAYER_FLOOR_NANOS}. And on an L40S: the "Tuned" column of vllm-project/vllm PR #53819 ("Tune
 * fused_moe FP8 config for Qwen3.5 on L40S", merged), Qwen3.5-35B-A3B's experts in FP8 at 8 to 32,768 tokens. And
 * 16-bit experts on an A100: the "Before this PR" times of vllm-project/vllm PR #19049 (Qwen3-30B-A3B's experts in bf16
 * on an A100 PCIe 40GB, vLLM's default kernel configuration then), 1 to 96 tokens.
 */
class FusedMoeKernelTest {

    /** Tokens in the batch and the kernel's time, us, as PR #24700 printed them. */
    private static final long[] TOKENS = {1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 1536, 2048, 3072, 4096};
    private static final double[] MICROS = {44.54, 59.94, 90.46, 129.77, 185.40, 215.99, 238.37, 257.83, 262.73, 270.98,
            273.72, 355.49, 391.86, 536.33, 727.31, 911.64, 1279.17, 1647.57};

    /** The same for Qwen3.5-35B-A3B's experts on an L40S, as PR #53819 printed them (from 8 tokens: below, the touched
     * experts fit the L40S's 96 MB L2 cache, which the benchmark's repeated calls keep warm as no served step does). */
    private static final long[] L40S_TOKENS = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
    private static final double[] L40S_MICROS = {259.57, 455.32, 730.29, 974.49, 1113.81, 1167.44, 1214.92, 1303.19,
            1502.44, 1904.68, 2772.23, 4854.88, 9198.10};

    /** Qwen3-30B-A3B's 16-bit experts on an A100 PCIe 40GB, as PR #19049 printed them before its tuned configuration. */
    private static final long[] A100_TOKENS = {1, 2, 4, 8, 16, 24, 32, 48, 64, 96};
    private static final double[] A100_MICROS = {109.21, 159.81, 268.89, 403.13, 611.19, 730.19, 808.53, 885.97, 917.45,
            943.14};
    /** NVIDIA A100 PCIe 40GB (its datasheet: 1,555 GB/s, 312 dense bf16 TFLOP/s, PCIe Gen4), the twin's efficiencies. */
    private static final GpuProfile A100_PCIE_40GB = new GpuProfile("NVIDIA A100-PCIE-40GB", 40.0 * (1L << 30),
            1.555e12, 312e12, 0.85, 0.60, 32e9, 0, 250, 80);

    private static final GpuProfile H100 = GpuProfile.named("h100");
    private static final GpuProfile L40S = GpuProfile.named("l40s");
    private static final ModelProfile.Experts QWEN3_30B_A3B = ModelProfile.forModel("Qwen/Qwen3-30B-A3B").experts();
    private static final ModelProfile.Experts QWEN35_35B_A3B = ModelProfile.forModel("Qwen/Qwen3.5-35B-A3B").experts();

    @Test
    void aLayerOfFp8ExpertsTakesWhatVllmsKernelTookOnAnH100AtDecodesBatchesAndAtPrefills() {
        assertThat(QWEN3_30B_A3B.count()).isEqualTo(128);
        assertThat(QWEN3_30B_A3B.perToken()).isEqualTo(8);
        // the largest miss is at 256 tokens (-12%), where the kernel's configuration changes
        assertThat(off(QWEN3_30B_A3B, H100, true, TOKENS, MICROS, t -> true, -0.13, 0.06))
                .as("batches off the published kernel time").isEmpty();
    }

    @Test
    void onAnL40sTheSameKernelComputesAQuarterOfThePeakNotATenth() {
        assertThat(QWEN35_35B_A3B.count()).isEqualTo(256);
        assertThat(off(QWEN35_35B_A3B, L40S, true, L40S_TOKENS, L40S_MICROS, t -> true, -0.09, 0.07))
                .as("batches off the published kernel time").isEmpty();
    }

    @Test
    void onAnA100SixteenBitExpertsStreamAtTheDecodeBandwidth() {
        assertThat(off(QWEN3_30B_A3B, A100_PCIE_40GB, false, A100_TOKENS, A100_MICROS, t -> t >= 8, -0.03, 0.04))
                .as("batches off the published kernel time").isEmpty();
        // at 1 to 4 tokens the A100's kernel pays more than the Hopper floor the twin gives every GPU (about 64 us
        // here): a known miss of 12-22%
        assertThat(off(QWEN3_30B_A3B, A100_PCIE_40GB, false, A100_TOKENS, A100_MICROS, t -> t < 8, -0.25, 0))
                .as("batches off the published kernel time").isEmpty();
    }

    /**
     * The batches among {@code tokens} that {@code which} picks whose twin's time is off the published one by less than
     * {@code low} or more than {@code high}, each with its error.
     */
    private static List<String> off(ModelProfile.Experts experts, GpuProfile gpu, boolean fp8, long[] tokens,
                                    double[] micros, LongPredicate which, double low, double high) {
        List<String> off = new ArrayList<>();
        for (int i = 0; i < tokens.length; i++) {
            double error = twinMicros(experts, gpu, fp8, tokens[i]) / micros[i] - 1;
            if (which.test(tokens[i]) && (error < low || error > high)) {
                off.add(tokens[i] + " tokens: " + Math.round(error * 100) + "%");
            }
        }
        return off;
    }

    @Test
    void theDenseProductsNormWouldLeaveAKneeOnBothGpusWhereTheKernelsOwnJoinLeavesNone() {
        // why the experts are joined by a norm of order 1.5: at order 3, as the dense products are, the H100's layer at
        // 256 and 512 tokens and the L40S's at 2,048 and 4,096 come out 20-25% short of what they took
        assertThat(atOrder3(QWEN3_30B_A3B, H100, 256) / 355.49 - 1).isLessThan(-0.18);
        assertThat(atOrder3(QWEN3_30B_A3B, H100, 512) / 391.86 - 1).isLessThan(-0.18);
        assertThat(atOrder3(QWEN35_35B_A3B, L40S, 2048) / 1502.44 - 1).isLessThan(-0.18);
        assertThat(atOrder3(QWEN35_35B_A3B, L40S, 4096) / 1904.68 - 1).isLessThan(-0.18);
    }

    private static double atOrder3(ModelProfile.Experts experts, GpuProfile gpu, long tokens) {
        return StepCostModel.products(read(experts, gpu, true, tokens), compute(experts, gpu, true, tokens)) * 1e6
                + StepCostModel.MOE_LAYER_FLOOR_NANOS / 1e3;
    }

    @Test
    void atEveryBatchAboveSevenTokensTheKernelReadItsExpertsSlowerThanTheDenseLayersReadTheirs() {
        // why the experts have a bandwidth of their own: at the decode bandwidth every batch of 8 to 128 tokens would
        // take 10-13% less than it took
        for (int i = 0; i < TOKENS.length; i++) {
            if (TOKENS[i] >= 8 && TOKENS[i] <= 128) {
                double bytes = QWEN3_30B_A3B.touched(TOKENS[i]) * QWEN3_30B_A3B.parameters();
                double atDecodeBandwidth = bytes / H100.effectiveBandwidth() * 1e6
                        + StepCostModel.MOE_LAYER_FLOOR_NANOS / 1e3;
                assertThat(atDecodeBandwidth / MICROS[i]).as(TOKENS[i] + " tokens").isLessThan(0.91);
            }
        }
    }

    /** The twin's time for one layer of experts, FP8 or 16-bit, at {@code tokens}, us. */
    private static double twinMicros(ModelProfile.Experts experts, GpuProfile gpu, boolean fp8, long tokens) {
        return StepCostModel.fusedMoe(read(experts, gpu, fp8, tokens), compute(experts, gpu, fp8, tokens)) * 1e6
                + StepCostModel.MOE_LAYER_FLOOR_NANOS / 1e3;
    }

    /** The twin's time to read the experts {@code tokens} touch, one byte a weight in FP8, two in 16 bits, s. */
    private static double read(ModelProfile.Experts experts, GpuProfile gpu, boolean fp8, long tokens) {
        return experts.touched(tokens) * experts.parameters() * (fp8 ? 1 : 2) / StepCostModel.expertBandwidth(gpu, fp8);
    }

    /** The twin's time for the experts' products of {@code tokens}, s. */
    private static double compute(ModelProfile.Experts experts, GpuProfile gpu, boolean fp8, long tokens) {
        return 2.0 * tokens * experts.perToken() * experts.parameters() / StepCostModel.expertFlops(gpu, fp8);
    }
}
