package io.servebench.metrics.gpu;

import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NvidiaSmiCsvTest {

    @Test
    void readsEveryLineNvidiaSmiPrintedOnAnH200() {
        List<GpuSample> samples = Recorded.nvidiaSmi();
        // 165 lines: the header and one line per 100 ms sample of the one GPU
        assertThat(samples).hasSize(164);
        // its first line: 2026/12/02 22:50:18.298, 0, GPU-..., 78.94 W, 700.00 W, 0 %, 0 %, 0 MiB, 143771 MiB, 360 MHz,
        // 3201 MHz, 33, 0x0000000000000001
        GpuSample first = samples.get(0);
        assertThat(first.gpu()).isZero();
        assertThat(first.watts()).isEqualTo(78.94);
        assertThat(first.gpuUtilization()).isZero();
        assertThat(first.memoryUsedBytes()).isZero();
        assertThat(first.smClockMhz()).isEqualTo(360);
        assertThat(first.memoryClockMhz()).isEqualTo(3201);
        assertThat(first.temperatureC()).isEqualTo(33);
        assertThat(ClockEventReason.in(first.clockEventReasons())).containsExactly(ClockEventReason.GPU_IDLE);
        assertThat(first.hasEnergyCounter()).as("nvidia-smi shows no energy counter").isFalse();
        assertThat(first.nanos()).isEqualTo(1_796_251_818_298L * 1_000_000);
        // under the 16384² products the board sits at its power cap: 0x4, a reason that throttles
        GpuSample loaded = samples.stream().filter(s -> s.watts() > 600).findFirst().orElseThrow();
        assertThat(loaded.gpuUtilization()).isGreaterThanOrEqualTo(98);
        assertThat(ClockEventReason.in(loaded.clockEventReasons())).containsExactly(ClockEventReason.SW_POWER_CAP);
        assertThat(ClockEventReason.throttled(loaded.clockEventReasons())).isTrue();
        // samples 100 ms apart, as asked (-lms 100)
        assertThat(GpuEnergy.typicalGap(samples) / 1e6).isBetween(95.0, 110.0);
    }

    @Test
    void findsColumnsByNameWhateverTheirOrderAndLeavesWhatADriverLacksUnreported() {
        NvidiaSmiCsv csv = new NvidiaSmiCsv("index, clocks_throttle_reasons.active, power.draw [W], memory.used [MiB], "
                + "utilization.gpu [%]", ZoneOffset.UTC);
        GpuSample s = csv.parse("3, 0x0000000000000020, [N/A], 1024 MiB, 57 %", 42, m -> -1).orElseThrow();
        assertThat(s.gpu()).isEqualTo(3);
        assertThat(s.nanos()).as("no timestamp column: the time it was read").isEqualTo(42);
        assertThat(s.watts()).isNaN();
        assertThat(s.memoryUsedBytes()).isEqualTo(1024.0 * 1024 * 1024);
        assertThat(s.gpuUtilization()).isEqualTo(57);
        assertThat(s.smClockMhz()).isNaN();
        assertThat(ClockEventReason.in(s.clockEventReasons())).containsExactly(ClockEventReason.SW_THERMAL_SLOWDOWN);
        // a message or a repeated header is no sample
        assertThat(csv.parse("index, clocks_throttle_reasons.active, power.draw [W], memory.used [MiB], utilization.gpu [%]",
                0, m -> 0)).isEmpty();
        assertThat(csv.parse("Failed to initialize NVML: Driver/library version mismatch", 0, m -> 0)).isEmpty();
    }

    @Test
    void aFirstLineThatIsNoCsvHeaderIsRefusedNamingIt() {
        assertThatThrownBy(() -> new NvidiaSmiCsv("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                + "driver.", ZoneOffset.UTC))
                .hasMessageContaining("not an nvidia-smi --query-gpu CSV header: \"NVIDIA-SMI has failed")
                .hasMessageContaining("expected columns such as index");
    }

    @Test
    void asksForItsFieldsAsAnArgumentListWithTheGpusChosen() {
        NvidiaSmiSource source = NvidiaSmiSource.probe("/bin/echo").orElseThrow();
        assertThat(source.command(List.of(0, 2), java.time.Duration.ofMillis(100))).containsExactly("/bin/echo",
                "--query-gpu=timestamp,index,power.draw,utilization.gpu,utilization.memory,memory.used,clocks.sm,"
                        + "clocks.mem,temperature.gpu,clocks_throttle_reasons.active",
                "--format=csv", "-lms", "100", "--id=0,2");
    }
}
