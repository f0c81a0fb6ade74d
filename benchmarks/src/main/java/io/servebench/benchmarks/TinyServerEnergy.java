package io.servebench.benchmarks;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * GPU telemetry on a real GPU without vLLM or SGLang: {@code scripts/gpu-telemetry/tiny_server.py}, a small
 * OpenAI-compatible server on PyTorch and transformers (a 1.5B-parameter Qwen2-shaped decoder with random weights,
 * one request at a time, about 1.1 s each), started as a {@code command} engine from the repository's root, at three
 * rates: two it keeps up with and one just past that. Run on a machine with an NVIDIA GPU and Python 3 with torch, transformers and aiohttp:
 * {@code java -jar benchmarks/target/benchmarks.jar TinyServerEnergy}; each load's energy, J per token and power
 * come from NVML.
 */
@ServingBenchmark(model = "tiny-qwen2", description = "GPU telemetry: a small transformers server on a real GPU")
@Engine(value = "command", command = {"python3", "scripts/gpu-telemetry/tiny_server.py", "--host", "{host}", "--port",
        "{port}", "--model", "{model}"})
@Workload(dataset = "synthetic:in=fixed(100),out=fixed(64),count=200", profile = Profile.CONSTANT, requests = 30,
        warmup = 2, api = "completions")
public class TinyServerEnergy {

    @Param({"0.25", "0.5", "0.75"})
    public double rate;

    @Baseline
    @Variant
    public void baseline() {
    }
}
