package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A study of a {@code command} engine, as a user's own server is run: the simulated engine started through
 * {@code fake-engines/sim-serve.sh}, which finds the harness's class path in {@code SERVEBENCH_TEST_CLASSPATH}. About
 * six seconds of load a repetition.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "a command engine: the simulated engine behind a script")
@Engine(value = "command", command = {"bash", "../engines/src/test/resources/fake-engines/sim-serve.sh", "{model}", "--port",
        "{port}"})
@Workload(dataset = "synthetic:in=fixed(100),out=fixed(100)", profile = Profile.CONSTANT, rate = 8, requests = 40,
        warmup = 0)
public class CommandStudy {

    @Baseline
    @Variant
    public void baseline() {
    }
}
