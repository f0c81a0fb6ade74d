package ${package};

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Param;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Slo;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A starter study: does speculative decoding lower the mean latency at 4 and 8 requests per second?
 * It runs on ServeBench's simulated engine, so it works anywhere; to measure a real engine, change the
 * {@code @Engine} as in the examples below and run on the GPU machine.
 *
 * <pre>
 * // vLLM, as vllm serve MODEL FLAGS:
 * &#64;Engine(value = "vllm", flags = {"--max-model-len=32768", "--reasoning-parser=qwen3"})
 * // SGLang, as python3 -m sglang.launch_server --model-path MODEL FLAGS:
 * &#64;Engine(value = "sglang", flags = {"--context-length=32768", "--reasoning-parser=qwen3"})
 * // a server already running somewhere:
 * &#64;Engine(value = "endpoint", url = "http://127.0.0.1:8000")
 * </pre>
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "Starter study: speculative decoding against the baseline")
@Engine(value = "sim", flags = {"--max-model-len=32768"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.CONSTANT, requests = 100, warmup = 4)
@Slo(ttftMs = 500, tpotMs = 100)
public class MyStudy {

    /** Each variant runs at every rate; a field named rate sets the workload's rate. */
    @Param({"4", "8"})
    public double rate;

    @Baseline
    @Variant
    public void baseline() {
    }

    @Variant(group = "speculative-decoding",
            flags = "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}")
    public void mtp() {
    }
}
