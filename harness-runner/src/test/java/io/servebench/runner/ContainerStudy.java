package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A study whose engine runs from a container image, as a vLLM study runs {@code vllm/vllm-openai}: the image is the
 * simulated engine on a jlinked runtime, built on this machine by {@code scripts/podman-local image}.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "the simulated engine served from a local container image")
@Engine(value = "command", image = ContainerStudy.IMAGE, flags = {"--max-model-len=32768"},
        command = {"java", "-cp", "/app/classes:/app/cp/*", "io.servebench.sim.SimServer", "{model}",
                "--host", "{host}", "--port", "{port}"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.CONSTANT, requests = 12, warmup = 0)
public class ContainerStudy {

    /** The image {@code ContainerEngineTest} builds from its own class path. */
    public static final String IMAGE = "localhost/servebench-sim-test:latest";

    @Param({"4"})
    public double rate;

    @Baseline
    @Variant
    public void baseline() {
    }

    @Variant(group = "max-num-seqs", flags = "--max-num-seqs=64")
    public void fewerSequences() {
    }
}
