package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * One configuration twice: {@code again} adds a flag the simulated engine ignores, so it is a second server
 * start and a later trial of the same work (the same requests at the same times).
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "the same configuration measured first and later")
@Engine(value = "sim", flags = {"--max-model-len=32768"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.CONSTANT, rate = 8, requests = 24, warmup = 0)
public class RepeatStudy {

    @Baseline
    @Variant
    public void first() {
    }

    @Variant(flags = "--enable-log-requests")
    public void again() {
    }
}
