package io.servebench.metrics.gpu;

/**
 * One reading of one GPU. A source that does not report a field leaves it {@code NaN} (or {@link #UNKNOWN_REASONS}).
 *
 * @param nanos              when the reading was taken, on the {@link System#nanoTime()} clock (in virtual time, on the
 *                           simulated engine's clock)
 * @param gpu                the GPU's index as the driver numbers it
 * @param watts              board power draw, W
 * @param energyJoules       the driver's energy counter since it was loaded (NVML's total energy consumption, DCGM's
 *                           {@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION}), J; {@code NaN} from {@code nvidia-smi}, which
 *                           does not show it
 * @param gpuUtilization     share of the last sample period in which a kernel ran, %
 * @param memoryUtilization  share of it in which device memory was read or written, %
 * @param memoryUsedBytes    device memory in use, bytes
 * @param smClockMhz         SM clock, MHz
 * @param memoryClockMhz     memory clock, MHz
 * @param temperatureC       GPU temperature, °C
 * @param clockEventReasons  why the clocks are below their maximum, NVML's bit mask ({@link ClockEventReason})
 */
public record GpuSample(long nanos, int gpu, double watts, double energyJoules, double gpuUtilization,
                        double memoryUtilization, double memoryUsedBytes, double smClockMhz, double memoryClockMhz,
                        double temperatureC, long clockEventReasons) {

    /** The clock-event reasons of a source that does not report them. */
    public static final long UNKNOWN_REASONS = -1;

    /** Whether the reading carries the driver's energy counter. */
    public boolean hasEnergyCounter() {
        return !Double.isNaN(energyJoules);
    }
}
