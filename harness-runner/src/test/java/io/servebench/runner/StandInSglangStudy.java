package io.servebench.runner;

import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A real {@code sglang} engine kind, run through the stand-in {@code python3} (test resources): a LoRA mix written
 * by the adapters' names, which SGLang takes as {@code "base:adapter"}.
 */
@ServingBenchmark(model = "Qwen/Qwen3-8B", description = "runner tests: SGLang through its stand-in")
@Engine(value = "sglang", version = "0.5.18", flags = {"--context-length=8192",
        "--lora-paths=sql-lora=/adapters/sql chat-lora=/adapters/chat"})
@Workload(dataset = "synthetic:in=fixed(50),out=fixed(10),count=20", profile = Profile.POISSON, rate = 20,
        requests = 20, warmup = 0, api = "completions", models = "sql-lora:1,chat-lora:1")
public class StandInSglangStudy {

    @Variant
    public void baseline() {
    }
}
