package io.servebench.benchmarks.qwen;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServerOptions;
import io.servebench.annotations.Recommended;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * Steps 3 and 4 of the reference study: the recommended configuration (the winners of
 * {@link LatencyTuning} combined) against the baseline across request rates. At 8 requests per
 * second both trials are the same as two of {@link LatencyTuning}'s and are measured once.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B",
        description = "Qwen3.5-9B: baseline vs recommended vLLM configuration across request rates")
@Engine(value = "vllm", flags = "--reasoning-parser=qwen3")
@ServerOptions(maxModelLen = 32768)
@Workload(dataset = "sharegpt:ShareGPT_V3_unfiltered_cleaned_split.json", profile = Profile.CONSTANT,
        requests = 1000, warmup = 0)
public class RateValidation {

    @Param({"1", "4", "8", "16"})
    public double rate;

    @Baseline
    @Variant(group = "rate-validation")
    public void baseline() {
    }

    /** The recommended serve command of the reference study. */
    @Recommended
    @Variant(group = "rate-validation", flags = {
            "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}",
            "--language-model-only",
            "--performance-mode=interactivity"})
    public void recommended() {
    }
}
