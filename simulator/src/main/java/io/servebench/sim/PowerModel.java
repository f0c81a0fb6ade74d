package io.servebench.sim;

/**
 * The board power of a simulated GPU during a step, from how the step used it ({@link StepCostModel.Step}):
 * <pre>
 *   watts = idle + (board - idle) * min(1, COMPUTE_ACTIVITY * computeShare + MEMORY_ACTIVITY * memoryShare)
 * </pre>
 * where the shares are the parts of the step the GPU computed at its FLOP/s limit and streamed memory; the rest it
 * waited on the host at idle power. The constants are measured on the device machine's H200 (700 W board) by
 * {@code scripts/gpu-telemetry/power_phases.py}, each phase's energy from NVML's counter over 6 s
 * ({@code simulator/src/test/resources/power/h200-power-phases.txt}): a context holding memory with no kernel 121.9 W;
 * bf16 matrix-vector products streaming 470 MiB of weights at 4.1 TB/s (a decode step) 624.0 W; 8192³ bf16 matrix
 * products at 660 TFLOP/s (a prefill) 693.8 W. Other GPUs are taken to idle at the same share of their power limit and
 * to rise the same way toward it: an assumption, not a measurement.
 *
 * @param idleWatts  power with an engine loaded and no kernel running, W
 * @param boardWatts the power limit, W
 */
public record PowerModel(double idleWatts, double boardWatts) {

    /** Idle power over the power limit: 121.9 W of 700 W on the H200. */
    public static final double IDLE_SHARE = 121.9 / 700;
    /** How far toward the limit a compute-bound kernel draws: (693.8 - 121.9) / (700 - 121.9). */
    public static final double COMPUTE_ACTIVITY = (693.8 - 121.9) / (700 - 121.9);
    /** How far a memory-bound kernel draws: (624.0 - 121.9) / (700 - 121.9). */
    public static final double MEMORY_ACTIVITY = (624.0 - 121.9) / (700 - 121.9);

    public PowerModel {
        if (!(idleWatts > 0) || !(boardWatts >= idleWatts)) {
            throw new IllegalArgumentException("expected 0 < idle <= board watts, got " + idleWatts + ", " + boardWatts);
        }
    }

    /** The model of {@code gpu}: its power limit, and idle at {@link #IDLE_SHARE} of it. */
    public static PowerModel of(GpuProfile gpu) {
        return new PowerModel(gpu.boardWatts() * IDLE_SHARE, gpu.boardWatts());
    }

    /**
     * One GPU's mean power over a span of which it computed {@code computeShare} and streamed memory
     * {@code memoryShare} (each in [0, 1], together at most 1), W.
     */
    public double watts(double computeShare, double memoryShare) {
        double activity = Math.min(1, COMPUTE_ACTIVITY * computeShare + MEMORY_ACTIVITY * memoryShare);
        return idleWatts + (boardWatts - idleWatts) * activity;
    }
}
