package io.servebench.benchmarks.qwen;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServerOptions;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * Steps 1 and 2 of the reference study (STUDY.md): choose the engine, then tune one option group at
 * a time on the winner, each against the vLLM baseline, at 8 requests per second.
 *
 * <p>The reference ran without warm-up requests; so does this study, to stay comparable.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B",
        description = "Qwen3.5-9B latency tuning on one H100: engine selection and option groups")
@Engine(value = "vllm", flags = "--reasoning-parser=qwen3")
@ServerOptions(maxModelLen = 32768)
@Workload(dataset = "sharegpt:ShareGPT_V3_unfiltered_cleaned_split.json", profile = Profile.CONSTANT, rate = 8,
        requests = 1000, warmup = 0)
public class LatencyTuning {

    @Param({"16384", "32768"})
    public int maxNumBatchedTokens;

    @Param({"128", "256"})
    public int maxNumSeqs;

    /** vLLM with the baseline flags: the engine-selection candidate and every group's baseline. */
    @Baseline
    @Variant(group = "engine-selection")
    public void vllm() {
    }

    /** SGLang with the same context limit, which it spells --context-length (from the class's @ServerOptions). */
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
