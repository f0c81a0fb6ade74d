package io.servebench.runner;

import io.servebench.compare.Comparison;
import io.servebench.engine.EngineParams;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.PrefixCacheReset;
import io.servebench.results.RepetitionResult;
import io.servebench.results.ServerMetric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Repetitions are independent samples: each draws its own requests, order and engine choices from a seed derived
 * from the run's, starts from an emptied prefix cache, and two repetitions that measured no spread decide nothing.
 */
class IndependentRepetitionsTest {

    private static RunOutcome run(RunOptions.Builder options, Path out) throws Exception {
        return new Runner(options.outputDir(out).progress(false).settle(java.time.Duration.ZERO).build(),
                new PrintWriter(new StringWriter(), true)).run();
    }

    private static double[] means(BlockResult block) {
        return block.repetitions().stream().mapToDouble(r -> r.distribution(Metric.E2E_LATENCY).orElseThrow().mean())
                .toArray();
    }

    @Test
    void repetitionsDifferAndTheSameSeedReproducesThem(@TempDir Path dir) throws Exception {
        RunOptions.Builder options = RunOptions.builder().include(SimStudy.class, "mtp2").param("rate", "8")
                .param("requests", "60").param("warmup", "0").repetitions(3).seed(7)
                .simulate(EngineParams.Simulate.VIRTUAL);
        double[] first = means(run(options, dir.resolve("a")).blocks("mtp2").get(0));
        double[] again = means(run(options, dir.resolve("b")).blocks("mtp2").get(0));

        assertThat(first).doesNotHaveDuplicates();
        assertThat(again).containsExactly(first);
        // another run seed, other samples; its first repetition draws from that seed as a one-repetition run would
        double[] other = means(run(options.seed(8), dir.resolve("c")).blocks("mtp2").get(0));
        assertThat(other[0]).isNotEqualTo(first[0]);
        double[] single = means(run(options.repetitions(1), dir.resolve("d")).blocks("mtp2").get(0));
        assertThat(single).containsExactly(other[0]);
    }

    @Test
    void everyRepetitionStartsFromAnEmptiedCache(@TempDir Path dir) throws Exception {
        // the control: one repetition that sends each of the 30 prompts twice finds the second sending cached
        BlockResult twice = run(RunOptions.builder().include(RepetitionStudy.class, "baseline").param("requests", "60")
                .simulate(EngineParams.Simulate.VIRTUAL), dir.resolve("twice")).blocks("baseline").get(0);
        assertThat(twice.repetitions().get(0).value(ServerMetric.PREFIX_CACHE_HIT_RATE).orElseThrow()).isGreaterThan(0.4);

        for (EngineParams.Simulate mode : List.of(EngineParams.Simulate.VIRTUAL, EngineParams.Simulate.IN_PROCESS)) {
            BlockResult block = run(RunOptions.builder().include(RepetitionStudy.class, "baseline").repetitions(3)
                    .simulate(mode), dir.resolve(mode.name())).blocks("baseline").get(0);
            List<RepetitionResult> reps = block.repetitions();
            assertThat(reps).hasSize(3);
            for (RepetitionResult r : reps) {
                assertThat(r.cacheReset()).as(mode + " " + r.cacheReset()).isNotNull()
                        .extracting(PrefixCacheReset::outcome).isEqualTo(PrefixCacheReset.Outcome.EMPTIED);
                // the same 30 prompts as the repetition before: nothing of them was left in the cache
                assertThat(r.value(ServerMetric.PREFIX_CACHE_HIT_RATE).orElseThrow()).as(mode.name()).isLessThan(0.05);
            }
            // in real time over HTTP, with the simulated engine's own route
            assertThat(reps.get(1).cacheReset().detail()).isEqualTo(mode == EngineParams.Simulate.VIRTUAL
                    ? "the virtual engine's cache cleared" : "POST /reset_prefix_cache");
        }
    }

    @Test
    void repetitionsWithoutSpreadAreNotCalledSignificant(@TempDir Path dir) throws Exception {
        // a deterministic engine sent the same 30 requests in one order each time: each side's repetitions agree to
        // the last digit, whatever the seed, so only the within-run bootstrap can say anything
        StringBuilder trace = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            trace.append(String.format("{\"timestamp\": %d, \"input_length\": 300, \"output_length\": 20, \"hash_ids\": [%d]}%n",
                    10 * i, i));
        }
        Path file = Files.writeString(dir.resolve("trace.jsonl"), trace);
        RunOutcome outcome = run(RunOptions.builder().include(RepetitionStudy.class).param("dataset", "trace:" + file)
                .param("profile", "trace").repetitions(3).simulate(EngineParams.Simulate.VIRTUAL), dir.resolve("run"));

        BlockResult baseline = outcome.blocks("baseline").get(0);
        BlockResult fewSlots = outcome.blocks("fewSlots").get(0);
        assertThat(means(baseline)).containsOnly(means(baseline)[0]);
        assertThat(means(fewSlots)).containsOnly(means(fewSlots)[0]);
        assertThat(means(fewSlots)[0]).isGreaterThan(means(baseline)[0]);
        for (Comparison c : List.of(Comparison.of(baseline, fewSlots), Comparison.of(baseline, fewSlots, Metric.TTFT, Stat.P99))) {
            assertThat(c.method()).isEqualTo(Comparison.Method.BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD);
        }
        assertThat(Files.readString(dir.resolve("run").resolve("summary.md")))
                .contains("within-run noise: repetitions without spread")
                .doesNotContain("Welch interval on the log ratio");
    }
}
