package io.servebench.metrics.gpu;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class GpuEnergyTest {

    private static final long MS = 1_000_000;

    /** A sample of GPU {@code gpu} at {@code ms} drawing {@code watts}, with the counter at {@code joules}. */
    private static GpuSample at(int gpu, long ms, double watts, double joules, long reasons) {
        return new GpuSample(ms * MS, gpu, watts, joules, 50, 10, 1e9, 1500, 3000, 50, reasons);
    }

    @Test
    void energyIsTheDriversCounterWhereTheSourceReadsIt() {
        List<GpuSample> nvml = Recorded.nvml();
        GpuSample first = nvml.get(0);
        GpuSample last = nvml.get(nvml.size() - 1);
        GpuEnergy e = GpuEnergy.of(nvml, first.nanos(), last.nanos()).orElseThrow();
        // the recorded counter went from 2,252,799 mJ to 7,639,961 mJ
        assertThat(e.joules()).isCloseTo(7_639.961 - 2_252.799, within(1e-6));
        assertThat(e.fromCounter()).isTrue();
        assertThat(e.samples()).isEqualTo(nvml.size());
        assertThat(e.peakWatts()).isGreaterThan(600).isLessThanOrEqualTo(700);
        // the products ran at the power cap: the board says so with reason 0x4 for about 7 s of the 16.6
        assertThat(e.throttleReasons()).containsExactly(ClockEventReason.SW_POWER_CAP);
        assertThat(e.throttledSeconds()).isBetween(6.0, 8.0);
        assertThat(e.peakMemoryBytes()).isEqualTo(2_470_313_984.0);
    }

    @Test
    void powerIntegratedFromTheSamplesAgreesWithTheCounterOnTheRecordedLoad() {
        List<GpuSample> nvml = Recorded.nvml();
        long from = nvml.get(0).nanos();
        long to = nvml.get(nvml.size() - 1).nanos();
        double counter = GpuEnergy.of(nvml, from, to).orElseThrow().joules();
        // the same NVML readings without their counter: the trapezoid over 147 power samples ~113 ms apart
        List<GpuSample> powerOnly = nvml.stream().map(s -> new GpuSample(s.nanos(), s.gpu(), s.watts(), Double.NaN,
                s.gpuUtilization(), s.memoryUtilization(), s.memoryUsedBytes(), s.smClockMhz(), s.memoryClockMhz(),
                s.temperatureC(), s.clockEventReasons())).toList();
        GpuEnergy integrated = GpuEnergy.of(powerOnly, from, to).orElseThrow();
        assertThat(integrated.fromCounter()).isFalse();
        assertThat(integrated.joules() / counter - 1).isCloseTo(0, within(0.01));
        // and nvidia-smi's own readings, taken at the same time by another process, over the same window
        GpuEnergy smi = GpuEnergy.of(Recorded.nvidiaSmi(), from, to).orElseThrow();
        assertThat(smi.joules() / counter - 1).isCloseTo(0, within(0.02));
    }

    @Test
    void aCounterThatRunsBackwardsIsBridgedByThePowerAroundTheJump() {
        List<GpuSample> s = new ArrayList<>();
        // 200 W for 2 s, sampled every 100 ms; the counter (driver reloaded) restarts from 0 at 1 s
        for (int i = 0; i <= 20; i++) {
            double counter = i < 10 ? 5_000 + 20.0 * i : 20.0 * (i - 10);
            s.add(at(0, 100L * i, 200, counter, 0));
        }
        GpuEnergy e = GpuEnergy.of(s, 0, 2_000 * MS).orElseThrow();
        assertThat(e.joules()).isCloseTo(400, within(1e-9));
        assertThat(e.meanWatts()).isCloseTo(200, within(1e-9));
    }

    @Test
    void aWindowCutBetweenSamplesTakesItsShareOfTheirEnergy() {
        // 100 W then 300 W: the counter says 20 J over the 100 ms between them
        List<GpuSample> s = List.of(at(0, 0, 100, 0, 0), at(0, 100, 300, 20, 0));
        assertThat(GpuEnergy.of(s, 25 * MS, 75 * MS)).as("no sample inside the window").isEmpty();
        GpuEnergy half = GpuEnergy.of(List.of(at(0, 0, 100, 0, 0), at(0, 50, 200, 10, 0), at(0, 100, 300, 20, 0)),
                25 * MS, 100 * MS).orElseThrow();
        assertThat(half.joules()).isCloseTo(5 + 10, within(1e-9));
    }

    @Test
    void aGpuThatStopsAnsweringCountsUntilItsLastReadingAndIsNamed() {
        List<GpuSample> s = new ArrayList<>();
        for (int i = 0; i <= 20; i++) {
            s.add(at(0, 100L * i, 100, Double.NaN, 0));
            if (i <= 5) {
                s.add(at(1, 100L * i, 300, Double.NaN, 0));
            }
        }
        GpuEnergy e = GpuEnergy.of(s, 0, 2_000 * MS).orElseThrow();
        assertThat(e.gpus()).isEqualTo(2);
        // GPU 0: 100 W x 2 s; GPU 1: 300 W from 0 to its last reading at 0.5 s and one sample period past it
        assertThat(e.joules()).isCloseTo(200 + 300 * 0.6, within(1e-9));
        assertThat(e.lost()).containsOnlyKeys(1);
        assertThat(e.lost().get(1)).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void noSampleInTheWindowIsNoFigureAndABackwardWindowIsRefused() {
        assertThat(GpuEnergy.of(List.of(), 0, MS)).isEmpty();
        assertThat(GpuEnergy.of(List.of(at(0, 5_000, 100, 0, 0)), 0, MS)).isEmpty();
        assertThatThrownBy(() -> GpuEnergy.of(List.of(), MS, 0)).hasMessageContaining("ends after it starts");
    }
}
