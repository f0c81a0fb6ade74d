package io.servebench.runner;

import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/** Two LoRA adapters on the simulated engine standing for vLLM, with one adapter slot (vLLM's default) or two. */
@ServingBenchmark(model = "Qwen/Qwen3-8B", description = "runner tests: a LoRA mix")
@Engine(value = "vllm", flags = {"--max-model-len=8192", "--enable-lora",
        "--lora-modules=sql-lora=/adapters/sql chat-lora=/adapters/chat"})
@Workload(dataset = "synthetic:in=fixed(200),out=fixed(100),count=200", profile = Profile.POISSON, rate = 8,
        requests = 200, warmup = 0, api = "completions")
public class LoraStudy {

    @Variant
    public void oneSlot() {
    }

    @Variant(flags = "--max-loras=2")
    public void twoSlots() {
    }
}
