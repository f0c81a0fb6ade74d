package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/** A {@code command} engine that keeps loading and never opens its port, as a large model loads for minutes. */
@ServingBenchmark(model = "m", description = "an engine that never becomes ready")
@Engine(value = "command", command = {"bash", "../engines/src/test/resources/fake-engines/never-ready.sh", "{port}"})
@Workload(dataset = "synthetic:in=fixed(10),out=fixed(10)", profile = Profile.CONSTANT, rate = 1, requests = 4, warmup = 0)
public class NeverReadyStudy {

    @Baseline
    @Variant
    public void baseline() {
    }
}
