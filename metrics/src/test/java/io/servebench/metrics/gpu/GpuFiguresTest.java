package io.servebench.metrics.gpu;

import io.servebench.measure.Metric;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Map;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GpuFiguresTest {

    @Test
    void energyPerTokenTokensPerJouleAndCostPerMillionTokensFollowFromTheWindow() {
        RepetitionResult measured = new RepetitionResult(Map.of(Metric.TOTAL_OUTPUT_TOKENS.id(), 2_000_000.0,
                Metric.SUCCESSFUL_REQUESTS.id(), 1_000.0), Map.of(), 0, 0, Map.of(), Map.of());
        // two GPUs for an hour at 450 W together: 1.62 MJ
        GpuEnergy energy = new GpuEnergy(2, 3600, 1_620_000, true, 450, 400, 80, 60e9, 12,
                EnumSet.of(ClockEventReason.SW_POWER_CAP), 72_000, Map.of());
        RepetitionResult r = GpuFigures.with(measured, energy, "NVML", OptionalDouble.of(2.50));
        assertThat(r.value(Metric.GPU_ENERGY)).hasValue(1_620_000);
        assertThat(r.value(Metric.ENERGY_PER_OUTPUT_TOKEN).getAsDouble()).isCloseTo(0.81, within(1e-12));
        assertThat(r.value(Metric.OUTPUT_TOKENS_PER_JOULE).getAsDouble()).isCloseTo(1 / 0.81, within(1e-12));
        assertThat(r.value(Metric.ENERGY_PER_REQUEST).getAsDouble()).isCloseTo(1_620, within(1e-9));
        // 2 GPU hours at 2.50 for 2 million tokens: 2.50 per million
        assertThat(r.value(Metric.COST_PER_MILLION_OUTPUT_TOKENS).getAsDouble()).isCloseTo(2.50, within(1e-12));
        assertThat(r.value(Metric.GPU_MEMORY_PEAK).getAsDouble()).isCloseTo(60e9 / 1048576, within(1e-6));
        assertThat(r.value(Metric.GPU_THROTTLED)).hasValue(12);
        assertThat(r.notes()).anyMatch(n -> n.equals("GPU telemetry: NVML, 2 GPUs, 72000 samples, energy from its energy"
                + " counter")).anyMatch(n -> n.equals("GPU throttled for 12.0 s of 3600.0 s: power cap"));
        assertThat(GpuFigures.with(measured, energy, "NVML", OptionalDouble.empty())
                .value(Metric.COST_PER_MILLION_OUTPUT_TOKENS)).isEmpty();
    }
}
