package io.servebench.benchmarks;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * What the twin predicts for {@link TinyServerEnergy}'s load: the same model shape
 * ({@code scripts/gpu-telemetry/tiny-qwen2-config.json}, the tiny server's Qwen2 config), the same requests and rates,
 * one sequence at a time as the tiny server decodes them, on a simulated H200:
 * {@code java -jar benchmarks/target/benchmarks.jar --simulate=virtual --simulate-gpu h200 TinyServerTwin}. The twin
 * imitates vLLM's engine, not a transformers loop in eager mode, so it predicts vLLM's speed on this model.
 */
@ServingBenchmark(model = "tiny-qwen2", description = "GPU telemetry: the twin's prediction for the tiny server's load")
@Engine(value = "vllm", flags = {"--hf-config-path=scripts/gpu-telemetry/tiny-qwen2-config.json", "--max-num-seqs=1"})
@Workload(dataset = "synthetic:in=fixed(100),out=fixed(64),count=200", profile = Profile.CONSTANT, requests = 30,
        warmup = 2, api = "completions")
public class TinyServerTwin {

    @Param({"0.25", "0.5", "0.75"})
    public double rate;

    @Baseline
    @Variant
    public void baseline() {
    }
}
