package io.servebench.reports;

import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.Distribution;
import io.servebench.results.Fixtures;
import io.servebench.results.RepetitionResult;
import io.servebench.results.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryMarkdownWriterTest {

    private static BlockResult baseline(List<RepetitionResult> reps, String rate) {
        return Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, rate, reps);
    }

    private static BlockResult prefixCaching(List<RepetitionResult> reps, String rate) {
        return Fixtures.trial("prefixCaching", "prefix-caching", false, Fixtures.BASE_FLAGS + " --enable-prefix-caching",
                rate, reps);
    }

    /**
     * A quantile of the engine's own histogram is written with the bucket it lies in: the histogram knows no more, and
     * the value between is interpolation; a value its sum makes exact (0) is written alone.
     */
    @Test
    void aServerQuantileSaysTheBucketItLiesIn() {
        java.util.Map<String, Double> server = new java.util.LinkedHashMap<>();
        server.put(io.servebench.results.ServerMetric.TTFT_P99.id(), 66.06);
        server.put(io.servebench.results.ServerMetric.bucketKey(io.servebench.results.ServerMetric.TTFT_P99, false), 60.0);
        server.put(io.servebench.results.ServerMetric.bucketKey(io.servebench.results.ServerMetric.TTFT_P99, true), 80.0);
        server.put(io.servebench.results.ServerMetric.DELIVERY_LATENESS_P99.id(), 0.0);
        server.put(io.servebench.results.ServerMetric.bucketKey(io.servebench.results.ServerMetric.DELIVERY_LATENESS_P99, false), 0.0);
        server.put(io.servebench.results.ServerMetric.bucketKey(io.servebench.results.ServerMetric.DELIVERY_LATENESS_P99, true), 0.0);
        RepetitionResult r = Fixtures.repetition(2.62, 1.8);
        RepetitionResult withServer = new RepetitionResult(r.scalars(), r.distributions(), r.tokenEvents(),
                r.coalescedEvents(), r.outputTokenSources(), r.errorKinds(), server, r.notes());
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(List.of(baseline(List.of(withServer), "8"))));
        assertThat(md).contains("| P99 TTFT (ms) (server) | 66.06 (in its histogram's 60–80 bucket) |",
                "| P99 token delivery lateness (ms) (simulated engine) | 0 |");
    }

    @Test
    void blocksAtOnePointOfTheLoadThatDifferOtherwiseSayHow() {
        // two datasets at one rate: every place a block is named by its point read alike before
        List<BlockResult> blocks = new java.util.ArrayList<>();
        for (String dataset : List.of("synthetic:in=64,out=16", "synthetic-sharegpt")) {
            for (BlockResult b : List.of(baseline(List.of(Fixtures.repetition(2.0, 0.5)), "8"),
                    prefixCaching(List.of(Fixtures.repetition(1.8, 0.4)), "8"))) {
                Map<String, String> params = new LinkedHashMap<>(b.params());
                params.put("dataset", dataset);
                blocks.add(new BlockResult(b.benchmark(), b.className(), b.variant(), b.group(), b.baseline(), params,
                        b.trialId() + dataset, b.serverId(), b.repetitions(), null));
            }
        }
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(blocks));
        assertThat(md).contains("| VllmOptionGroups · rate 8 req/s · dataset=synthetic:in=64,out=16 | prefix-caching |",
                "| VllmOptionGroups · rate 8 req/s · dataset=synthetic-sharegpt | prefix-caching |",
                "### VllmOptionGroups.baseline · rate 8 req/s · dataset=synthetic-sharegpt\n",
                "| VllmOptionGroups.prefixCaching · dataset=synthetic:in=64,out=16 | prefix-caching | 8 |");
        // where they differ in nothing beside the load, a point is what it was
        String one = new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(blocks.subList(0, 2)));
        assertThat(one).contains("### VllmOptionGroups.baseline · rate 8 req/s\n").doesNotContain("dataset=");
    }

    @Test
    void aMultiTurnBlockPacesConversationsEvenWithNoRepetitionToShowIt() {
        // its rate is conversations per second; a block whose repetitions all failed has no turns to say so
        BlockResult failed = baseline(List.of(Fixtures.repetition(2.0, 0.5)), "2");
        Map<String, String> params = new LinkedHashMap<>(failed.params());
        params.put("dataset", "multi-turn:turns=3,in=128,out=64");
        BlockResult multiTurn = new BlockResult(failed.benchmark(), failed.className(), failed.variant(), failed.group(),
                failed.baseline(), params, failed.trialId(), failed.serverId(), List.of(), "engine exited with code 1");
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(List.of(multiTurn)));
        assertThat(md).contains("### VllmOptionGroups.baseline · rate 2 conversations/s\n").doesNotContain("rate 2 req/s");
        // the unit the JUnit engine's failure messages state
        assertThat(multiTurn.rateUnit()).isEqualTo("conversations/s");
        assertThat(failed.rateUnit()).isEqualTo("req/s");
    }

    /**
     * A multi-turn load's rate counts conversations wherever the reports state a rate: the overview's column, the load
     * chart's axis, a capacity search along it, a tuner's point and its caveats; a run that mixes the two says both.
     */
    @Test
    void aRateOfConversationsIsStatedInConversationsEverywhere() {
        List<BlockResult> blocks = new java.util.ArrayList<>();
        for (String rate : List.of("1", "2")) {
            BlockResult b = baseline(List.of(Fixtures.repetition(2.0, 0.5)), rate);
            Map<String, String> params = new LinkedHashMap<>(b.params());
            params.put("dataset", "multi-turn:turns=3,in=128,out=64");
            blocks.add(new BlockResult(b.benchmark(), b.className(), b.variant(), b.group(), b.baseline(), params,
                    b.trialId(), b.serverId(), b.repetitions(), null));
        }
        io.servebench.results.CapacityResult capacity = new io.servebench.results.CapacityResult("S.v", "ttft=200", 0.99,
                io.servebench.results.CapacityResult.Axis.CONVERSATION_RATE, List.of(
                new io.servebench.results.CapacityResult.Probe(2, 100, 100, 0.96, 1.0, 5.9, null),
                new io.servebench.results.CapacityResult.Probe(4, 60, 100, 0.5, 0.69, 7.1, null)), 2, 2, 4);
        io.servebench.results.TuningResult tuning = new io.servebench.results.TuningResult("VllmOptionGroups", "latency",
                2, 0, List.of(), "baseline", List.of(), List.of(io.servebench.results.Caveat.of(
                io.servebench.results.Caveat.Code.NOTHING_BETTER, "2")), 1.05, 5);
        RunResult base = Fixtures.run(blocks);
        RunResult run = new RunResult(base.startTime(), base.servebenchVersion(), base.commandLine(), base.engines(),
                base.quick(), blocks, List.of(), tuning, List.of(capacity));
        for (String report : List.of(new SummaryMarkdownWriter(ReportLanguage.EN).render(run),
                new HtmlReportWriter(ReportLanguage.EN).render(run))) {
            // (a figure of requests, such as request throughput, stays in req/s)
            assertThat(report).doesNotContain("Rate (req/s)").doesNotContain(" 2 req/s").doesNotContain("Request rate")
                    .contains("capacity 2.00 conversations/s (at least 2.00, below 4.00)", "was tuned at 2 conversations/s by",
                            "Nothing was significantly better than the baseline at 2 conversations/s");
        }
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(run)).contains("| Rate (conversations/s) |");
        assertThat(new HtmlReportWriter(ReportLanguage.EN).render(run)).contains("Conversation rate (conversations/s)",
                "Goodput against conversation rate");
        assertThat(capacity.describe()).isEqualTo("S.v 2.00 conversations/s");
        assertThat(new SummaryMarkdownWriter(ReportLanguage.ZH_CN).render(run)).contains("速率（conversations/s）");

        // beside a block of requests, the column says both
        List<BlockResult> mixed = new java.util.ArrayList<>(blocks);
        mixed.add(prefixCaching(List.of(Fixtures.repetition(2.0, 0.5)), "3"));
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(mixed)))
                .contains("| Rate (req/s; conversations/s for multi-turn blocks) |");
        // and a run of requests alone reads as it did
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(mixed.subList(2, 3))))
                .contains("| Rate (req/s) |");
    }

    @Test
    void aBlockPacedByNeitherRateNorStreamsIsHeadedByHowItSent() {
        List<BlockResult> blocks = new java.util.ArrayList<>();
        String[][] loads = {{"throughput", null}, {"throughput", "64"}, {"synchronous", null}, {"trace", null},
                {"sweep", "s1-synchronous"}};
        for (String[] load : loads) {
            java.util.Map<String, String> params = Fixtures.params(Fixtures.BASE_FLAGS, "8");
            params.remove("rate");
            params.put("profile", load[0]);
            if (load[0].equals("sweep")) {
                params.put(BlockResult.SWEEP_STEP, load[1]);
                load[1] = null;
                load[0] = "sweepStep";
            }
            if (load[1] != null) {
                params.put("maxConcurrency", load[1]);
            }
            String variant = load[0] + (load[1] == null ? "" : load[1]);
            blocks.add(new BlockResult(Fixtures.CLASS + "." + variant, Fixtures.CLASS, variant, "", false, params, variant,
                    "s1", List.of(Fixtures.repetition(2.0, 0.5)), null));
        }
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(blocks));
        assertThat(md).contains(".throughput · all at once\n", ".throughput64 · all at once, at most 64 in flight\n",
                ".synchronous · one at a time\n", ".trace · at the trace's times\n", ".sweepStep[s1-synchronous] · one at a time\n")
                .doesNotContain("concurrency —");
        assertThat(new SummaryMarkdownWriter(ReportLanguage.ZH_CN).render(Fixtures.run(blocks))).contains("全部同时发出");
        // the overview's load column says the same where no block has a rate to show
        assertThat(md).contains("| Block | Group | Load | Mean latency (s)").containsPattern(
                "\\| VllmOptionGroups\\.throughput64 \\| [^|]* \\| all at once, at most 64 in flight \\|");
    }

    @Test
    void blocksOfOneNameAtSeveralRatesAreToldApartInTheTablesByTurn() {
        List<BlockResult> blocks = new java.util.ArrayList<>();
        for (String rate : List.of("4", "8")) {
            RepetitionResult r = Fixtures.repetition(2.0, 0.5).withTurns(java.util.Map.of("1", Fixtures.repetition(1.0, 0.2),
                    "2", Fixtures.repetition(1.5, 0.2)));
            blocks.add(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, rate, List.of(r, r)));
            blocks.add(Fixtures.trial("other", "g", false, Fixtures.BASE_FLAGS + " --x", rate, List.of(r, r)));
        }
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(blocks));
        assertThat(md).contains("| Turn | baseline · rate 4 conversations/s | other · rate 4 conversations/s"
                + " | baseline · rate 8 conversations/s | other · rate 8 conversations/s |")
                .contains("| Turn | other against baseline · rate 4 conversations/s | other against baseline · rate 8"
                        + " conversations/s |");
    }

    @Test
    void aCapacityNoRateTriedMissedIsStatedAsALowerBound() {
        List<io.servebench.results.CapacityResult.Probe> probes = List.of(
                new io.servebench.results.CapacityResult.Probe(256, 100, 100, 0.96, 1.0, 250, null),
                new io.servebench.results.CapacityResult.Probe(512, 100, 100, 0.96, 1.0, 500, null));
        io.servebench.results.CapacityResult always = new io.servebench.results.CapacityResult("S.v", "ttft=200", 0.99,
                io.servebench.results.CapacityResult.Axis.RATE, probes, 512, 0, Double.POSITIVE_INFINITY);
        RunResult base = Fixtures.run(List.of());
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(new RunResult(base.startTime(),
                base.servebenchVersion(), base.commandLine(), base.engines(), base.quick(), List.of(), List.of(), null,
                List.of(always)));
        assertThat(md).contains("**S.v**: at least 512.00 req/s: every rate tried met the target (99% of requests within"
                + " ttft=200), so the capacity lies above the highest rate the search reached").doesNotContain("capacity 512");
    }

    /**
     * A tuner or capacity search interrupted between its rounds has every block it asked for complete: the summary says
     * it stopped before deciding rather than nothing (before stop 70 it said nothing).
     */
    @Test
    void aSearchInterruptedBeforeItDecidedIsSaidToBeIncomplete() {
        RunResult base = Fixtures.run(List.of(baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8")));
        RunResult stopped = new RunResult(base.startTime(), base.servebenchVersion(), base.commandLine(), base.engines(),
                base.quick(), base.blocks(), List.of(), null, List.of(), true);
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(stopped)).contains("- **This run is incomplete: it"
                + " was interrupted before its tuner or capacity search decided, so there is no recommendation or capacity;"
                + " 1 of the 1 trials it had asked for are complete, and --resume DIR replays the search on them and goes"
                + " on.**");
        assertThat(new SummaryMarkdownWriter(ReportLanguage.ZH_CN).render(stopped)).contains("它已请求的 1 个试验中 1 个完成");
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(base)).doesNotContain("This run is incomplete");
    }

    /** A search over a closed loop's streams says streams where a rate search says req/s, and counts them whole. */
    @Test
    void aCapacityInStreamsIsStatedInStreams() {
        List<io.servebench.results.CapacityResult.Probe> probes = List.of(
                new io.servebench.results.CapacityResult.Probe(16, 200, 200, 0.98, 1.0, 6.1, null),
                new io.servebench.results.CapacityResult.Probe(23, 199, 200, 0.97, 1.0, 8.0, null),
                new io.servebench.results.CapacityResult.Probe(32, 150, 200, 0.69, 0.80, 7.2, null));
        io.servebench.results.CapacityResult streams = new io.servebench.results.CapacityResult("S.v", "ttft=200", 0.99,
                io.servebench.results.CapacityResult.Axis.CONCURRENCY, probes, 23, 16, 32);
        RunResult base = Fixtures.run(List.of());
        RunResult run = new RunResult(base.startTime(), base.servebenchVersion(), base.commandLine(), base.engines(),
                base.quick(), List.of(), List.of(), null, List.of(streams));
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(run))
                .contains("**S.v**: capacity 23 streams (at least 16, below 32) for 99% of requests within ttft=200.")
                .contains("| Concurrency (streams) | Met / measured |").contains("| 23 | 199 / 200 | 99.5% |");
        // the configuration in bold in both: markdown's asterisks in the summary, an element in the HTML (whose
        // paragraph showed the asterisks before stop 70)
        assertThat(new HtmlReportWriter(ReportLanguage.EN).render(run)).contains("Goodput against concurrency")
                .doesNotContain("Goodput against request rate").doesNotContain("**S.v**")
                .contains("<p><strong>S.v</strong>: capacity 23 streams (at least 16, below 32)");
        assertThat(new SummaryMarkdownWriter(ReportLanguage.ZH_CN).render(run))
                .contains("**S.v**：容量 23 个流（至少 16，低于 32），99% 的请求满足 ttft=200。");
    }

    @Test
    void oneRepetitionComparesPerRequestDistributionsAndCallsNoiseNoise() {
        // the reference study's prefix-caching result: 2.62 s vs 2.69 s, per-request stdev ~1.8 s, 1000 requests
        RunResult run = Fixtures.run(List.of(baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8"),
                prefixCaching(List.of(Fixtures.repetition(2.69, 1.8)), "8")));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);

        assertThat(md).contains("- **prefix-caching**: baseline = 2.62 s, prefixCaching = 2.69 s, "
                + "difference +0.07 s (1.03x slower); 1.03x slower [");
        assertThat(md).contains("] — undecided: run-to-run noise was not measured, so the interval below, of within-run"
                + " noise only, decides nothing (bootstrap on per-request latencies of 1000 vs 1000 "
                + "requests, 1 repetition, 2000 seeded resamples from the latency histograms, p = ");
        assertThat(md).contains("within-run noise only");
        // the fixture's histogram has a relative stdev of 0.354: half-width ≈ 1.96 · 1.027 · sqrt(2 · 0.125 / 1000) = 0.032
        assertThat(md).containsPattern("\\| prefixCaching = 2\\.69 s \\| baseline = 2\\.62 s \\| undecided: run-to-run noise"
                + " not measured \\(1\\.03x slower \\[(0\\.99|1\\.00), 1\\.0[5-7]], p = 0\\.\\d{3}, within-run noise\\) \\|");
    }

    @Test
    void aLargeDifferenceWithinOneRunIsUndecidedAndFasterIsStatedAsFaster() {
        RunResult run = Fixtures.run(List.of(baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8"),
                Fixtures.trial("languageModelOnly", "spec", false, Fixtures.BASE_FLAGS + " --language-model-only", "8",
                        List.of(Fixtures.repetition(2.32, 1.5)))));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);

        assertThat(md).contains("baseline = 2.62 s, languageModelOnly = 2.32 s, difference -0.30 s (1.13x faster); "
                + "1.13x faster [1.09, 1.17]");
        // 1.13x with p < 0.001 within the run, yet one repetition a side measured no run-to-run noise: no verdict
        assertThat(md).contains("] — undecided: run-to-run noise was not measured, so the interval below, of within-run"
                + " noise only, decides nothing (bootstrap on per-request latencies");
        assertThat(md).contains("p < 0.001");
        assertThat(md).doesNotContain("significant at 95%");
    }

    @Test
    void aNoteEveryRepetitionCarriesIsSaidOnceAndTheOthersNameTheirRepetitions() {
        RunResult run = Fixtures.run(List.of(baseline(List.of(
                Fixtures.repetition(2.60, 1.8).withNote("prompt tokens: the server's usage").withNote("3035 samples"),
                Fixtures.repetition(2.62, 1.8).withNote("prompt tokens: the server's usage").withNote("3008 samples"),
                Fixtures.repetition(2.64, 1.8).withNote("prompt tokens: the server's usage").withNote("3008 samples")),
                "8")));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);

        assertThat(md).contains("> **Note:** prompt tokens: the server's usage\n").doesNotContain("repetition 1: prompt")
                .contains("> **Note:** repetition 1: 3035 samples").contains("> **Note:** repetitions 2, 3: 3008 samples");
    }

    @Test
    void severalRepetitionsCompareRepetitionMeans() {
        RunResult run = Fixtures.run(List.of(
                baseline(List.of(Fixtures.repetition(2.60, 1.8), Fixtures.repetition(2.62, 1.8),
                        Fixtures.repetition(2.64, 1.8)), "8"),
                prefixCaching(List.of(Fixtures.repetition(2.68, 1.8), Fixtures.repetition(2.69, 1.8),
                        Fixtures.repetition(2.70, 1.8)), "8")));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);

        // rep means 2.62 ± 0.02 vs 2.69 ± 0.01: t = 0.07 / sqrt(0.0004/3 + 0.0001/3) = 5.42, df = 2.94, p = 0.0130 (scipy)
        // log-scale Welch interval (scipy): ratio 1.0267 [1.0105, 1.0432], df = 2.90, p = 0.0137
        assertThat(md).contains("difference +0.07 s (1.03x slower); 1.03x slower [1.01, 1.04] — significant at 95% "
                + "(Welch interval on the log ratio of the mean latencies of 3 vs 3 repetitions, p = 0.014; run-to-run noise)");
        assertThat(md).contains("| 1.03x slower [1.01, 1.04], significant (p = 0.014, run-to-run noise) |");
        // the table shows mean ± 99.9% error with 3 repetitions: t(0.9995, 2) × 0.02 / √3 = 31.599 × 0.02 / √3 =
        // 0.3649, to the mean's decimals as JMH prints a score's error
        assertThat(md).contains("| Mean Latency(s) | 2.62 ± 0.36 |");
    }

    @Test
    void repetitionsWithoutSpreadDecideNothing() {
        // a deterministic engine replaying the same requests: three identical repetitions a side, 1.10x apart
        RunResult run = Fixtures.run(List.of(
                baseline(List.of(Fixtures.repetition(2.62, 1.8), Fixtures.repetition(2.62, 1.8),
                        Fixtures.repetition(2.62, 1.8)), "8"),
                prefixCaching(List.of(Fixtures.repetition(2.64, 1.8), Fixtures.repetition(2.64, 1.8),
                        Fixtures.repetition(2.64, 1.8)), "8")));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);

        // 0.8% apart with a per-request stdev of 1.8 s over 3000 pooled requests: the bootstrap cannot tell
        assertThat(md).containsPattern("\\| prefixCaching = 2\\.64 s \\| baseline = 2\\.62 s \\| undecided: run-to-run"
                + " noise not measured \\(1\\.01x slower \\[0\\.9\\d, 1\\.0\\d], p = 0\\.\\d{3}, within-run noise: repetitions without spread\\) \\|");
        assertThat(md).contains("(bootstrap on per-request latencies of 3000 vs 3000 requests, 3 repetitions pooled")
                .contains("the 3 repetitions of each side gave exactly the same mean, so they measured no run-to-run noise")
                .doesNotContain("Welch interval on the log ratio");
    }

    @Test
    void comparisonsAreMadePerWorkloadPoint() {
        RunResult run = Fixtures.run(List.of(
                baseline(List.of(Fixtures.repetition(2.09, 1.0)), "1"),
                baseline(List.of(Fixtures.repetition(2.62, 1.0)), "8"),
                prefixCaching(List.of(Fixtures.repetition(1.65, 1.0)), "1"),
                prefixCaching(List.of(Fixtures.repetition(2.32, 1.0)), "8")));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);

        String atOne = md.substring(md.indexOf("## VllmOptionGroups at model = Qwen/Qwen3.5-9B, profile = constant, "
                + "rate = 1, requests = 1000"));
        assertThat(atOne).contains("baseline = 2.09 s, prefixCaching = 1.65 s, difference -0.44 s (1.27x faster)");
        assertThat(md).contains("baseline = 2.62 s, prefixCaching = 2.32 s, difference -0.30 s (1.13x faster)");
        assertThat(md).doesNotContain("baseline = 2.09 s, prefixCaching = 2.32 s");
    }

    @Test
    void blockTableFollowsTheReferenceOrderAndShowsAbsentAsDash() {
        RepetitionResult rep = Fixtures.repetition(2.62, 1.8);
        Map<String, Double> scalars = new LinkedHashMap<>(rep.scalars());
        scalars.remove(Metric.PEAK_OUTPUT_THROUGHPUT.id());
        Map<String, Distribution> dists = new LinkedHashMap<>(rep.distributions());
        dists.remove(Metric.TPOT.id());
        RepetitionResult partial = new RepetitionResult(scalars, dists, rep.tokenEvents(), 150_000, rep.outputTokenSources(),
                Map.of("timeout", 2L));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(Fixtures.run(List.of(baseline(List.of(partial), "8"))));

        String[] order = {"| Successful requests | 1000 |", "| Maximum request concurrency |", "| Benchmark duration (s) | 130.18 |",
            "| Total input tokens | 342058 |", "| Total generated tokens | 281412 |", "| Request throughput (req/s) | 7.68 |",
            "| Output token throughput (tok/s) | 2197.17 |", "| Peak output token throughput (tok/s) | — |",
            "| Peak concurrent requests | 31 |", "| Total Token throughput (tok/s) | 4867.84 |",
            "| Mean Latency(s) | 2.62 |", "| Median Latency(s) |", "| P95 Latency(s) |", "| P99 Latency(s) |",
            "| Mean TTFT (ms) | 41.12 |", "| Median TTFT (ms) |", "| P95 TTFT (ms) |", "| P99 TTFT (ms) |",
            "| Mean TPOT (ms) | — |", "| Median TPOT (ms) | — |", "| P95 TPOT (ms) | — |", "| P99 TPOT (ms) | — |",
            "| Mean ITL (ms) | 9.00 |", "| Median ITL (ms) |", "| P95 ITL (ms) |", "| P99 ITL (ms) |",
            "| Failed requests | 0 |"};
        int at = md.indexOf("## Result blocks");
        assertThat(at).isPositive();
        for (String row : order) {
            int next = md.indexOf(row, at);
            assertThat(next).as(row).isGreaterThan(at);
            at = next;
        }
        assertThat(md).contains("| Errors | timeout 2 |");
        assertThat(md).contains("> **Warning:** 75% of token events arrived in the same network read");
        // one configuration: nothing compared, and no empty sections before the overview
        assertThat(md).contains("- One configuration at each workload point: nothing to compare, so no optimization"
                + " summary or comparisons; the overview below has the figures.")
                .doesNotContain("## Optimization summary", "## Comparisons with the baseline", "Only the baseline ran");
    }

    @Test
    void vllmLayoutBlock() {
        String text = VllmBenchLayout.of(baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8"));

        assertThat(text).startsWith("============ Serving Benchmark Result ============\n"
                + "Successful requests:                     1000\n");
        assertThat(text).contains("Total Token throughput (tok/s):          4867.84\n"
                + "---------------Time to First Token----------------\n"
                + "Mean TTFT (ms):                          41.12\n");
        assertThat(text).contains("-----Time per Output Token (excl. 1st token)------\n");
        assertThat(text).contains("----------------End-to-end Latency----------------\nMean E2EL (ms):                          2620.00\n");
        assertThat(text).endsWith("==================================================\n");
    }

    @Test
    void runInfoFailedTrialAndFile(@TempDir Path dir) throws Exception {
        BlockResult failed = new BlockResult(Fixtures.CLASS + ".sglang", Fixtures.CLASS, "sglang", "engine", false,
                Fixtures.params("--context-length=32768", "8"), "sglang@8", "s9", List.of(), "readiness timed out; see logs/s9.log");
        RunResult run = Fixtures.run(List.of(baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8"), failed));
        Path file = dir.resolve("summary.md");
        new SummaryMarkdownWriter(ReportLanguage.EN).write(run, file);
        String md = Files.readString(file);

        assertThat(md).startsWith("# ServeBench results\n");
        assertThat(md).contains("- Command line: `servebench run --rate 8`", "- Engines: the simulated engine in real time, in the harness (--simulate)",
                "- Benchmark: `" + Fixtures.CLASS + ".baseline`", "**The trial failed: readiness timed out; see logs/s9.log.**",
                "- **This run is incomplete: 1 of 2 trials complete, 1 failed, 0 interrupted, 0 not run.",
                "- **engine**: sglang: no latency results (readiness timed out; see logs/s9.log)",
                "| VllmOptionGroups · rate 8 req/s | engine | sglang | baseline = 2.62 s | no latency results |");
        // the decision, then comparisons, then the overview, then the blocks
        assertThat(md.indexOf("## Optimization summary")).isLessThan(md.indexOf("## Comparisons with the baseline"));
        assertThat(md.indexOf("## Comparisons with the baseline")).isLessThan(md.indexOf("## Overview"));
        assertThat(md.indexOf("## Overview")).isLessThan(md.indexOf("## Result blocks"));
    }

    @Test
    void serverEnvironmentsAreListedWithSecretsAlreadyMasked() {
        io.servebench.results.ServerEnvironment gpu = new io.servebench.results.ServerEnvironment("s01-vllm-ab12", "vllm", "0.17.1",
                "Qwen/Qwen3.5-9B", "vllm serve Qwen/Qwen3.5-9B --api-key ***", List.of("NVIDIA H100 80GB HBM3, 81559 MiB, 570.86.15"),
                "Intel Xeon, 26 logical cores", "gpu-host", "Linux 6.1 amd64", "Debian 17.0.15", "0.1.0", "2026-03-01T12:00:00Z", List.of(), List.of(), List.of());
        io.servebench.results.ServerEnvironment noGpu = new io.servebench.results.ServerEnvironment("s02-sim-cd34", "sim:vllm", "",
                "m", "", List.of(), "AMD EPYC, 2 logical cores", "vm", "Linux", "JDK 17", "0.1.0", "2026-03-01T12:00:00Z", List.of(), List.of(), List.of());
        RunResult base = Fixtures.run(List.of(baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8")));
        RunResult run = new RunResult(base.startTime(), base.servebenchVersion(), base.commandLine(), base.engines(), base.quick(),
                base.blocks(), List.of(gpu, noGpu));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);
        assertThat(md).contains("## Servers")
                .contains("| s01-vllm-ab12 | vllm | 0.17.1 | NVIDIA H100 80GB HBM3, 81559 MiB, 570.86.15 | Intel Xeon, 26 logical cores, "
                        + "gpu-host, Linux 6.1 amd64, Debian 17.0.15 | 0.1.0 | vllm serve Qwen/Qwen3.5-9B --api-key *** |")
                .contains("| s02-sim-cd34 | sim:vllm | — | none found (no nvidia-smi) |");
        assertThat(md.indexOf("## Servers")).isLessThan(md.indexOf("## Result blocks"));
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(base)).doesNotContain("## Servers");

        // a server started again alike (a tuner's later round) is one row that counts its starts
        RunResult again = new RunResult(base.startTime(), base.servebenchVersion(), base.commandLine(), base.engines(),
                base.quick(), base.blocks(), List.of(gpu, noGpu, gpu));
        String twice = new SummaryMarkdownWriter(ReportLanguage.EN).render(again);
        assertThat(twice).contains("| s01-vllm-ab12 (started 2 times) | vllm | 0.17.1 |").contains("| s02-sim-cd34 | sim:vllm |");
        assertThat(twice.split("s01-vllm-ab12", -1)).hasSize(2);
    }

    /**
     * The simulated engine's error bars on the first screen, a line per kind of set-up and load regime under the
     * engines' line, and in each block's table; in Chinese in a Chinese report, not the English of the evidence.
     */
    @Test
    void theTwinsErrorBarsAreListedUnderTheEnginesInTheReportsLanguage() {
        io.servebench.results.TwinBar paced = new io.servebench.results.TwinBar("vllm", "hybrid", "h100",
                io.servebench.results.TwinBar.Gpus.ONE, io.servebench.results.TwinBar.Regime.PACED, 0, 0, 0, 0, 0, 0,
                new io.servebench.results.TwinBar.HeldOut("Qwen/Qwen3.5-9B", 8, 6, 12, 0.392, 0.141));
        io.servebench.results.TwinBar unpaced = new io.servebench.results.TwinBar("vllm", "hybrid", "h100",
                io.servebench.results.TwinBar.Gpus.ONE, io.servebench.results.TwinBar.Regime.UNPACED, 2, 8, 0.214, 0.104, 7,
                1.314, null);
        io.servebench.results.TwinBar several = new io.servebench.results.TwinBar("sglang", "moe", "h100-pcie",
                io.servebench.results.TwinBar.Gpus.EXPERT_PARALLEL, io.servebench.results.TwinBar.Regime.UNPACED, 1, 4,
                0.2, 0.17, 1, 0.83, null);
        io.servebench.results.ServerEnvironment twin = new io.servebench.results.ServerEnvironment("s01-vllm-ab12",
                "sim:vllm", "", "Qwen/Qwen3.5-9B", "", List.of(), "AMD EPYC, 2 logical cores", "vm", "Linux", "JDK 17",
                "0.1.0", "2026-03-01T12:00:00Z", List.of(), List.of(paced, unpaced), List.of("--enforce-eager"));
        io.servebench.results.ServerEnvironment other = new io.servebench.results.ServerEnvironment("s02-sglang-cd34",
                "sim:sglang", "", "m", "", List.of(), "AMD EPYC, 2 logical cores", "vm", "Linux", "JDK 17", "0.1.0",
                "2026-03-01T12:00:00Z", List.of(), List.of(several), List.of());
        RunResult base = Fixtures.run(List.of(baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8")));
        RunResult run = new RunResult(base.startTime(), base.servebenchVersion(), base.commandLine(),
                io.servebench.results.EngineMode.VIRTUAL, base.quick(), base.blocks(), List.of(twin, other, twin));

        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);
        assertThat(md).contains("- Engines: the simulated engine in virtual time (--simulate=virtual) — a rehearsal, not a"
                + " measurement. How far the twin matched published results of the same kind:\n"
                + "  - vLLM, hybrid model, one H100, at a request rate: unvalidated, no published case of this kind,"
                + " but calibrated on this kind: the reference study (Qwen/Qwen3.5-9B) fitted at 8 req/s, its 6 blocks at other"
                + " rates held out and within ±39% (mean 14%) on mean latency and TTFT (12 figures)\n"
                + "  - vLLM, hybrid model, one H100, all at once or in a closed loop: within ±21% (mean 10%) on 2 published"
                + " cases of this kind (8 figures); the twin ran faster than published on 7 of 8 of them, a median 31% faster\n"
                + "  - not modelled, so the figures are as without them: --enforce-eager\n"
                + "  - SGLang, MoE model, several H100 PCIe with expert parallelism, all at once or in a closed loop: within"
                + " ±20% (mean 17%) on 1 published case of this kind (4 figures); the twin ran slower than published on 3"
                + " of 4 of them, a median 17% slower\n"
                + "- Quick mode: no");
        String html = new HtmlReportWriter(ReportLanguage.EN).render(run);
        assertThat(html).contains("<li>Engines: the simulated engine in virtual time (--simulate=virtual) — a rehearsal,"
                + " not a measurement. How far the twin matched published results of the same kind:\n<ul>\n<li>vLLM, hybrid"
                + " model, one H100, at a request rate: unvalidated");
        String zh = new SummaryMarkdownWriter(ReportLanguage.ZH_CN).render(run);
        assertThat(zh).contains("  - vLLM，混合模型，单卡 H100，按请求速率：未经验证，没有同类已发表案例；但已在此类配置上校准：参考研究"
                        + "（Qwen/Qwen3.5-9B）在 8 请求/秒下拟合，其他速率下的 6 个块留作检验，平均延迟和 TTFT 误差在 ±39% 以内"
                        + "（平均 14%，12 个数值）")
                .contains("  - SGLang，MoE 模型，多卡 H100 PCIe（专家并行），一次性全部发送或闭环：误差在 ±20% 以内（平均 17%），"
                        + "对照 1 个同类已发表案例（4 个数值）；孪生引擎在其中 3 个（共 4 个）数值上慢于已发表结果，中位数慢 17%")
                .doesNotContain("published").doesNotContain("unvalidated").doesNotContain("at a request rate");
    }

    /**
     * Each block states the bar of the regime it ran in: 1,000 requests at 8 req/s spread over 125 s, at a request
     * rate; the same at 1,000 req/s arrive in a second, a burst. The first screen lists the regimes the run's blocks ran
     * in, not the others.
     */
    @Test
    void aBlockStatesTheBarOfTheRegimeItRanIn() {
        io.servebench.results.TwinBar paced = new io.servebench.results.TwinBar("vllm", "dense", "h100",
                io.servebench.results.TwinBar.Gpus.ONE, io.servebench.results.TwinBar.Regime.PACED, 3, 12, 0.3, 0.1, 0, 0,
                null);
        io.servebench.results.TwinBar unpaced = new io.servebench.results.TwinBar("vllm", "dense", "h100",
                io.servebench.results.TwinBar.Gpus.ONE, io.servebench.results.TwinBar.Regime.UNPACED, 8, 32, 0.8, 0.4, 30,
                1.6, null);
        BlockResult atEight = baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8");
        io.servebench.results.ServerEnvironment twin = new io.servebench.results.ServerEnvironment(atEight.serverId(),
                "sim:vllm", "", "Qwen/Qwen3.5-9B", "", List.of(), "AMD EPYC, 2 logical cores", "vm", "Linux", "JDK 17",
                "0.1.0", "2026-03-01T12:00:00Z", List.of(), List.of(paced, unpaced), List.of());
        RunResult base = Fixtures.run(List.of(atEight));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(new RunResult(base.startTime(),
                base.servebenchVersion(), base.commandLine(), base.engines(), base.quick(), base.blocks(), List.of(twin)));
        assertThat(md).contains("  - vLLM, dense model, one H100, at a request rate: within ±30% (mean 10%) on 3 published"
                        + " cases of this kind (12 figures)\n- ")
                .contains("| The twin against published results | vLLM, dense model, one H100, at a request rate: within"
                        + " ±30% (mean 10%) on 3 published cases of this kind (12 figures) |")
                .doesNotContain("all at once or in a closed loop: within ±80%");

        BlockResult burst = baseline(List.of(Fixtures.repetition(2.62, 1.8)), "1000");
        String bursty = new SummaryMarkdownWriter(ReportLanguage.EN).render(new RunResult(base.startTime(),
                base.servebenchVersion(), base.commandLine(), base.engines(), base.quick(), List.of(burst), List.of(twin)));
        assertThat(bursty).contains("| The twin against published results | vLLM, dense model, one H100, all at once or in a"
                + " closed loop: within ±80% (mean 40%) on 8 published cases of this kind (32 figures); the twin ran faster"
                + " than published on 30 of 32 of them, a median 60% faster |")
                .doesNotContain("at a request rate: within ±30%");
    }

    @Test
    void aRecommendationThisRunDoesNotBearOutSaysWhatTheRunShowed() {
        BlockResult faster = new BlockResult(Fixtures.CLASS + ".mtp", Fixtures.CLASS, "mtp", "spec", false,
                Fixtures.params(Fixtures.BASE_FLAGS, "1"), "mtp@1", "s2", List.of(Fixtures.repetition(1.90, 0.1),
                Fixtures.repetition(1.91, 0.1), Fixtures.repetition(1.89, 0.1)), null, true,
                new io.servebench.results.ServeCommand("vllm serve m", "vLLM", false));
        BlockResult oneRepetition = new BlockResult(Fixtures.CLASS + ".mtp", Fixtures.CLASS, "mtp", "spec", false,
                Fixtures.params(Fixtures.BASE_FLAGS, "8"), "mtp@8", "s2", List.of(Fixtures.repetition(2.32, 1.5)), null,
                true, new io.servebench.results.ServeCommand("vllm serve m", "vLLM", false));
        RunResult run = Fixtures.run(List.of(
                baseline(List.of(Fixtures.repetition(2.09, 0.1), Fixtures.repetition(2.10, 0.1),
                        Fixtures.repetition(2.08, 0.1)), "1"),
                baseline(List.of(Fixtures.repetition(2.62, 1.8)), "8"), faster, oneRepetition));
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);
        assertThat(md).contains("VllmOptionGroups recommends **mtp**:")
                .contains("This run does not bear the study's @Recommended variant out at every workload point where it"
                        + " ran beside the baseline: significantly faster at 1 of 2; undecided at 1 (run-to-run noise not"
                        + " measured: run with -r 3 or more).");
        assertThat(new HtmlReportWriter(ReportLanguage.EN).render(run))
                .contains("significantly faster at 1 of 2; undecided at 1");
        assertThat(new SummaryMarkdownWriter(ReportLanguage.ZH_CN).render(run)).contains("2 个负载点中 1 个显著更快；1 个未定");

        // faster at every point: nothing to add
        RunResult borneOut = Fixtures.run(List.of(baseline(List.of(Fixtures.repetition(2.09, 0.1),
                Fixtures.repetition(2.10, 0.1), Fixtures.repetition(2.08, 0.1)), "1"), faster));
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(borneOut)).contains("recommends **mtp**")
                .doesNotContain("does not bear");
    }
}
