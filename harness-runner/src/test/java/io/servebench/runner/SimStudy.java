package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.Recommended;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/** The runner's tests' study on the simulated engine: two rates, a baseline and one variant against it. */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "runner tests on the simulated engine")
@Engine(value = "sim", flags = {"--max-model-len=32768"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.CONSTANT, requests = 40, warmup = 4)
public class SimStudy {

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
