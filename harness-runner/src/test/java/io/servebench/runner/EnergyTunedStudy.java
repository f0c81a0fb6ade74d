package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Tune;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A tuning study that ranks by energy per output token on the simulated engine's power model. Its requests and arrivals
 * are drawn anew each repetition, so that repetitions differ: energy per token has no per-request spread, and identical
 * repetitions would leave the tuner no noise to test a difference against.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "runner tests: tuning for energy per token")
@Tune(metric = "energy_per_output_token")
@Engine(value = "sim", flags = {"--max-model-len=32768"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.POISSON, rate = 8, requests = 160, warmup = 0)
public class EnergyTunedStudy {

    @Baseline
    @Variant
    public void baseline() {
    }

    /** Two sequences a step: the weights are read for two tokens where the baseline reads them for dozens. */
    @Variant(group = "max-num-seqs", flags = "--max-num-seqs=2")
    public void seqs2() {
    }
}
