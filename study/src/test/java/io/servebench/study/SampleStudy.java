package io.servebench.study;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.Recommended;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/** A small study for the reflective reader; members are deliberately not in alphabetical order. */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "sample")
@Engine(value = "vllm", flags = {"--reasoning-parser=qwen3", "--max-model-len=32768"})
@Workload(dataset = "synthetic-sharegpt", rate = 8, requests = 1000)
public class SampleStudy {

    @Param({"1", "4"})
    double rate;

    @Param({"256", "128"})
    int maxNumSeqs;

    @Param({"true"})
    boolean unused;

    @Baseline
    @Variant
    public void zBaseline() {
    }

    @Recommended
    @Variant(group = "max-num-seqs", flags = "--max-num-seqs=${maxNumSeqs}")
    @Workload(profile = Profile.POISSON, warmup = 10)
    public void maxNumSeqs() {
    }

    @Variant(engine = "sglang", flags = "--context-length=32768")
    public void aSglang() {
    }

    /** Not a variant: the reader skips it. */
    public void helper() {
    }
}
