package io.servebench.benchmarks;

import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * ServeBench's side of the client comparison of scripts/peer/compare: a constant-rate load of 100-token streams to a
 * truth server already running ({@code --engine-url}), which a Python asyncio client drives the same way.
 */
@ServingBenchmark(model = "truth-model", description = "Client CPU against a peer client (scripts/peer/compare)")
@Engine(value = "endpoint", url = "http://127.0.0.1:8000")
@Workload(dataset = "synthetic:in=fixed(8),out=fixed(100)", profile = Profile.CONSTANT, requests = 600, warmup = 0)
public class PeerClient {

    @Param({"20"})
    public double rate;

    @Variant
    public void load() {
    }
}
