package io.servebench.metrics.gpu;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class GpuTelemetryTest {

    @Test
    void aMachineWithoutAnNvidiaDriverRecordsNothingAndSaysWhy() throws Exception {
        assumeFalse(Files.exists(Path.of("/dev/nvidiactl")), "this machine has an NVIDIA driver");
        GpuTelemetry auto = GpuTelemetry.choose("auto");
        assertThat(auto.source()).isEmpty();
        assertThat(auto.absence()).contains("no GPU telemetry: neither NVML nor nvidia-smi answers on this machine");
        assertThat(auto.record(List.of(), Duration.ofMillis(100))).isEmpty();
        assertThatThrownBy(() -> GpuTelemetry.choose("nvml")).hasMessageContaining("--gpu-telemetry nvml: the NVML "
                + "library (libnvidia-ml.so.1) does not load");
    }

    @Test
    void anUnknownChoiceIsRefusedWithTheChoices() {
        assertThatThrownBy(() -> GpuTelemetry.choose("nvsmi")).hasMessage("--gpu-telemetry nvsmi: expected one of auto, "
                + "nvml, nvidia-smi, dcgm, off (dcgm with --gpu-telemetry-url)");
        assertThat(GpuTelemetry.choose("OFF").absence()).contains("GPU telemetry is off (--gpu-telemetry off)");
    }

    /**
     * The nvidia-smi path end to end: a stand-in executable that answers {@code --help-query-gpu} and then prints, as
     * nvidia-smi does, a header and a line every 100 ms (300 W on GPU 0) until it is stopped.
     */
    @Test
    void samplesAnNvidiaSmiProcessUntilStoppedAndStopsIt(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path fake = dir.resolve("nvidia-smi");
        Files.writeString(fake, String.join("\n", "#!/bin/bash",
                "if [ \"$1\" = --help-query-gpu ]; then echo clocks_event_reasons.active; exit 0; fi",
                "echo 'timestamp, index, power.draw [W], utilization.gpu [%], clocks_event_reasons.active'",
                "while true; do echo \"$(TZ=" + java.time.ZoneId.systemDefault().getId()
                        + " date '+%Y/%m/%d %H:%M:%S.%3N'), 0, 300.00 W, 97 %, 0x0000000000000000\"; sleep 0.1; done", ""));
        fake.toFile().setExecutable(true);
        GpuTelemetry smi = GpuTelemetry.nvidiaSmi(fake.toString());
        assertThat(smi.source()).contains("nvidia-smi");
        long from = System.nanoTime();
        GpuTelemetry.Recording r = smi.record(List.of(0), Duration.ofMillis(100)).orElseThrow();
        Thread.sleep(1_500);
        long to = System.nanoTime();
        r.close();
        List<GpuSample> samples = r.samples();
        assertThat(samples).hasSizeBetween(8, 20).allSatisfy(s -> assertThat(s.watts()).isEqualTo(300));
        GpuEnergy e = GpuEnergy.of(samples, from + 300_000_000L, to - 300_000_000L).orElseThrow();
        assertThat(e.joules()).isCloseTo(300 * e.seconds(), org.assertj.core.api.Assertions.within(1e-6));
        assertThat(e.meanUtilization()).isEqualTo(97);
        // stopped: no sample comes after close
        Thread.sleep(300);
        assertThat(r.samples()).hasSameSizeAs(samples);
    }
}
