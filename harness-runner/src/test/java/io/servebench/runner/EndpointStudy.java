package io.servebench.runner;

import io.servebench.annotations.Engine;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/** A study against an already running server; tests point it elsewhere with --engine-url. */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B")
@Engine(value = "endpoint", url = "http://127.0.0.1:9")
@Workload(rate = 8, requests = 6)
public class EndpointStudy {

    @Variant
    public void asDeployed() {
    }
}
