package io.servebench.engine;

import io.servebench.results.ServerEnvironment;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EnvironmentCaptureTest {

    @Test
    void theVersionIsTheCommandsLastLineAndTheMachineIsDescribed() {
        ServerEnvironment e = EnvironmentCapture.capture("s01-vllm-abc", "vllm", "m", "vllm serve m --api-key ***",
                List.of("bash", "-c", "echo 'WARNING: something noisy' >&1; echo 0.17.1"), null, null, "0.1.0");
        assertThat(e.engineVersion()).isEqualTo("0.17.1");
        assertThat(e.command()).isEqualTo("vllm serve m --api-key ***");
        assertThat(e.cpu()).contains("logical cores");
        assertThat(e.os()).contains(System.getProperty("os.name"));
        assertThat(e.jdk()).contains(System.getProperty("java.version"));
        assertThat(e.servebenchVersion()).isEqualTo("0.1.0");
        assertThat(e.startedAt()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    }

    @Test
    void aProbeThatFailsLeavesItsFieldEmptyAndNeverFailsTheRun() {
        ServerEnvironment e = EnvironmentCapture.capture("s02", "sglang", "m", "", List.of("no-such-program-xyz", "--version"),
                null, null, "0.1.0");
        assertThat(e.engineVersion()).isEmpty();
        assertThat(EnvironmentCapture.run(List.of("bash", "-c", "exit 4"))).isEmpty();
    }
}
