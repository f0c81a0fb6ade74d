package io.servebench.sim;

/**
 * What the timing model needs to know about one GPU. Efficiencies turn datasheet peaks into what
 * inference kernels reach in practice.
 *
 * @param name                 a label for logs, e.g. {@code NVIDIA H100 80GB HBM3}
 * @param memoryBytes          device memory in bytes
 * @param hbmBytesPerSecond    peak memory bandwidth in bytes/s
 * @param peakFlops            peak dense FLOP/s at the model's precision
 * @param bandwidthEfficiency  fraction of peak bandwidth reached by decode kernels, in (0, 1]
 * @param computeEfficiency    fraction of peak FLOP/s reached by prefill GEMMs, in (0, 1]
 */
public record GpuProfile(
        String name,
        double memoryBytes,
        double hbmBytesPerSecond,
        double peakFlops,
        double bandwidthEfficiency,
        double computeEfficiency) {

    public GpuProfile {
        if (!(memoryBytes > 0) || !(hbmBytesPerSecond > 0) || !(peakFlops > 0)) {
            throw new IllegalArgumentException("memoryBytes, hbmBytesPerSecond and peakFlops must be > 0, got "
                    + memoryBytes + ", " + hbmBytesPerSecond + ", " + peakFlops);
        }
        if (!(bandwidthEfficiency > 0 && bandwidthEfficiency <= 1) || !(computeEfficiency > 0 && computeEfficiency <= 1)) {
            throw new IllegalArgumentException("efficiencies must be in (0, 1], got bandwidth " + bandwidthEfficiency
                    + ", compute " + computeEfficiency);
        }
    }

    /**
     * An NVIDIA H100 80GB HBM3 (SXM): 80 GiB, 3.35e12 B/s, 989e12 dense bf16 FLOP/s; 85% of the bandwidth
     * and 60% of the FLOP/s in practice.
     */
    public static GpuProfile h100Sxm80gb() {
        return new GpuProfile("NVIDIA H100 80GB HBM3", 80.0 * 1024 * 1024 * 1024, 3.35e12, 989e12, 0.85, 0.60);
    }

    /** Bandwidth reached in practice, bytes/s. */
    public double effectiveBandwidth() {
        return hbmBytesPerSecond * bandwidthEfficiency;
    }

    /** FLOP/s reached in practice. */
    public double effectiveFlops() {
        return peakFlops * computeEfficiency;
    }
}
