package io.servebench.runner;

import io.servebench.annotations.Baseline;
import io.servebench.annotations.Engine;
import io.servebench.annotations.Profile;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Slo;
import io.servebench.annotations.Tune;
import io.servebench.annotations.Variant;
import io.servebench.annotations.Workload;

/**
 * A tuning study that ranks by goodput under its SLOs on the simulated engine: a baseline held to four sequences a step
 * queues its arrivals past the TTFT bound, an option that lets 256 run at once does not. Requests and arrivals are drawn
 * anew each repetition, so that repetitions differ and the tuner has noise to test against.
 */
@ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "runner tests: tuning for goodput")
@Tune(metric = "goodput")
@Slo(ttftMs = 500)
@Engine(value = "sim", flags = {"--max-model-len=32768", "--max-num-seqs=4"})
@Workload(dataset = "synthetic-sharegpt", profile = Profile.POISSON, rate = 4, requests = 160, warmup = 0)
public class GoodputTunedStudy {

    @Baseline
    @Variant
    public void baseline() {
    }

    @Variant(group = "max-num-seqs", flags = "--max-num-seqs=256")
    public void seqs256() {
    }

    /** The same without SLOs: no goodput to rank by. */
    @ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "runner tests: goodput without SLOs")
    @Tune(metric = "goodput")
    @Engine(value = "sim", flags = {"--max-model-len=32768", "--max-num-seqs=4"})
    @Workload(dataset = "synthetic-sharegpt", profile = Profile.POISSON, rate = 4, requests = 20, warmup = 0)
    public static class NoSlo {

        @Baseline
        @Variant
        public void baseline() {
        }

        @Variant(group = "max-num-seqs", flags = "--max-num-seqs=256")
        public void seqs256() {
        }
    }

    /** A variant with SLOs of its own: its goodput would count other requests as good. */
    @ServingBenchmark(model = "Qwen/Qwen3.5-9B", description = "runner tests: goodput under other SLOs per variant")
    public static class OtherSlos extends GoodputTunedStudy {

        @Override
        @Slo(ttftMs = 200)
        @Variant(group = "max-num-seqs", flags = "--max-num-seqs=256")
        public void seqs256() {
        }
    }
}
