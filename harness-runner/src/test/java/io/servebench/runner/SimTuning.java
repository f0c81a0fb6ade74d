package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Tune;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/** A small tuning study on the simulated engine: the baseline and one option group. */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "runner tests: a tuning study on the simulated engine")
@Tune
@Engine(value = "sim", flags = {"--max-model-len=32768"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.CONSTANT, rate = 8, requests = 40, warmup = 0)
public class SimTuning {

    @Baseline
    @Variant
    public void baseline() {
    }

    @Variant(group = "speculative-decoding",
            flags = "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}")
    public void mtp2() {
    }
}
