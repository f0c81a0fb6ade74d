package io.servebench.metrics.gpu;

import io.servebench.measure.Metric;
import io.servebench.results.RepetitionResult;

import java.util.Locale;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/** A repetition's GPU figures ({@code Metric.GPU_*}, energy per token, cost) from what its GPUs did in its window. */
public final class GpuFigures {

    private GpuFigures() {
    }

    /**
     * {@code measured} with the figures of {@code energy} set, and notes on the source, GPUs that stopped answering and
     * throttling.
     *
     * @param pricePerGpuHour the price of one GPU hour; empty: no cost figure
     */
    public static RepetitionResult with(RepetitionResult measured, GpuEnergy energy, String source,
                                        OptionalDouble pricePerGpuHour) {
        RepetitionResult r = measured.withScalar(Metric.GPU_ENERGY, energy.joules())
                .withScalar(Metric.GPU_POWER_MEAN, energy.meanWatts());
        if (!Double.isNaN(energy.peakWatts())) {
            r = r.withScalar(Metric.GPU_POWER_PEAK, energy.peakWatts());
        }
        if (!Double.isNaN(energy.meanUtilization())) {
            r = r.withScalar(Metric.GPU_UTILIZATION, energy.meanUtilization());
        }
        if (!Double.isNaN(energy.peakMemoryBytes())) {
            r = r.withScalar(Metric.GPU_MEMORY_PEAK, energy.peakMemoryBytes() / (1024.0 * 1024));
        }
        if (!Double.isNaN(energy.throttledSeconds())) {
            r = r.withScalar(Metric.GPU_THROTTLED, energy.throttledSeconds());
        }
        OptionalDouble tokens = measured.value(Metric.TOTAL_OUTPUT_TOKENS);
        if (tokens.isPresent() && tokens.getAsDouble() > 0 && energy.joules() > 0) {
            r = r.withScalar(Metric.ENERGY_PER_OUTPUT_TOKEN, energy.joules() / tokens.getAsDouble())
                    .withScalar(Metric.OUTPUT_TOKENS_PER_JOULE, tokens.getAsDouble() / energy.joules());
            if (pricePerGpuHour.isPresent()) {
                double cost = pricePerGpuHour.getAsDouble() * energy.gpus() * energy.seconds() / 3600;
                r = r.withScalar(Metric.COST_PER_MILLION_OUTPUT_TOKENS, cost / (tokens.getAsDouble() / 1e6));
            }
        }
        OptionalDouble requests = measured.value(Metric.SUCCESSFUL_REQUESTS);
        if (requests.isPresent() && requests.getAsDouble() > 0) {
            r = r.withScalar(Metric.ENERGY_PER_REQUEST, energy.joules() / requests.getAsDouble());
        }
        r = r.withNote(String.format(Locale.ROOT, "GPU telemetry: %s, %d GPU%s, %d samples, energy from %s", source,
                energy.gpus(), energy.gpus() == 1 ? "" : "s", energy.samples(),
                energy.fromCounter() ? "its energy counter" : "power samples integrated"));
        if (!energy.lost().isEmpty()) {
            r = r.withNote("GPU telemetry: " + energy.lost().entrySet().stream()
                    .map(e -> String.format(Locale.ROOT, "GPU %d stopped answering %.1f s into the window", e.getKey(),
                            e.getValue()))
                    .collect(Collectors.joining("; ")) + "; its energy counts until then");
        }
        if (energy.throttledSeconds() > 0) {
            r = r.withNote(String.format(Locale.ROOT, "GPU throttled for %.1f s of %.1f s: %s", energy.throttledSeconds(),
                    energy.seconds(), energy.throttleReasons().stream().map(ClockEventReason::label)
                            .collect(Collectors.joining(", "))));
        }
        return r;
    }

    /**
     * The samples as CSV: one line per sample, times in ms from {@code originNanos} and, for samples on the machine's
     * own clock ({@code wallClock}), as ms since the epoch, to line them up with other tools' logs.
     */
    public static String csv(Iterable<GpuSample> samples, long originNanos, boolean wallClock) {
        double epochMsAtNanoZero = System.currentTimeMillis() - System.nanoTime() / 1e6;
        StringBuilder b = new StringBuilder("time_ms,epoch_ms,gpu,watts,energy_j,gpu_util_pct,mem_util_pct,mem_used_mib,"
                + "sm_mhz,mem_mhz,temp_c,clock_event_reasons\n");
        for (GpuSample s : samples) {
            b.append(String.format(Locale.ROOT, "%.1f,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s%n", (s.nanos() - originNanos) / 1e6,
                    wallClock ? String.format(Locale.ROOT, "%.0f", epochMsAtNanoZero + s.nanos() / 1e6) : "",
                    s.gpu(), num(s.watts()), num(s.energyJoules()), num(s.gpuUtilization()), num(s.memoryUtilization()),
                    num(s.memoryUsedBytes() / (1024.0 * 1024)), num(s.smClockMhz()), num(s.memoryClockMhz()),
                    num(s.temperatureC()), s.clockEventReasons() == GpuSample.UNKNOWN_REASONS ? ""
                            : "0x" + Long.toHexString(s.clockEventReasons())));
        }
        return b.toString();
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }
}
