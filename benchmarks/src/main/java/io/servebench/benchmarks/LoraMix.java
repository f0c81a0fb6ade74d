package io.servebench.benchmarks;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * Traffic for two LoRA adapters of Qwen3-8B, three requests in four for one: vLLM holds one adapter in a step by
 * default ({@code --max-loras} 1), so the other's requests wait; two slots let both run. On the simulated engine:
 * {@code java -jar benchmarks/target/benchmarks.jar --simulate=virtual LoraMix}; each block reports every figure per
 * adapter as well. On a GPU, point {@code --lora-modules} at real adapters.
 */
@ServingBenchmark(model = "Qwen/Qwen3-8B", description = "a LoRA mix: one adapter slot against two")
@Engine(value = "vllm", flags = {"--max-model-len=8192", "--enable-lora", "--max-lora-rank=16",
        "--lora-modules=sql-lora=/adapters/sql-lora chat-lora=/adapters/chat-lora"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.POISSON, rate = 8, requests = 400, warmup = 20,
        models = "sql-lora:3,chat-lora:1")
public class LoraMix {

    @Baseline
    @Variant
    public void oneSlot() {
    }

    @Variant(group = "lora-slots", flags = "--max-loras=2")
    public void twoSlots() {
    }
}
