package io.servebench.sim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the timing model needs to know about one GPU. Efficiencies turn datasheet peaks into what
 * inference kernels reach in practice.
 *
 * @param name                 a label for logs, e.g. {@code NVIDIA H100 80GB HBM3}
 * @param memoryBytes          device memory in bytes
 * @param hbmBytesPerSecond    peak memory bandwidth in bytes/s
 * @param peakFlops            peak dense FLOP/s at the model's precision
 * @param bandwidthEfficiency  fraction of peak bandwidth reached by decode kernels, in (0, 1]
 * @param computeEfficiency    fraction of peak bf16 FLOP/s the dense layers' matrix products reach at prefill's
 *                             thousands of rows, in (0, 1]
 * @param interconnectBytesPerSecond GPU-to-GPU bandwidth in one direction, bytes/s: what a tensor-parallel
 *                             all-reduce moves data over (NVLink, or PCIe where a GPU has none)
 * @param peakFp8Flops         peak dense FP8 FLOP/s, 0 for a GPU without FP8 tensor cores (the A100: FP8 weights run
 *                             there as weight-only, computing in bf16)
 * @param boardWatts           the board's power limit (its TDP), W: what {@link PowerModel} rises to under full load
 * @param computeCapability    CUDA's compute capability, major x 10 + minor (90 for Hopper): what engines choose kernels by
 */
public record GpuProfile(
        String name,
        double memoryBytes,
        double hbmBytesPerSecond,
        double peakFlops,
        double bandwidthEfficiency,
        double computeEfficiency,
        double interconnectBytesPerSecond,
        double peakFp8Flops,
        double boardWatts,
        int computeCapability) {

    /** A GPU without FP8 tensor cores, of an H100's power limit (700 W) and compute capability (9.0). */
    public GpuProfile(String name, double memoryBytes, double hbmBytesPerSecond, double peakFlops,
                      double bandwidthEfficiency, double computeEfficiency, double interconnectBytesPerSecond) {
        this(name, memoryBytes, hbmBytesPerSecond, peakFlops, bandwidthEfficiency, computeEfficiency,
                interconnectBytesPerSecond, 0, H100_WATTS, HOPPER);
    }

    /** A GPU of an H100's power limit (700 W) and compute capability (9.0). */
    public GpuProfile(String name, double memoryBytes, double hbmBytesPerSecond, double peakFlops,
                      double bandwidthEfficiency, double computeEfficiency, double interconnectBytesPerSecond,
                      double peakFp8Flops) {
        this(name, memoryBytes, hbmBytesPerSecond, peakFlops, bandwidthEfficiency, computeEfficiency,
                interconnectBytesPerSecond, peakFp8Flops, H100_WATTS, HOPPER);
    }

    public GpuProfile {
        if (!(boardWatts > 0)) {
            throw new IllegalArgumentException("boardWatts must be > 0, got " + boardWatts);
        }
        if (peakFp8Flops < 0) {
            throw new IllegalArgumentException("peakFp8Flops must be >= 0, got " + peakFp8Flops);
        }
        if (!(memoryBytes > 0) || !(hbmBytesPerSecond > 0) || !(peakFlops > 0)) {
            throw new IllegalArgumentException("memoryBytes, hbmBytesPerSecond and peakFlops must be > 0, got "
                    + memoryBytes + ", " + hbmBytesPerSecond + ", " + peakFlops);
        }
        if (computeCapability < 10) {
            throw new IllegalArgumentException("computeCapability is major x 10 + minor, e.g. 90, got " + computeCapability);
        }
        if (!(interconnectBytesPerSecond > 0)) {
            throw new IllegalArgumentException("interconnectBytesPerSecond must be > 0, got " + interconnectBytesPerSecond);
        }
        if (!(bandwidthEfficiency > 0 && bandwidthEfficiency <= 1) || !(computeEfficiency > 0 && computeEfficiency <= 1)) {
            throw new IllegalArgumentException("efficiencies must be in (0, 1], got bandwidth " + bandwidthEfficiency
                    + ", compute " + computeEfficiency);
        }
    }

    private static final double MIB = 1024.0 * 1024;
    /** The H100 SXM's and H200 SXM's power limit, W (their datasheets; the device's H200 reports power.limit 700.00 W). */
    private static final double H100_WATTS = 700;
    /** Hopper's compute capability, 9.0 (H100, H200, H20); the A100's is 8.0, the L40S's 8.9, the B200's 10.0. */
    private static final int HOPPER = 90;
    /** Ada's compute capability, 8.9 (the L40S). */
    private static final int ADA = 89;
    /** Decode bandwidth reached in practice, as on the H100; not yet calibrated for the other GPUs. */
    private static final double BANDWIDTH_EFFICIENCY = 0.85;
    /** Prefill FLOP/s reached in practice by a GPU whose matrix products were not measured: an assumption. */
    private static final double COMPUTE_EFFICIENCY = 0.60;
    /**
     * The fraction of the bf16 peak that the dense layers' matrix products reach at prefill's rows on an H100 SXM,
     * measured on the device's H100 80GB HBM3 ({@code scripts/kernels/sweep.py}: cuBLAS through PyTorch 2.11 and CUDA
     * 13.0, replayed from CUDA graphs; Qwen3-8B, -14B, -32B and Llama-3.1-70B at TP 4 one layer's four products at
     * 1,024 to 16,384 rows: 663 to 704 TFLOP/s, median 684, with the board at its 700 W limit and its clock at 1.3-1.4
     * GHz). Taken for the H200 too, the same GH100 chip at the same power limit (its 8192-cubed product measured 660
     * TFLOP/s on the device's H200, {@code power_phases.py}).
     */
    private static final double HOPPER_SXM_COMPUTE_EFFICIENCY = 0.69;
    /**
     * The fraction of the FP8 peak that W8A8 matrix products reach, on every GPU with FP8 tensor cores: measured on
     * the device's H100 at Qwen3-14B's and Qwen3-32B's layers, 1,024 to 16,384 rows, through {@code torch._scaled_mm}:
     * 1,062-1,179 TFLOP/s (0.56 of 1,979) with a scale per token and per output channel (vLLM's dynamic FP8), 1,169-1,245
     * (0.61) with one scale per tensor.
     */
    private static final double FP8_COMPUTE_EFFICIENCY = 0.60;
    /**
     * The fraction of the bf16 peak that prefill attention's products reach, on every GPU: measured on the device's H100
     * with Qwen3-14B's heads (40 query, 8 KV, of 128), causal, through cuDNN's fused attention, a Hopper kernel of
     * FlashAttention 3's kind (vLLM's on Hopper): 595-596 TFLOP/s at 16,384 and 32,768 tokens, 513 at 4,096, 316 at
     * 1,024 (FlashAttention 2: 330-338 at the longest).
     */
    private static final double ATTENTION_EFFICIENCY = 0.60;

    /** NVLink 4 (H100 and H200 SXM): 900 GB/s per GPU both ways together, so 450e9 B/s in one direction. */
    private static final double NVLINK4 = 450e9;

    /**
     * An NVIDIA H100 80GB HBM3 (SXM): 81,089 MiB as CUDA reports it ({@link #catalogue()}), 3.35e12 B/s, 989e12 dense
     * bf16 FLOP/s, NVLink 4 (NVIDIA H100 Tensor Core GPU datasheet); 85% of the bandwidth and 69% of the FLOP/s in
     * practice, as measured on the device's H100.
     */
    public static GpuProfile h100Sxm80gb() {
        return new GpuProfile("NVIDIA H100 80GB HBM3", 81_089 * MIB, 3.35e12, 989e12, BANDWIDTH_EFFICIENCY,
                HOPPER_SXM_COMPUTE_EFFICIENCY,
                NVLINK4, 1979e12, H100_WATTS, HOPPER);
    }

    /**
     * The GPUs the simulated engine knows, by the id {@link #named} takes. Memory is what CUDA reports as the device's
     * total ({@code torch.cuda.get_device_properties(0).total_memory}, printed in MiB), the figure vLLM multiplies by
     * {@code --gpu-memory-utilization} and SGLang by {@code --mem-fraction-static}, not the nominal size: an H100 SXM's
     * "80GB" is 81,089 MiB (79.19 GiB; vLLM's own logs on H100s print "total_gpu_memory (79.11GiB)" to "(79.25GiB)"),
     * the H100 PCIe's 81,008, the H200's 143,156 (150,109,880,320 bytes, measured on this project's device H200 with
     * {@code torch.cuda.get_device_properties}; {@code nvidia-smi} there says 143,771 MiB), the H20's 97,285, the A100
     * 80GB SXM's 81,251, the L40S's 45,589 and the B200's 182,631 MiB, each as PyTorch's {@code _CudaDeviceProperties(..., total_memory=...MB)} or {@code
     * nvidia-smi} printed it in public logs (found by exact-string search of public code; the B200's other print says
     * 182,642). Bandwidth and dense bf16 FLOP/s (without
     * sparsity), and dense FP8 where the GPU has it (H100 and H200 1,979, H20 296, L40S 733 TFLOP/s, B200 4.5 PFLOP/s;
     * the A100 has none), are the datasheets': NVIDIA H100 Tensor Core GPU, H200 Tensor Core GPU, H20 (96 GB, 4.0 TB/s, 148 TFLOP/s
     * bf16, NVLink 4: the export part, its compute a sixth of the H100's), A100 Tensor Core GPU
     * (80GB SXM), L40S and DGX B200 (per GPU: a DGX B200's 8 GPUs give 72 PFLOP/s of sparse FP8, so 2.25e15
     * dense bf16 each). The H100 PCIe is the same datasheet's other column: 80 GB of HBM2e at 2 TB/s, 756 TFLOP/s
     * dense bf16 and 1,513 FP8 (half its "with sparsity" figures), a 300–350 W board (350 taken). The interconnect is
     * half the datasheet's bidirectional figure: NVLink 4 900 GB/s (H100 SXM, H200), NVLink 3 600 GB/s (A100), NVLink 5
     * 1.8 TB/s (B200); the L40S has no NVLink and talks over PCIe Gen4 x16, 64 GB/s; the H100 PCIe over PCIe Gen5 x16,
     * 128 GB/s (its NVLink bridge joins pairs only, and a server may have none). Power limits, the same datasheets': 700 W
     * (H100 SXM, H200 SXM), 400 W (H20, A100 SXM), 350 W (L40S, H100 PCIe), 1,000 W (B200).
     */
    public static Map<String, GpuProfile> catalogue() {
        return CATALOGUE;
    }

    private static final Map<String, GpuProfile> CATALOGUE = buildCatalogue();

    private static Map<String, GpuProfile> buildCatalogue() {
        Map<String, GpuProfile> all = new LinkedHashMap<>();
        all.put("h100", h100Sxm80gb());
        all.put("h100-pcie", new GpuProfile("NVIDIA H100 PCIe 80GB HBM2e", 81_008 * MIB, 2.0e12, 756e12,
                BANDWIDTH_EFFICIENCY, COMPUTE_EFFICIENCY, 64e9, 1513e12, 350, HOPPER));
        all.put("h200", new GpuProfile("NVIDIA H200 141GB HBM3e", 150_109_880_320.0, 4.8e12, 989e12, BANDWIDTH_EFFICIENCY,
                HOPPER_SXM_COMPUTE_EFFICIENCY, NVLINK4, 1979e12, H100_WATTS, HOPPER));
        all.put("h20", new GpuProfile("NVIDIA H20 96GB HBM3", 97_285 * MIB, 4.0e12, 148e12, BANDWIDTH_EFFICIENCY,
                COMPUTE_EFFICIENCY, NVLINK4, 296e12, 400, HOPPER));
        all.put("a100", new GpuProfile("NVIDIA A100 80GB HBM2e (SXM)", 81_251 * MIB, 2.039e12, 312e12,
                BANDWIDTH_EFFICIENCY, COMPUTE_EFFICIENCY, 300e9, 0, 400, 80));
        all.put("l40s", new GpuProfile("NVIDIA L40S 48GB GDDR6", 45_589 * MIB, 0.864e12, 362e12, BANDWIDTH_EFFICIENCY,
                COMPUTE_EFFICIENCY, 32e9, 733e12, 350, 89));
        all.put("b200", new GpuProfile("NVIDIA B200 180GB HBM3e", 182_631 * MIB, 8.0e12, 2.25e15, BANDWIDTH_EFFICIENCY,
                COMPUTE_EFFICIENCY, 900e9, 4.5e15, 1000, 100));
        return Collections.unmodifiableMap(all);
    }

    /**
     * The GPU of {@link #catalogue()} with this id, any case.
     *
     * @throws IllegalArgumentException naming the id and the known ones
     */
    public static GpuProfile named(String id) {
        GpuProfile gpu = id == null ? null : catalogue().get(id.strip().toLowerCase(Locale.ROOT));
        if (gpu == null) {
            throw new IllegalArgumentException("unknown GPU \"" + id + "\"; expected one of "
                    + String.join(", ", catalogue().keySet()));
        }
        return gpu;
    }

    /** Whether this is a Hopper GPU (H100, H200, H20), whose kernels the engines choose apart from other GPUs'. */
    boolean hopper() {
        return computeCapability == HOPPER;
    }

    /** Whether this is an Ada GPU (the L40S). */
    boolean ada() {
        return computeCapability == ADA;
    }

    /** Bandwidth reached in practice, bytes/s. */
    public double effectiveBandwidth() {
        return hbmBytesPerSecond * bandwidthEfficiency;
    }

    /**
     * FLOP/s reached in practice with FP8 weights and activations: the FP8 tensor cores' where the GPU has them, else
     * bf16's ({@link #effectiveFlops()}), as FP8 weights are then widened to bf16 for the matrix products.
     */
    public double effectiveFp8Flops() {
        return peakFp8Flops > 0 ? peakFp8Flops * FP8_COMPUTE_EFFICIENCY : effectiveFlops();
    }

    /**
     * Whether the GPU has FP4 tensor cores that both engines run NVFP4 products on ({@link LowBitWeights#NVFP4}):
     * datacenter Blackwell's, compute capability 10.x (the B200), where vLLM's CUTLASS and FlashInfer NVFP4 kernels run
     * and SGLang's {@code is_blackwell_supported} holds; every other GPU of the catalogue runs NVFP4 weight-only in
     * Marlin.
     */
    public boolean fp4TensorCores() {
        return computeCapability / 10 == 10;
    }

    /**
     * FLOP/s reached in practice by NVFP4 products on FP4 tensor cores ({@link #fp4TensorCores()}): {@link
     * #peakFp4Flops()} at FP8's efficiency ({@link #FP8_COMPUTE_EFFICIENCY}), an assumption: no FP4 product was measured
     * (the device's GPUs are Hopper's). Weight-only in 16 bits ({@link #effectiveFlops()}) on other GPUs.
     */
    public double effectiveFp4Flops() {
        return fp4TensorCores() ? peakFp4Flops() * FP8_COMPUTE_EFFICIENCY : effectiveFlops();
    }

    /**
     * Peak dense FP4 FLOP/s, 0 without FP4 tensor cores ({@link #fp4TensorCores()}): twice the FP8 peak, the DGX B200
     * datasheet's ratio (144 PFLOP/s of FP4 beside 72 of FP8 for its 8 GPUs, both with sparsity).
     */
    public double peakFp4Flops() {
        return fp4TensorCores() ? 2 * peakFp8Flops : 0;
    }

    /** FLOP/s reached in practice by prefill attention's 16-bit products. */
    public double effectiveAttentionFlops() {
        return peakFlops * ATTENTION_EFFICIENCY;
    }

    /** FLOP/s reached in practice. */
    public double effectiveFlops() {
        return peakFlops * computeEfficiency;
    }
}
