package io.servebench.benchmarks;

import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Tune;
import io.servebench.benchmarks.qwen.LatencyTuning;

/**
 * The reference study (STUDY.md) as a method rather than a list of runs: the tuner selects the engine, tunes one option
 * group at a time on the winner, combines the winners, validates baseline against the recommendation at 1, 4, 8 and
 * 16 requests per second, and writes the recommendation with how it was reached. Its engine, workload, params and
 * candidates are {@link LatencyTuning}'s, which runs the same trials one by one: a study has those of the class it
 * extends. Nothing here says which option wins.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B",
        description = "Qwen3.5-9B latency tuning on one H100, by the tuner: the reference study's method as code")
@Tune(validationRates = {1, 4, 8, 16})
public class TunedReference extends LatencyTuning {
}
