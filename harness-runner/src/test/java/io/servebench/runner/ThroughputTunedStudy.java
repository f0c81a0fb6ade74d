package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Tune;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A tuning study at 64 closed-loop streams that ranks by output throughput on the simulated engine: a baseline held to
 * eight sequences a step against an option that lets 256 run, then both at 16 and 128 streams. Requests are drawn anew
 * each repetition.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "runner tests: tuning for throughput at a concurrency")
@Tune(metric = "output_throughput", validationConcurrencies = {16, 128})
@Engine(value = "sim", flags = {"--max-model-len=32768", "--max-num-seqs=8"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.CONCURRENT, concurrency = 64, requests = 192, warmup = 0)
public class ThroughputTunedStudy {

    @Baseline
    @Variant
    public void baseline() {
    }

    @Variant(group = "max-num-seqs", flags = "--max-num-seqs=256")
    public void seqs256() {
    }
}
