package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.measure.Metric;
import io.servebench.results.TuningResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The tuner on the simulated engine in virtual time, ranking by figures that are higher the better, at a rate or a concurrency. */
class TunerOnTheTwinTest {

    /**
     * {@code @Tune(metric = "goodput")} on the twin: four sequences a step queue the arrivals past the TTFT bound, 256 do
     * not, so the option wins by serving more requests within the SLOs a second, higher being the better.
     */
    @Test
    void theTunerRanksByGoodputHigherFirst(@TempDir Path dir) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(GoodputTunedStudy.class)
                .simulate(EngineParams.Simulate.VIRTUAL).settle(java.time.Duration.ZERO).outputDir(dir).progress(false)
                .build(), new PrintWriter(new StringWriter(), true)).run();
        var tuning = outcome.result().tuning();
        assertThat(tuning.metric()).isEqualTo("Goodput (req/s), higher is better");
        var step = tuning.steps().stream().filter(s -> s.name().equals("max-num-seqs")).findFirst().orElseThrow();
        var base = step.candidates().get(0);
        var seqs256 = step.candidates().get(1);
        assertThat(seqs256.mean()).isGreaterThan(base.mean());
        assertThat(seqs256.verdict()).isEqualTo(io.servebench.results.TuningResult.Verdict.CHOSEN);
        assertThat(tuning.recommended()).isEqualTo("seqs256");
        // the scores are the blocks' own goodput
        var blocks = outcome.blocks("seqs256");
        assertThat(seqs256.mean()).isCloseTo(blocks.get(blocks.size() - 1).repetitions().stream()
                .mapToDouble(r -> r.value(Metric.GOODPUT).orElseThrow()).average().orElseThrow(), within(1e-9));
    }

    /**
     * {@code -r 3} is a floor under the tuner's repetitions: every configuration it measures has at least three, as a
     * block's "run with -r 3 or more to decide" advises (before stop 70 the tuner ignored -r and measured one or two).
     */
    @Test
    void theRunsRepetitionsAreAFloorUnderTheTuners(@TempDir Path dir) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(GoodputTunedStudy.class).repetitions(3)
                .param("requests", "40").simulate(EngineParams.Simulate.VIRTUAL).settle(java.time.Duration.ZERO)
                .outputDir(dir).progress(false).build(), new PrintWriter(new StringWriter(), true)).run();
        assertThat(outcome.result().blocks()).isNotEmpty()
                .allSatisfy(b -> assertThat(b.repetitions()).as(b.benchmark()).hasSizeGreaterThanOrEqualTo(3));
        assertThat(outcome.result().tuning().steps()).flatMap(s -> s.candidates())
                .allSatisfy(c -> assertThat(c.repetitions()).as(c.name()).isGreaterThanOrEqualTo(3));
    }

    /** Goodput is counted under SLOs: a study that states none, or other ones per variant, is refused before it runs. */
    @Test
    void aTunerRankingByGoodputNeedsOneSetOfSlos(@TempDir Path dir) {
        RunOptions.Builder options = RunOptions.builder().include(GoodputTunedStudy.class)
                .simulate(EngineParams.Simulate.VIRTUAL).outputDir(dir).progress(false);
        // one bound for every variant, on the class: accepted (the test above runs it)
        assertThat(new Runner(options.build(), new PrintWriter(new StringWriter(), true)).tunes()).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Runner(RunOptions.builder()
                        .include(GoodputTunedStudy.NoSlo.class).simulate(EngineParams.Simulate.VIRTUAL)
                        .outputDir(dir.resolve("none")).progress(false).build(), new PrintWriter(new StringWriter(), true)).run())
                .isInstanceOf(RunnerException.class).hasMessageContaining("ranks by goodput, counted under the SLOs, but"
                        + " states none: give @Slo on the class or --slo");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Runner(RunOptions.builder()
                        .include(GoodputTunedStudy.OtherSlos.class).simulate(EngineParams.Simulate.VIRTUAL)
                        .outputDir(dir.resolve("other")).progress(false).build(), new PrintWriter(new StringWriter(), true)).run())
                .isInstanceOf(RunnerException.class).hasMessageContaining("ranks by goodput, counted under the SLOs, and its"
                        + " variants state different ones ([baseline]: ttft=500; [seqs256]: ttft=200)");
    }

    /**
     * {@code @Tune(metric = "output_throughput")} at concurrency 64: eight sequences a step leave most of the 64 streams
     * waiting, 256 serve them all at once, so the option delivers more tokens a second; measured at the study's own
     * closed-loop point, with no rate anywhere.
     */
    @Test
    void atAConcurrencyTheTunerRanksByThroughput(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(RunOptions.builder().include(ThroughputTunedStudy.class)
                .simulate(EngineParams.Simulate.VIRTUAL).settle(java.time.Duration.ZERO).outputDir(dir).progress(false)
                .build(), new PrintWriter(out, true)).run();
        TuningResult tuning = outcome.result().tuning();
        assertThat(tuning.concurrency()).isEqualTo(64);
        assertThat(tuning.metric()).isEqualTo("Output token throughput (tok/s), higher is better");
        var step = tuning.steps().stream().filter(s -> s.name().equals("max-num-seqs")).findFirst().orElseThrow();
        assertThat(step.candidates().get(1).mean()).isGreaterThan(2 * step.candidates().get(0).mean());
        assertThat(tuning.recommended()).isEqualTo("seqs256");
        assertThat(tuning.caveats()).extracting(c -> c.code()).doesNotContain(io.servebench.results.Caveat.Code.THROUGHPUT_AT_A_RATE);
        // every block ran a closed loop: the study's 64 streams, or a validation's 16 or 128
        assertThat(outcome.result().blocks()).allSatisfy(b -> assertThat(b.params()).doesNotContainKey("rate")
                .containsKey("concurrency"));
        assertThat(outcome.result().blocks()).extracting(b -> b.params().get("concurrency")).containsOnly("16", "64", "128");
        // validated at 16 and 128 streams: with 16 in flight eight sequences a step serve half of them, with 128 a
        // sixteenth, so 256 sequences gain more the more streams there are
        assertThat(tuning.validation()).extracting(TuningResult.Validation::concurrency).containsExactly(16, 128);
        assertThat(tuning.validation()).allSatisfy(v -> assertThat(v.speedup()).isGreaterThan(1));
        assertThat(tuning.validation().get(1).speedup()).isGreaterThan(tuning.validation().get(0).speedup());
        assertThat(tuning.caveats()).extracting(c -> c.code()).doesNotContain(
                io.servebench.results.Caveat.Code.VALIDATION_NOT_BETTER_AT_CONCURRENCY,
                io.servebench.results.Caveat.Code.VALIDATION_WORSE_AT_CONCURRENCY);
        assertThat(out.toString()).contains("tuning ThroughputTunedStudy at concurrency 64 by Output token throughput");
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("ThroughputTunedStudy was tuned at concurrency 64"
                + " (closed-loop streams) by Output token throughput (tok/s), higher is better.");
    }
}
