package io.servebench.runner;

import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServerOptions;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * {@link UnknownModelStudy} with the model's config named by the study itself, for the simulated engine (SGLang has no
 * flag for one); {@link UnknownModelTest} writes the file before the run.
 */
@ServingBenchmark(model = "my-org/Llama-3.1-70B-support", description = "runner tests: a model config the study names")
@Engine(value = "sglang", flags = {"--tp-size=4", "--context-length=8192"})
@ServerOptions(simulatedModelConfig = ConfiguredModelStudy.CONFIG)
@Workload(dataset = "synthetic:in=fixed(100),out=fixed(20),count=10", profile = Profile.POISSON, rate = 4, requests = 10,
        warmup = 0, api = "completions")
public class ConfiguredModelStudy {

    /** From the module's folder, where the tests run. */
    public static final String CONFIG = "target/configured-model-study/config.json";

    @Variant
    public void baseline() {
    }
}
