package io.servebench.runner;

import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/** An SGLang study of a model the simulated engine has no built-in profile of, and SGLang no flag to name a config. */
@ServingBenchmark(model = "my-org/Llama-3.1-70B-support", description = "runner tests: a model the twin must be told")
@Engine(value = "sglang", flags = {"--tp-size=4", "--context-length=8192"})
@Workload(dataset = "synthetic:in=fixed(100),out=fixed(20),count=10", profile = Profile.POISSON, rate = 4, requests = 10,
        warmup = 0, api = "completions")
public class UnknownModelStudy {

    @Variant
    public void baseline() {
    }
}
