package io.servebench.execution.slurm;

import io.servebench.engine.EngineParams;
import io.servebench.engine.ServerConfig;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.execution.ClientOptions;
import io.servebench.execution.ExecutionException;
import io.servebench.execution.ExecutionParams;
import io.servebench.flags.Flag;
import io.servebench.measure.SloParams;
import io.servebench.plan.LoadOptionParams;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.WorkloadParams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The job file is the contract between a coordinator and its workers: what one writes, the other reads back whole. */
class SlurmJobTest {

    private static final ExecutionParams PARAMS = new ExecutionParams(Path.of("/shared/run"),
            new EngineParams(EngineParams.Simulate.PROCESS, 7, Duration.ofSeconds(600), Duration.ofMillis(2500), "podman",
                    Path.of("/hf"), null, null, "b200", Path.of("/configs/llama")).withSimulatedAcceptance(List.of(0.7, 0.5)),
            3, 42, true, Duration.ofMillis(1500), Duration.ofSeconds(30),
            new ClientOptions("MY_KEY", Duration.ofSeconds(5), Duration.ofSeconds(90), 3), SloParams.parse("ttft=200,tpot=30"),
            false, true, io.servebench.metrics.gpu.TelemetryParams.DEFAULTS, 0.2);

    private static Trial trial(String id, List<String> env) {
        ServerConfig server = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3.5-9B",
                List.of(Flag.parse("--max-num-seqs=64").orElseThrow(), Flag.parse("--enable-prefix-caching").orElseThrow()),
                new EngineSetup("/opt/vllm/bin/vllm", env, "/work", List.of(), "", ""), "configs/qwen3.5-9b.json");
        // a sweep (no rate of its own) and every load option away from its default
        WorkloadParams workload = new WorkloadParams("sharegpt:/data/sg.json", "sweep", Double.NaN, 1, 200, 10,
                LoadOptionParams.of(Map.ofEntries(Map.entry("warmupSeconds", "2.5"), Map.entry("burstiness", "0.5"),
                        Map.entry("rampUpSeconds", "3"), Map.entry("maxConcurrency", "64"), Map.entry("durationSeconds", "120"),
                        Map.entry("maxErrors", "5"), Map.entry("sweepRates", "6"), Map.entry("api", "completions"),
                        Map.entry("extraBody", "{\"top_k\":1}"), Map.entry("continuousUsage", "false"),
                        Map.entry("saturationWindowSeconds", "30"), Map.entry("cancellationRate", "20"),
                        Map.entry("cancellationDelaySeconds", "0.5"), Map.entry("cancellationAfter", "first-token"),
                        Map.entry("timeoutSeconds", "60"), Map.entry("models", "sql-lora:3,chat-lora:1"),
                        Map.entry("modelDistribution", "zipf:1.2"), Map.entry("endpointWeights", "3,1"))));
        return new Trial(id, "s01-vllm", server, workload);
    }

    @Test
    void whatTheCoordinatorWritesTheWorkerReadsBackWhole(@TempDir Path dir) throws Exception {
        Trial first = trial("t01-vllm", List.of("VLLM_LOGGING_LEVEL=DEBUG"));
        Trial second = trial("t02-vllm", List.of());
        List<ResultBlock> blocks = List.of(
                new ResultBlock("x.Study.baseline", "x.Study", "baseline", "", true, Map.of("seqs", "64"), first, false,
                        SloParams.parse("ttft=100"), OptionalDouble.of(0.95)),
                new ResultBlock("x.Study.tuned", "x.Study", "tuned", "g", false, Map.of(), second, true, SloParams.NONE,
                        OptionalDouble.empty()));
        SlurmJob job = new SlurmJob("r02-s01-vllm", PARAMS, 2, List.of(first, second), blocks);
        Path file = dir.resolve("job.json");

        job.write(file);

        assertThat(SlurmJob.read(file)).isEqualTo(job);
    }

    @Test
    void aSecretInAnEnginesEnvironmentIsNeverWrittenToAJobFile(@TempDir Path dir) {
        Trial withToken = trial("t01-vllm", List.of("HF_TOKEN=hf_secret"));
        Path file = dir.resolve("job.json");

        assertThatThrownBy(() -> new SlurmJob("s01-vllm", PARAMS, 1, List.of(withToken), List.of()).write(file))
                .isInstanceOf(ExecutionException.class).hasMessageContaining("HF_TOKEN=***")
                .hasMessageContaining("export it in the environment instead");
        assertThat(file).doesNotExist();
    }

    @Test
    void aMissingOrForeignJobFileIsNamed(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("jobs/r01-s01-sim.json");
        assertThatThrownBy(() -> SlurmJob.read(missing)).isInstanceOf(ExecutionException.class)
                .hasMessageStartingWith("cannot read " + missing + ", the job's trials");
        Path foreign = Files.writeString(dir.resolve("other.json"), "{\"format\": 99}");
        assertThatThrownBy(() -> SlurmJob.read(foreign)).hasMessageContaining("expected a job of format 1");
    }
}
