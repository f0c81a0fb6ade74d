package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * SGLang, whose radix cache is always on, sent the same 30 prompts in every repetition (30 of a set of 30): a
 * repetition after the first would find every prompt cached unless the cache is emptied before it. {@code fewSlots}
 * runs two requests at a time: slower, deterministically.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "repetitions: independent samples, each from an emptied cache")
@Engine(value = "sglang", flags = {"--context-length=32768"})
@Workload(dataset = "synthetic:in=fixed(400),out=fixed(20),count=30", profile = Profile.CONSTANT, rate = 8,
        requests = 30, warmup = 0)
public class RepetitionStudy {

    @Baseline
    @Variant
    public void baseline() {
    }

    @Variant(flags = "--max-running-requests=2")
    public void fewSlots() {
    }
}
