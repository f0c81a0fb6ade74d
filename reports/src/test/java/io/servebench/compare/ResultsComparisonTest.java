package io.servebench.compare;

import io.servebench.results.BlockResult;
import io.servebench.results.Fixtures;
import io.servebench.results.jmh.JmhBenchmark;
import io.servebench.results.jmh.JmhJsonReader;
import io.servebench.results.jmh.JmhJsonWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResultsComparisonTest {

    private static List<JmhBenchmark> written(List<BlockResult> trials) throws Exception {
        return new JmhJsonReader().readString(new JmhJsonWriter().toJson(Fixtures.run(trials)));
    }

    private static BlockResult baseline(String requests, double... means) {
        BlockResult t = Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8",
                java.util.Arrays.stream(means).mapToObj(m -> Fixtures.repetition(m, 1.8)).toList());
        java.util.Map<String, String> params = new java.util.LinkedHashMap<>(t.params());
        params.put("requests", requests);
        return new BlockResult(t.benchmark(), t.className(), t.variant(), t.group(), true, params, t.trialId(), t.serverId(),
                t.repetitions(), null);
    }

    @Test
    void aFileOfTheLayoutBeforeAxesIsComparedWithOneOfTheNewLayout() throws Exception {
        // written by ServeBench before its params were axes: every param encoded, secondary metrics without the prefix
        Path old = Path.of(ResultsComparisonTest.class.getResource("/layout-before-axes/results.json").toURI());
        List<JmhBenchmark> before = new JmhJsonReader().read(old);
        assertThat(before).hasSize(2);
        assertThat(before.get(0).params()).containsEntry("flags", "max-model-len:32768;reasoning-parser:qwen3");
        // the same blocks as this build writes them
        List<BlockResult> blocks = before.stream().map(e -> new BlockResult(e.benchmark(),
                e.benchmark().substring(0, e.benchmark().lastIndexOf('.')), e.benchmark().substring(e.benchmark().lastIndexOf('.') + 1),
                "engine-selection", e.benchmark().endsWith(".vllm"), e.decodedParams(), "t", "s",
                List.of(Fixtures.repetition(e.primaryMetric().score() * 1.01, 1.8)), null)).toList();
        List<JmhBenchmark> after = written(blocks);
        // the engine is the variant's own: its name says it, and the study has no axis
        assertThat(after.get(0).params()).isEmpty();
        assertThat(after.get(0).allParams()).containsEntry("flags", "--max-model-len=32768 --reasoning-parser=qwen3");

        ResultsComparison.Result r = ResultsComparison.compare(before, after, List.of(ResultsComparison.PRIMARY, "ttft.p99"));
        assertThat(r.matches()).hasSize(2);
        assertThat(r.onlyInA()).isEmpty();
        assertThat(r.onlyInB()).isEmpty();
        assertThat(r.matches().get(0).rows()).extracting(ResultsComparison.Row::metric).containsExactly("latency", "ttft.p99");
        assertThat(r.matches().get(0).rows().get(0).change()).isCloseTo(0.01, org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    void repetitionsGiveAVerdictAndARegressionBeyondTheThreshold() throws Exception {
        List<JmhBenchmark> a = written(List.of(baseline("1000", 2.60, 2.62, 2.64)));
        List<JmhBenchmark> b = written(List.of(baseline("200", 2.78, 2.80, 2.82)));
        ResultsComparison.Result r = ResultsComparison.compare(a, b, List.of(ResultsComparison.PRIMARY, "output_throughput"));

        assertThat(r.matches()).hasSize(1).allSatisfy(m -> assertThat(m.params()).doesNotContainKey("requests"));
        ResultsComparison.Row latency = r.matches().get(0).rows().get(0);
        assertThat(latency.change()).isCloseTo(0.18 / 2.62, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(latency.method()).isEqualTo("Welch interval on 3 vs 3 fork values");
        assertThat(latency.verdict()).startsWith("worse [");
        assertThat(latency.decided()).isTrue();
        assertThat(latency.regressed(0.05, false)).isTrue();
        assertThat(latency.regressed(0.10, false)).isFalse();
        // the same throughput on both sides, 3 forks each: no change, and it is "higher is better"
        ResultsComparison.Row throughput = r.matches().get(0).rows().get(1);
        assertThat(throughput.better()).isEqualTo(ResultsComparison.Better.HIGHER);
        assertThat(throughput.regressed(0.0, false)).isFalse();
    }

    @Test
    void forksWithoutSpreadAreNotAVerdictOnRunToRunNoise() throws Exception {
        // three identical forks a side, 4% apart: they measured no run-to-run noise, so the histograms decide
        List<JmhBenchmark> a = written(List.of(baseline("1000", 2.62, 2.62, 2.62)));
        List<JmhBenchmark> b = written(List.of(baseline("1000", 2.72, 2.72, 2.72)));
        ResultsComparison.Result r = ResultsComparison.compare(a, b, List.of(ResultsComparison.PRIMARY, "output_throughput"));

        ResultsComparison.Row latency = r.matches().get(0).rows().get(0);
        assertThat(latency.method()).isEqualTo("bootstrap on 3000 vs 3000 samples, within-run noise only: the forks'"
                + " values do not vary, so they measured no run-to-run noise");
        assertThat(latency.estimate().high() - latency.estimate().low()).isGreaterThan(0.01);
        // a 3.8% rise the bootstrap calls significant within one run: undecided, and no regression unless asked
        assertThat(latency.decided()).isFalse();
        assertThat(latency.verdict()).startsWith("undecided: run-to-run noise not measured (within one run: worse [");
        assertThat(latency.regressed(0.01, false)).isFalse();
        assertThat(latency.regressed(0.01, true)).isTrue();
        ResultsComparison.Row throughput = r.matches().get(0).rows().get(1);
        assertThat(throughput.estimate()).isNull();
        assertThat(throughput.method()).isEqualTo("not tested: the forks' values do not vary, so they measured no "
                + "run-to-run noise");
    }

    @Test
    void oneRepetitionBootstrapsThePrimaryAndLeavesSecondariesUntested() throws Exception {
        ResultsComparison.Result r = ResultsComparison.compare(written(List.of(baseline("1000", 2.62))),
                written(List.of(baseline("1000", 2.69))), List.of());
        ResultsComparison.Row latency = r.matches().get(0).rows().get(0);
        assertThat(latency.method()).isEqualTo("bootstrap on 1000 vs 1000 samples, within-run noise only: fewer than 2"
                + " forks on a side (1 vs 1): no run-to-run noise measured");
        assertThat(latency.verdict()).startsWith("undecided: run-to-run noise not measured (within one run: no"
                + " significant difference [");
        // a 2.7% rise that may be noise is no regression at 1%, even when within-run intervals are accepted
        assertThat(latency.regressed(0.01, false)).isFalse();
        assertThat(latency.regressed(0.01, true)).isFalse();
        ResultsComparison.Row ttft = r.matches().get(0).rows().stream().filter(x -> x.metric().equals("ttft.mean"))
                .findFirst().orElseThrow();
        assertThat(ttft.verdict()).isEqualTo("not tested");
        // a secondary metric with no interval fails on its change alone only when asked
        assertThat(ttft.regressed(0.001, false)).isFalse();
    }

    @Test
    void oneRepetitionAgainstThreeDecidesNothing() throws Exception {
        // the run: -r 1 against -r 3 of one configuration; their first repetitions are the same run (3.936 s),
        // the other two landed at 5.82 s and 4.87 s: a 23.9% rise that is only the spread between repetitions
        List<JmhBenchmark> one = written(List.of(baseline("1000", 3.936)));
        List<JmhBenchmark> three = written(List.of(baseline("1000", 3.936, 5.82, 4.87)));
        ResultsComparison.Row latency = ResultsComparison.compare(one, three, List.of(ResultsComparison.PRIMARY))
                .matches().get(0).rows().get(0);
        assertThat(latency.change()).isCloseTo((3.936 + 5.82 + 4.87) / 3 / 3.936 - 1, org.assertj.core.api.Assertions.within(1e-3));
        assertThat(latency.decided()).isFalse();
        assertThat(latency.verdict()).startsWith("undecided: run-to-run noise not measured");
        assertThat(latency.regressed(0.05, false)).isFalse();
    }

    @Test
    void unmatchedEntriesAreListed() throws Exception {
        BlockResult rate4 = Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "4", List.of(Fixtures.repetition(2, 1)));
        ResultsComparison.Result r = ResultsComparison.compare(written(List.of(rate4)), written(List.of(baseline("1000", 2))),
                List.of());
        assertThat(r.matches()).isEmpty();
        assertThat(r.onlyInA()).singleElement().asString().contains("rate=4");
        assertThat(r.onlyInB()).singleElement().asString().contains("rate=8");
    }

    @Test
    void entriesApartInAParamTheComparisonLeavesOutAreMatchedAndTheirDifferenceSaid() throws Exception {
        List<JmhBenchmark> a = written(List.of(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "4",
                List.of(Fixtures.repetition(2, 1)))));
        List<JmhBenchmark> b = written(List.of(baseline("1000", 2)));
        // rate 4 against rate 8: nothing matches, and the nearest pair is apart in the rate alone
        assertThat(ResultsComparison.compare(a, b, List.of()).matches()).isEmpty();
        assertThat(ResultsComparison.nearestDifference(a, b, java.util.Set.of()))
                .containsExactly(new ResultsComparison.ParamDifference("rate", "4", "8"));
        assertThat(ResultsComparison.nearestDifference(a, b, java.util.Set.of()).get(0))
                .hasToString("rate: A `4`, B `8`");

        ResultsComparison.Result r = ResultsComparison.compare(a, b, List.of(ResultsComparison.PRIMARY),
                java.util.Set.of("rate"));
        assertThat(r.matches()).singleElement().satisfies(m -> {
            assertThat(m.params()).doesNotContainKey("rate");
            assertThat(m.differences()).contains(new ResultsComparison.ParamDifference("rate", "4", "8"));
        });
        assertThat(r.onlyInA()).isEmpty();
        assertThat(r.onlyInB()).isEmpty();
        // another benchmark is no near entry
        assertThat(ResultsComparison.nearestDifference(a, written(List.of(Fixtures.trial("other", "", false,
                Fixtures.BASE_FLAGS, "4", List.of(Fixtures.repetition(2, 1))))), java.util.Set.of())).isEmpty();
    }

    @Test
    void readsJmhsOwnOutput(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("jmh.json");
        new Runner(new OptionsBuilder().include(io.servebench.reports.jmhfixture.TinyBenchmark.class.getName() + ".sample")
                .forks(0).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(50))
                .result(out.toString()).resultFormat(ResultFormatType.JSON).build()).run();
        List<JmhBenchmark> jmh = new JmhJsonReader().read(out);
        assertThat(Files.size(out)).isPositive();
        ResultsComparison.Result r = ResultsComparison.compare(jmh, jmh, List.of(ResultsComparison.PRIMARY));
        ResultsComparison.Row row = r.matches().get(0).rows().get(0);
        assertThat(r.matches().get(0).params()).containsEntry("rate", "8");
        assertThat(row.better()).isEqualTo(ResultsComparison.Better.LOWER);
        assertThat(row.change()).isZero();
        assertThat(row.method()).startsWith("bootstrap on ");
        assertThat(row.verdict()).startsWith("undecided: run-to-run noise not measured (within one run: no significant"
                + " difference");
    }
}
