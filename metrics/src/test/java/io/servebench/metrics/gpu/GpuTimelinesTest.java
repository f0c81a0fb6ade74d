package io.servebench.metrics.gpu;

import io.servebench.results.GpuTimeline;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GpuTimelinesTest {

    private static GpuSample sample(long nanos, int gpu, double watts, double util) {
        return new GpuSample(nanos, gpu, watts, Double.NaN, util, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, GpuSample.UNKNOWN_REASONS);
    }

    /** Two GPUs read every 100 ms at 300 W / 90% and 100 W / 30%, requests sent at 8 per second for 10 s. */
    @Test
    void sumsPowerAveragesUtilisationAndCountsSendsPerStep() {
        List<GpuSample> samples = new ArrayList<>();
        for (long t = 50_000_000L; t < 10_000_000_000L; t += 100_000_000L) {
            samples.add(sample(t, 0, 300, 90));
            samples.add(sample(t + 1_000_000L, 1, 100, 30));
        }
        long[] sends = LongStream.range(0, 80).map(i -> i * 125_000_000L).toArray();
        GpuTimeline t = GpuTimelines.of(samples, 0, 10_000_000_000L, sends, Duration.ofMillis(100));
        assertThat(t.stepSeconds()).isEqualTo(0.1);
        assertThat(t.steps()).isEqualTo(100);
        assertThat(t.watts()).allSatisfy(w -> assertThat(w).isEqualTo(400.0));
        assertThat(t.utilization()).allSatisfy(u -> assertThat(u).isEqualTo(60.0));
        // 8 per second in 0.1 s steps: 0 or 1 send each, 80 in all
        assertThat(t.requestRate().stream().mapToDouble(r -> r * 0.1).sum()).isCloseTo(80, within(1e-9));
    }

    @Test
    void aLongWindowTakesFewerNiceStepsAndAMissedReadingIsHeld() {
        List<GpuSample> samples = new ArrayList<>();
        for (long t = 0; t < 100_000_000_000L; t += 100_000_000L) {
            // no reading between 20 and 21.5 s
            if (t < 20_000_000_000L || t >= 21_500_000_000L) {
                samples.add(sample(t, 0, t < 50_000_000_000L ? 200 : 600, Double.NaN));
            }
        }
        long[] sends = LongStream.range(0, 400).map(i -> i * 250_000_000L).toArray();
        GpuTimeline t = GpuTimelines.of(samples, 0, 100_000_000_000L, sends, Duration.ofMillis(100));
        // 100 s / 200 steps = 0.5 s, already a 5 × 10^k ms step
        assertThat(t.stepSeconds()).isEqualTo(0.5);
        assertThat(t.steps()).isEqualTo(200);
        assertThat(t.watts().get(41)).as("20.5-21 s, no reading: held from the step before").isEqualTo(200.0);
        assertThat(t.watts().get(150)).isEqualTo(600.0);
        assertThat(t.utilization()).containsOnlyNulls();
        assertThat(t.requestRate()).allSatisfy(r -> assertThat(r).isEqualTo(4.0));
        assertThat(GpuTimelines.nice(640_000_000L)).isEqualTo(1_000_000_000L);
        assertThat(GpuTimelines.nice(150_000_000L)).isEqualTo(200_000_000L);
    }
}
