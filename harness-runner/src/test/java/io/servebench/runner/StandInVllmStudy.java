package io.servebench.runner;

import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A real {@code vllm} engine kind, run through the stand-in {@code vllm} program (test resources): a served model name,
 * a list-valued flag and a LoRA mix, as a user's study writes them.
 */
@ServingBenchmark(model = "Qwen/Qwen3-8B", description = "runner tests: vLLM through its stand-in")
@Engine(value = "vllm", version = "0.26.0", flags = {"--max-model-len=8192", "--served-model-name=qwen-small",
        "--enable-lora", "--max-loras=2", "--lora-modules=sql-lora=/adapters/sql chat-lora=/adapters/chat"})
@Workload(dataset = "synthetic:in=fixed(50),out=fixed(10),count=20", profile = Profile.POISSON, rate = 20,
        requests = 20, warmup = 0, api = "completions", models = "sql-lora:1,chat-lora:1")
public class StandInVllmStudy {

    @Variant
    public void baseline() {
    }
}
