package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.measure.Metric;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The simulated engine reports GPU figures from its power model, in virtual time and over HTTP, through the same path
 * as a real GPU's: energy over the measurement window, per token, the samples in the run folder, a cost with a price.
 */
class TwinTelemetryTest {

    private static RepetitionResult run(EngineParams.Simulate mode, Path dir) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .param("dataset", "synthetic:in=fixed(100),out=fixed(50),count=40").param("rate", "8")
                .param("requests", "40").param("warmup", "0").param("api", "completions").simulate(mode)
                .settle(java.time.Duration.ZERO).outputDir(dir).progress(false)
                .telemetry(new io.servebench.metrics.gpu.TelemetryParams("auto", java.time.Duration.ofMillis(100),
                        java.util.List.of(), java.util.OptionalDouble.of(3.0)))
                .build(), new PrintWriter(new StringWriter(), true)).run();
        return outcome.blocks("baseline").get(0).repetitions().get(0);
    }

    @Test
    void inVirtualTimeTheTwinsPowerModelGivesEnergyPerTokenAndCost(@TempDir Path dir) throws Exception {
        RepetitionResult r = run(EngineParams.Simulate.VIRTUAL, dir);
        double joules = r.value(Metric.GPU_ENERGY).orElseThrow();
        double seconds = r.value(Metric.DURATION).orElseThrow();
        // one simulated H100: between its idle power and its 700 W limit over the whole window
        assertThat(joules / seconds).isBetween(121.9, 700.0);
        assertThat(r.value(Metric.GPU_POWER_MEAN).orElseThrow()).isCloseTo(joules / seconds, within(1e-6));
        assertThat(r.value(Metric.ENERGY_PER_OUTPUT_TOKEN).orElseThrow()).isCloseTo(joules / (40 * 50), within(1e-9));
        // one GPU at 3.0 an hour over the window, per million of the 2,000 tokens
        assertThat(r.value(Metric.COST_PER_MILLION_OUTPUT_TOKENS).orElseThrow())
                .isCloseTo(3.0 * seconds / 3600 / (2_000 / 1e6), within(1e-9));
        assertThat(r.value(Metric.GPU_THROTTLED)).as("the twin models no throttling and claims none").isEmpty();
        assertThat(r.notes()).anyMatch(n -> n.startsWith("GPU telemetry: the simulated engine's power model (1 x NVIDIA H100"));
        io.servebench.results.GpuTimeline timeline = r.gpuTimeline();
        // 40 requests at 8 req/s: about 5 s of sends and their completions, in 0.1 s steps
        assertThat(timeline.stepSeconds()).isEqualTo(0.1);
        assertThat(timeline.steps()).isCloseTo((int) Math.ceil(seconds / 0.1), within(1));
        assertThat(timeline.requestRate().stream().mapToDouble(v -> v * 0.1).sum()).isCloseTo(40, within(1e-9));
        assertThat(timeline.watts()).allSatisfy(w -> assertThat(w).isBetween(121.9, 700.0));
        try (var files = Files.list(dir.resolve("telemetry"))) {
            assertThat(files).hasSize(1).allMatch(f -> f.getFileName().toString().endsWith(".csv.gz"));
        }
    }

    /**
     * {@code @Tune(metric = "energy_per_output_token")} on the twin: two sequences a step read the weights once per two
     * tokens, so each token costs far more energy than in the baseline's batches, and the tuner keeps the baseline;
     * its scores are the blocks' own figures.
     */
    @Test
    void theTunerRanksByEnergyPerToken(@TempDir Path dir) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(EnergyTunedStudy.class)
                .simulate(EngineParams.Simulate.VIRTUAL).settle(java.time.Duration.ZERO).outputDir(dir).progress(false)
                .build(), new PrintWriter(new StringWriter(), true)).run();
        var tuning = outcome.result().tuning();
        assertThat(tuning.metric()).isEqualTo(Metric.ENERGY_PER_OUTPUT_TOKEN.label());
        var step = tuning.steps().stream().filter(s -> s.name().equals("max-num-seqs")).findFirst().orElseThrow();
        var base = step.candidates().get(0);
        var seqs2 = step.candidates().get(1);
        assertThat(base.mean()).isCloseTo(meanEnergy(outcome, "baseline"), within(1e-9));
        assertThat(seqs2.mean()).isCloseTo(meanEnergy(outcome, "seqs2"), within(1e-9));
        assertThat(seqs2.mean()).isGreaterThan(2 * base.mean());
        assertThat(seqs2.verdict()).isEqualTo(io.servebench.results.TuningResult.Verdict.WORSE);
        assertThat(tuning.recommended()).isEqualTo("baseline");
    }

    private static double meanEnergy(RunOutcome outcome, String variant) {
        // the tuner's step ran each side for as many repetitions as it needed: the last block of the variant at the rate
        var blocks = outcome.blocks(variant);
        return blocks.get(blocks.size() - 1).repetitions().stream()
                .mapToDouble(r -> r.value(Metric.ENERGY_PER_OUTPUT_TOKEN).orElseThrow()).average().orElseThrow();
    }

    @Test
    void overHttpTheTwinReportsThemOnTheRealClock(@TempDir Path dir) throws Exception {
        RepetitionResult r = run(EngineParams.Simulate.IN_PROCESS, dir);
        assertThat(r.value(Metric.GPU_ENERGY).orElseThrow() / r.value(Metric.DURATION).orElseThrow()).isBetween(121.9, 700.0);
    }
}
