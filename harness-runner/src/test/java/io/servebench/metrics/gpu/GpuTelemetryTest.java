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
        assertThatThrownBy(() -> GpuTelemetry.choose("dcgm")).hasMessage("--gpu-telemetry dcgm: expected one of auto, nvml, "
                + "nvidia-smi, off");
        assertThat(GpuTelemetry.choose("OFF").absence()).contains("GPU telemetry is off (--gpu-telemetry off)");
    }
}
