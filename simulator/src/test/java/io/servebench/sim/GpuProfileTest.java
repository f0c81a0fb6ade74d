package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class GpuProfileTest {

    private static final double GIB = 1024.0 * 1024 * 1024;

    @Test
    void theCatalogueHoldsTheDatasheetFiguresByIdAnyCase() {
        assertThat(GpuProfile.catalogue()).containsOnlyKeys("h100", "h100-pcie", "h200", "h20", "a100", "l40s", "b200");
        GpuProfile h200 = GpuProfile.named(" H200 ");
        // as PyTorch reported it on the device's H200 (2026-12-05): total_memory 150109880320
        assertThat(h200.memoryBytes()).isEqualTo(150_109_880_320.0);
        assertThat(h200.hbmBytesPerSecond()).isEqualTo(4.8e12);
        assertThat(h200.peakFlops()).isEqualTo(989e12);
        assertThat(GpuProfile.named("h100")).isEqualTo(GpuProfile.h100Sxm80gb());
        assertThat(GpuProfile.named("l40s").hbmBytesPerSecond()).isEqualTo(0.864e12);
        assertThat(GpuProfile.named("b200").peakFlops()).isEqualTo(2.25e15);
        // the H20: H100's memory system grown to 96 GB at 4.0 TB/s, its bf16 compute cut to 148 TFLOP/s
        assertThat(GpuProfile.named("h20").peakFlops()).isEqualTo(148e12);
        assertThat(GpuProfile.named("h20").hbmBytesPerSecond()).isEqualTo(4.0e12);
        // what vLLM and SGLang choose kernels by
        assertThat(GpuProfile.named("a100").computeCapability()).isEqualTo(80);
        assertThat(GpuProfile.named("l40s").computeCapability()).isEqualTo(89);
        assertThat(GpuProfile.named("h100").computeCapability()).isEqualTo(90);
        assertThat(GpuProfile.named("b200").computeCapability()).isEqualTo(100);
        // memory as CUDA reports it: vLLM's own logs on H100s print "total_gpu_memory (79.11GiB)" to "(79.25GiB)"
        assertThat(GpuProfile.named("h100").memoryBytes() / GIB).isBetween(79.11, 79.25);
    }

    @Test
    void anUnknownIdIsNamedWithTheKnownOnes() {
        assertThatThrownBy(() -> GpuProfile.named("h900")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown GPU \"h900\"; expected one of h100, h100-pcie, h200, h20, a100, l40s, b200");
    }

    @Test
    void aDecodeStepOnAnH200SavesTheWeightAndStateReadsAtItsBandwidth() {
        SimParams h100 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of());
        SimParams h200 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of(), GpuProfile.named("h200"));
        assertThat(h200.gpu().name()).isEqualTo("NVIDIA H200 141GB HBM3e");

        // one sequence decoding one token with no context: the weights (9e9 x 2 B) are read once, at the products' 92%
        // of each GPU's bandwidth; one sequence's recurrent state (1.5 MB a layer) is read within each layer's
        // attention kernel's floor, and the products' fixed times and the host overheads are the same on both
        double bytes = 9e9 * 2;
        double savedNs = (bytes / (3.35e12 * 0.92) - bytes / (4.8e12 * 0.92)) * 1e9;
        long onH100 = new StepCostModel(h100).stepNanos(1, 0, 1, 0, 0);
        long onH200 = new StepCostModel(h200).stepNanos(1, 0, 1, 0, 0);
        assertThat((double) (onH100 - onH200)).isCloseTo(savedNs, within(2.0));
    }
}
