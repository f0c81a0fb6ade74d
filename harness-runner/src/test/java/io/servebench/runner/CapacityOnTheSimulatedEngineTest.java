package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.measure.SloParams;
import io.servebench.results.CapacityResult;
import io.servebench.tuning.CapacitySearch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --capacity} on the simulated engine in virtual time: measured rates, not a model's answer. */
// alone: it looks for engine processes left among every process this JVM started
@Isolated
class CapacityOnTheSimulatedEngineTest {

    @Test
    void findsARateThatMeetsTheTargetWhileTheNextProbedRateAboveDoesNot(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline").param("rate", "4")
                .param("requests", "600").simulate(EngineParams.Simulate.VIRTUAL).slo(SloParams.parse("ttft=200,tpot=30"))
                .capacity(0.99).outputDir(dir).progress(false).build(), new PrintWriter(out, true)).run();

        CapacityResult c = outcome.result().capacities().get(0);
        assertThat(c.configuration()).isEqualTo("SimStudy.baseline");
        CapacityResult.Probe at = c.probes().stream().filter(p -> p.load() == c.capacity()).findFirst().orElseThrow();
        CapacityResult.Probe above = c.probes().stream().filter(p -> p.load() > c.capacity()).findFirst().orElseThrow();
        assertThat(at.share()).as("share at the capacity").isGreaterThanOrEqualTo(0.99);
        assertThat(above.share()).as("share at the next probed rate, %s req/s", above.load()).isLessThan(0.99);
        assertThat(above.load() / c.capacity()).as("bisected to within 10%").isLessThanOrEqualTo(1.1 + 1e-9);
        assertThat(c.low()).isPositive().isLessThanOrEqualTo(c.capacity());
        assertThat(c.high()).isGreaterThan(c.capacity());
        // every probe is a measured trial of 600 requests (300 could not show 99% beyond doubt: 300 of 300 has a 95% interval from 98.7%), in the journal and the reports
        assertThat(at.total()).isEqualTo(600);
        assertThat(outcome.result().blocks()).hasSize(c.probes().size());
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("## Capacity under SLOs")
                .contains("**SimStudy.baseline**: capacity ");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("Goodput against request rate");
        assertThat(out.toString()).contains("Capacity: SimStudy.baseline ");
        // each probe is a round of its own, measured on the engine the first one started: one start, not one a probe
        assertThat(outcome.result().servers()).hasSize(1);
        assertThat(out.toString()).containsOnlyOnce("Starting s01").contains("Reusing s01");
    }

    /**
     * A multi-turn load's rate paces conversations, so its capacity is a rate of conversations and says so on the
     * console and in the reports (it said req/s before stop 77).
     */
    @Test
    void aMultiTurnLoadIsSearchedOverItsRateOfConversations(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline").param("rate", "2")
                .param("dataset", "multi-turn:turns=3,in=fixed(256),out=fixed(64)").param("requests", "300")
                .simulate(EngineParams.Simulate.VIRTUAL).slo(SloParams.parse("ttft=200,tpot=30")).capacity(0.99)
                .outputDir(dir).progress(false).build(), new PrintWriter(out, true)).run();

        CapacityResult c = outcome.result().capacities().get(0);
        assertThat(c.axis()).isEqualTo(CapacityResult.Axis.CONVERSATION_RATE);
        assertThat(c.capacity()).isPositive();
        assertThat(out.toString()).contains("Capacity: SimStudy.baseline ").contains(" conversations/s");
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("| Rate (conversations/s) |")
                .contains(" conversations/s (at least ");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("Goodput against conversation rate");
    }

    /**
     * A closed-loop load is searched over its streams: each probe a block at its own concurrency (not one load measured
     * again under rates it never sent at, as before stop 70, which then reported "at least 256 req/s").
     */
    @Test
    void aClosedLoopIsSearchedOverItsStreamsEachProbeABlockOfItsOwn(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .param("profile", "concurrent").param("concurrency", "8").param("requests", "600")
                .simulate(EngineParams.Simulate.VIRTUAL).slo(SloParams.parse("tpot=12")).capacity(0.99).outputDir(dir)
                .progress(false).build(), new PrintWriter(out, true)).run();

        CapacityResult c = outcome.result().capacities().get(0);
        assertThat(c.axis()).isEqualTo(CapacityResult.Axis.CONCURRENCY);
        assertThat(c.probes()).allSatisfy(p -> assertThat(p.load()).isEqualTo(Math.rint(p.load())).isGreaterThanOrEqualTo(1));
        CapacityResult.Probe at = c.probes().stream().filter(p -> p.load() == c.capacity()).findFirst().orElseThrow();
        CapacityResult.Probe above = c.probes().stream().filter(p -> p.load() > c.capacity()).findFirst().orElseThrow();
        assertThat(at.share()).as("share at the capacity").isGreaterThanOrEqualTo(0.99);
        assertThat(above.share()).as("share at the next probed concurrency, %s", above.load()).isLessThan(0.99);
        assertThat(above.load() == c.capacity() + 1 || above.load() / c.capacity() <= 1.1 + 1e-9)
                .as("bisected to neighbours or within 10%%: %s and %s", c.capacity(), above.load()).isTrue();
        // every probe a block of its own, at the concurrency it reports
        assertThat(outcome.result().blocks()).extracting(b -> Double.parseDouble(b.params().get("concurrency")))
                .containsExactlyInAnyOrderElementsOf(c.probes().stream().map(CapacityResult.Probe::load).toList());
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("**SimStudy.baseline**: capacity ")
                .contains(" streams (at least ").contains("| Concurrency (streams) |");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("Goodput against concurrency");
        assertThat(out.toString()).contains("Capacity: SimStudy.baseline " + Math.round(c.capacity()) + " streams");
    }

    /** {@code -r 2}: each probe measured twice, its attainment over both repetitions' requests (ignored before stop 70). */
    @Test
    void eachProbeRunsTheRunsRepetitionsAndPoolsTheirRequests(@TempDir Path dir) throws Exception {
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline").param("rate", "16")
                .param("requests", "150").repetitions(2).simulate(EngineParams.Simulate.VIRTUAL)
                .slo(SloParams.parse("ttft=200,tpot=30")).capacity(0.99).outputDir(dir).progress(false).build(),
                new PrintWriter(new StringWriter(), true)).run();
        CapacityResult c = outcome.result().capacities().get(0);
        assertThat(c.probes()).allSatisfy(p -> assertThat(p.total()).isEqualTo(300));
        assertThat(outcome.result().blocks()).allSatisfy(b -> assertThat(b.repetitions()).hasSize(2));
    }

    /** A load that sends at neither a rate nor a number of streams has nothing to search, and is refused before it runs. */
    @Test
    void aLoadOfNeitherARateNorStreamsIsRefusedSayingWhatToGiveIt(@TempDir Path dir) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Runner(RunOptions.builder()
                        .include(SimStudy.class, "baseline").param("profile", "throughput").param("requests", "50")
                        .simulate(EngineParams.Simulate.VIRTUAL).slo(SloParams.parse("ttft=200")).capacity(0.99)
                        .outputDir(dir).progress(false).build(), new PrintWriter(new StringWriter(), true)).run())
                .isInstanceOf(RunnerException.class)
                .hasMessageContaining("--capacity searches a request rate (profile constant, poisson or gamma) or a number"
                        + " of closed-loop streams (profile concurrent); SimStudy.baseline's load is throughput, which has"
                        + " neither: give it one, e.g. -p profile=poisson -p rate=8");
    }

    /** The engine kept running for a next round is stopped when the search ends, here after its first probe. */
    @Test
    void theEngineKeptForANextRoundIsStoppedWhenTheSearchEnds(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline").param("rate", "4")
                .param("requests", "8").param("warmup", "0").param("dataset", "synthetic:in=fixed(300000),out=fixed(10)")
                .simulate(EngineParams.Simulate.PROCESS).slo(SloParams.parse("ttft=200")).capacity(0.99).outputDir(dir)
                .progress(false).build(), new PrintWriter(out, true)).run();

        assertThat(outcome.result().capacities().get(0).probes()).as(out.toString()).hasSize(1);
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(CapacityOnTheSimulatedEngineTest::isSimServer).toList()).as("engines left").isEmpty();
    }

    private static boolean isSimServer(ProcessHandle p) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).contains(
                    io.servebench.sim.SimServer.class.getName());
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Prompts longer than the engine's context: every request is refused, at any rate, and the search says so. */
    @Test
    void aServerThatServesNothingEndsTheSearchAtItsFirstRate(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(RunOptions.builder().include(SimStudy.class, "baseline").param("rate", "4")
                .param("requests", "20").param("dataset", "synthetic:in=fixed(300000),out=fixed(10)")
                .simulate(EngineParams.Simulate.VIRTUAL).slo(SloParams.parse("ttft=200")).capacity(0.99).outputDir(dir)
                .progress(false).build(), new PrintWriter(out, true)).run();

        CapacityResult c = outcome.result().capacities().get(0);
        assertThat(c.probes()).singleElement().satisfies(p -> {
            assertThat(p.load()).isEqualTo(4);
            assertThat(p.failure()).contains("every measured request failed");
        });
        assertThat(c.capacity()).isZero();
        assertThat(out.toString()).contains("Capacity: SimStudy.baseline none found: the trial at 4.00 req/s failed");
        assertThat(Files.readString(dir.resolve("summary.md")))
                .contains("**SimStudy.baseline**: no capacity found: the trial at 4.00 req/s failed")
                .contains("| failed: ");
    }

    @Test
    void withoutSlosTheSearchIsRefusedBeforeAnythingRuns(@TempDir Path dir) {
        Runner runner = new Runner(RunOptions.builder().include(SimStudy.class, "baseline")
                .simulate(EngineParams.Simulate.VIRTUAL).capacity().outputDir(dir).progress(false).build(),
                new PrintWriter(new StringWriter(), true));
        org.assertj.core.api.Assertions.assertThatThrownBy(runner::run).isInstanceOf(RunnerException.class)
                .hasMessageContaining("--capacity needs SLOs for").hasMessageContaining("--slo");
    }

    @Test
    void aTunerThatRanksByCapacityKeepsTheBaselineOverAConfigurationThatSaturatesEarly(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        RunOutcome outcome = new Runner(RunOptions.builder().include(CapacityTunedStudy.class)
                .simulate(EngineParams.Simulate.VIRTUAL).outputDir(dir).progress(false).build(), new PrintWriter(out, true)).run();
        var tuning = outcome.result().tuning();
        assertThat(tuning.metric()).isEqualTo("Capacity under SLOs (req/s)");
        var group = tuning.steps().get(1);
        assertThat(group.name()).isEqualTo("max-num-seqs");
        // eight sequences at a time queue everything else: its capacity is far below the baseline's
        assertThat(group.candidates().get(1).mean()).isLessThan(group.candidates().get(0).mean() / 2);
        assertThat(group.candidates().get(1).verdict()).isEqualTo(io.servebench.results.TuningResult.Verdict.WORSE);
        assertThat(tuning.recommended()).isEqualTo("baseline");
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("by Capacity under SLOs (req/s)");
    }
}
