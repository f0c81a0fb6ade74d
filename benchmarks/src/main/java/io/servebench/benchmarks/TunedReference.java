package io.servebench.benchmarks;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServerOptions;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Tune;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * The reference study (STUDY.md) as a method rather than a list of runs: the tuner selects the engine, tunes one option
 * group at a time on the winner, combines the winners, validates baseline against the recommendation at 1, 4, 8 and
 * 16 requests per second, and writes the recommendation with how it was reached. The candidates are those of
 * {@link io.servebench.benchmarks.qwen.LatencyTuning}, which runs the same trials one by one; nothing here says which
 * option wins.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B",
        description = "Qwen3.5-9B latency tuning on one H100, by the tuner: the reference study's method as code")
@Tune(validationRates = {1, 4, 8, 16})
@Engine(value = "vllm", flags = "--reasoning-parser=qwen3")
@ServerOptions(maxModelLen = 32768)
@Workload(dataset = "sharegpt:ShareGPT_V3_unfiltered_cleaned_split.json", profile = Profile.CONSTANT, rate = 8,
        requests = 1000, warmup = 0)
public class TunedReference {

    @Param({"16384", "32768"})
    public int maxNumBatchedTokens;

    @Param({"128", "256"})
    public int maxNumSeqs;

    /** vLLM with the baseline flags: the first engine candidate, and where the tuner starts. */
    @Baseline
    @Variant(group = "engine-selection")
    public void vllm() {
    }

    @Variant(group = "engine-selection", engine = "sglang", flags = "--reasoning-parser=qwen3")
    public void sglang() {
    }

    @Variant(group = "prefix-caching", flags = "--enable-prefix-caching")
    public void prefixCaching() {
    }

    @Variant(group = "max-num-batched-tokens", flags = "--max-num-batched-tokens=${maxNumBatchedTokens}")
    public void maxNumBatchedTokens() {
    }

    @Variant(group = "max-num-seqs", flags = "--max-num-seqs=${maxNumSeqs}")
    public void maxNumSeqs() {
    }

    @Variant(group = "speculative-decoding",
            flags = "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}")
    public void mtp() {
    }

    @Variant(group = "speculative-decoding", flags = {
            "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}",
            "--performance-mode=interactivity"})
    public void mtpInteractivity() {
    }

    @Variant(group = "speculative-decoding", flags = {
            "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}",
            "--performance-mode=interactivity",
            "--language-model-only"})
    public void mtpInteractivityLanguageOnly() {
    }
}
