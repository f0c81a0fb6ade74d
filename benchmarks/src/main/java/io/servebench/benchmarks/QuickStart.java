package io.servebench.benchmarks;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.Recommended;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A first study that runs anywhere: the built-in simulated engine, the bundled made-up
 * conversations, two rates, and one variant against the baseline. Copy it to start your own.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "Quick start: speculative decoding on the simulated engine")
@Engine(value = "sim", flags = {"--max-model-len=32768"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.CONSTANT, requests = 40, warmup = 4)
public class QuickStart {

    @Param({"4", "8"})
    public double rate;

    @Baseline
    @Variant
    public void baseline() {
    }

    @Recommended
    @Variant(group = "speculative-decoding",
            flags = "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}")
    public void mtp2() {
    }
}
