package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.Slo;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Tune;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/** A tuning study that ranks by capacity under SLOs, on the simulated engine. */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "tuner tests: ranking by capacity")
@Tune(metric = "capacity")
@Slo(ttftMs = 200, tpotMs = 30)
@Engine(value = "sim", flags = {"--max-model-len=32768"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.CONSTANT, rate = 8, requests = 300, warmup = 0)
public class CapacityTunedStudy {

    @Baseline
    @Variant
    public void baseline() {
    }

    @Variant(group = "max-num-seqs", flags = "--max-num-seqs=8")
    public void fewSequences() {
    }
}
