package io.servebench.execution;

import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.ServerConfig;
import io.servebench.metrics.gpu.TelemetryParams;
import io.servebench.flags.Flag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

class EngineGpusTest {

    private final List<String> why = new ArrayList<>();

    private Optional<EngineGpus> of(ServerConfig server, TelemetryParams telemetry, Map<String, String> env) {
        return EngineGpus.of(server, telemetry, env, why::add);
    }

    private static ServerConfig server(EngineKind kind, EngineSetup setup, String... flags) {
        return new ServerConfig(kind, "m", Arrays.stream(flags).map(f -> Flag.parse(f).orElseThrow()).toList(), setup);
    }

    private static EngineSetup env(String... entries) {
        return new EngineSetup("", List.of(entries), "", List.of(), "", "");
    }

    private static EngineSetup url(String url) {
        return new EngineSetup("", List.of(), "", List.of(), url, "");
    }

    @Test
    void vllmAndSglangTakeTheirFirstTensorParallelGpus() {
        assertThat(of(server(EngineKinds.VLLM, EngineSetup.NONE), TelemetryParams.DEFAULTS, Map.of()).orElseThrow())
                .isEqualTo(new EngineGpus(List.of(0), "GPU 0 (the engine's first GPU without CUDA_VISIBLE_DEVICES)"));
        assertThat(of(server(EngineKinds.VLLM, EngineSetup.NONE, "--tensor_parallel_size 2"), TelemetryParams.DEFAULTS,
                Map.of()).orElseThrow()).isEqualTo(new EngineGpus(List.of(0, 1), "GPUs 0,1 (its tensor-parallel size)"));
        assertThat(of(server(EngineKinds.SGLANG, EngineSetup.NONE, "--tp-size=4"), TelemetryParams.DEFAULTS, Map.of())
                .orElseThrow().indices()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void cudaVisibleDevicesOfTheEngineComeBeforeTheHarnesssAndBeforeTensorParallelism() {
        ServerConfig pinned = server(EngineKinds.VLLM, env("CUDA_VISIBLE_DEVICES=2,3"), "--tensor-parallel-size=2");
        assertThat(of(pinned, TelemetryParams.DEFAULTS, Map.of("CUDA_VISIBLE_DEVICES", "5")).orElseThrow())
                .isEqualTo(new EngineGpus(List.of(2, 3), "GPUs 2,3 (CUDA_VISIBLE_DEVICES)"));
        assertThat(of(server(EngineKinds.COMMAND, EngineSetup.NONE), TelemetryParams.DEFAULTS,
                Map.of("CUDA_VISIBLE_DEVICES", "5")).orElseThrow().indices()).containsExactly(5);
        assertThat(of(server(EngineKinds.VLLM, EngineSetup.NONE), TelemetryParams.DEFAULTS,
                Map.of("CUDA_VISIBLE_DEVICES", "GPU-8c2f41a0-0000")).orElseThrow())
                .satisfies(g -> assertThat(g.indices()).isEmpty())
                .satisfies(g -> assertThat(g.basis()).contains("names GPUs by UUID"));
        assertThat(of(server(EngineKinds.VLLM, env("CUDA_VISIBLE_DEVICES=")), TelemetryParams.DEFAULTS, Map.of())).isEmpty();
        assertThat(why).containsExactly("CUDA_VISIBLE_DEVICES=\"\" hides every GPU from the engine");
    }

    @Test
    void theGpusOptionWinsAndACommandWithoutHintsIsSampledOnEveryGpu() {
        TelemetryParams chosen = new TelemetryParams("auto", Duration.ofMillis(100), List.of(1), OptionalDouble.empty());
        assertThat(of(server(EngineKinds.VLLM, env("CUDA_VISIBLE_DEVICES=2"), "--tensor-parallel-size=2"), chosen,
                Map.of()).orElseThrow()).isEqualTo(new EngineGpus(List.of(1), "GPU 1 (--gpus)"));
        assertThat(of(server(EngineKinds.COMMAND, EngineSetup.NONE), TelemetryParams.DEFAULTS, Map.of()).orElseThrow()
                .indices()).isEmpty();
    }

    @Test
    void anEndpointOnAnotherHostIsSeenOnlyThroughAnExporterThere() {
        ServerConfig remote = server(EngineKinds.ENDPOINT, url("http://10.1.2.3:8000"));
        assertThat(of(remote, TelemetryParams.DEFAULTS, Map.of())).isEmpty();
        assertThat(why).singleElement().asString().startsWith("the engine runs at http://10.1.2.3:8000, whose GPUs are "
                + "not this machine's; give --gpu-telemetry-url");
        TelemetryParams dcgm = new TelemetryParams("dcgm", Duration.ofMillis(100), List.of(), OptionalDouble.empty(),
                "http://10.1.2.3:9400/metrics");
        assertThat(of(remote, dcgm, Map.of()).orElseThrow().indices()).isEmpty();
        // on this machine: its GPUs are the engine's
        assertThat(of(server(EngineKinds.ENDPOINT, url("http://127.0.0.1:8000")), TelemetryParams.DEFAULTS,
                Map.of("CUDA_VISIBLE_DEVICES", "1")).orElseThrow().indices()).containsExactly(1);
    }
}
