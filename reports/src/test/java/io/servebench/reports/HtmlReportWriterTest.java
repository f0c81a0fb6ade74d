package io.servebench.reports;

import io.servebench.results.BlockResult;
import io.servebench.results.Fixtures;
import io.servebench.results.RepetitionResult;
import io.servebench.results.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HtmlReportWriterTest {

    /** Baseline and a variant at two rates, three repetitions each: every chart kind has data. */
    static RunResult twoRatesThreeRepetitions() {
        List<BlockResult> trials = new java.util.ArrayList<>();
        for (String rate : List.of("4", "8")) {
            double base = "4".equals(rate) ? 2.3 : 2.6;
            trials.add(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, rate, reps(base, 1.8)));
            trials.add(new BlockResult(Fixtures.CLASS + ".mtp", Fixtures.CLASS, "mtp", "speculative-decoding", false,
                    Fixtures.params(Fixtures.BASE_FLAGS + " --speculative-config={\"method\":\"mtp\"}", rate), "mtp@" + rate,
                    "s2", reps(base * 0.85, 1.5), null, true, new io.servebench.results.ServeCommand("vllm serve Qwen/Qwen3.5-9B "
                    + Fixtures.BASE_FLAGS + " '--speculative-config={\"method\":\"mtp\"}'", "vLLM", false)));
        }
        return Fixtures.run(trials);
    }

    private static List<RepetitionResult> reps(double mean, double stdev) {
        return List.of(Fixtures.repetition(mean * 0.99, stdev), Fixtures.repetition(mean, stdev),
                Fixtures.repetition(mean * 1.01, stdev));
    }

    @Test
    void selfContainedWithEveryChartAndTheMarkdownTables(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("report.html");
        new HtmlReportWriter(ReportLanguage.EN).write(twoRatesThreeRepetitions(), file);
        String html = Files.readString(file);

        assertThat(html).startsWith("<!DOCTYPE html>\n<html lang=\"en\">");
        // offline: nothing that a browser would fetch
        assertThat(html).doesNotContainPattern("(?i)(src|href)\\s*=|url\\(|@import|<script|<link");
        assertThat(html).contains("<h3>Mean latency vs request rate: VllmOptionGroups</h3>",
                "<h3>Median TTFT vs request rate: VllmOptionGroups</h3>", "<h3>CDF of TTFT (ms): VllmOptionGroups</h3>",
                "<h3>CDF of ITL (ms): VllmOptionGroups</h3>");
        assertThat(html).contains("<th>Case</th><th>Group</th><th>Variant</th><th>Baseline</th><th>Comparison</th>",
                "<th>Speed-up</th>", "vllm serve Qwen/Qwen3.5-9B --reasoning-parser=qwen3 --max-model-len=32768 "
                        + "&#39;--speculative-config={&quot;method&quot;:&quot;mtp&quot;}&#39;");
        // three repetitions: the bar's interval is JMH's 99.9% scoreError, and the tooltip says so
        assertThat(html).contains("error bar: 99.9% interval of the mean over 3 repetitions (JMH scoreError)");
        assertThat(html.split("<svg viewBox=\"0 0 760", -1)).hasSize(1 + 2 + 2 + 2);
    }

    @Test
    void aSettingThatDiffersBesideTheLoadDrawsALineOfItsOwn() {
        // two datasets at two rates: keyed by the variant alone, one dataset's points overwrote the other's on one line
        List<BlockResult> blocks = new java.util.ArrayList<>();
        for (BlockResult b : twoRatesThreeRepetitions().blocks()) {
            for (String dataset : List.of("synthetic:in=64,out=16", "synthetic-sharegpt")) {
                java.util.Map<String, String> params = new java.util.LinkedHashMap<>(b.params());
                params.put("dataset", dataset);
                blocks.add(new BlockResult(b.benchmark(), b.className(), b.variant(), b.group(), b.baseline(), params,
                        b.trialId() + dataset, b.serverId(), b.repetitions(), null));
            }
        }
        String html = new HtmlReportWriter(ReportLanguage.EN).render(Fixtures.run(blocks));
        for (String line : List.of("baseline · dataset=synthetic:in=64,out=16", "baseline · dataset=synthetic-sharegpt",
                "mtp · dataset=synthetic:in=64,out=16", "mtp · dataset=synthetic-sharegpt")) {
            // one line in the latency chart and one in the TTFT chart
            assertThat(html.split(java.util.regex.Pattern.quote("<title>" + line + "</title></polyline>"), -1)).hasSize(3);
        }
    }

    @Test
    void oneRepetitionGetsThePerRequestIntervalAndUnknownSpreadNone() throws Exception {
        String one = new HtmlReportWriter(ReportLanguage.EN).render(Fixtures.run(List.of(
                Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8", List.of(Fixtures.repetition(2.62, 1.8))),
                Fixtures.trial("other", "g", false, Fixtures.BASE_FLAGS + " --x", "8", List.of(Fixtures.repetition(2.32, 1.5))))));
        // t(0.975, 999) × 1.8 / √1000 = 0.1117
        assertThat(one).contains("baseline (baseline): 2.62 s ± 0.11 s; error bar: 95% interval of the mean over 1000 requests");

        String seed = new HtmlReportWriter(ReportLanguage.EN).render(SeedStudy.load());
        assertThat(seed).contains("vllm (baseline): 2.62 s; no error bar: per-request spread unknown");
        assertThat(seed).contains("<h3>Mean latency vs request rate: RateValidation</h3>");
    }

    /**
     * Multi-turn blocks get a chart of mean TTFT by turn, one line per block, each point the mean over its repetitions
     * of that turn's mean TTFT; a study without conversations gets none.
     */
    @Test
    void multiTurnBlocksGetTheirTtftByTurnOneLinePerBlock() {
        RunResult run = Fixtures.run(List.of(
                Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "2", List.of(
                        withTurns(40, 90, 160), withTurns(44, 94, 170))),
                Fixtures.trial("prefixCaching", "cache", false, Fixtures.BASE_FLAGS + " --enable-prefix-caching", "2",
                        List.of(withTurns(41, 52, 61), withTurns(43, 54, 63)))));
        String en = new HtmlReportWriter(ReportLanguage.EN).render(run);
        assertThat(en).contains("<h3>Mean TTFT by turn of the conversations: VllmOptionGroups</h3>", "Mean TTFT (ms)");
        String baseline = run.blocks().get(0).displayName();
        String cached = run.blocks().get(1).displayName();
        // (40 + 44) / 2 at turn 1, (90 + 94) / 2 at turn 2, (160 + 170) / 2 at turn 3
        assertThat(en).contains("<title>" + baseline + ": 1.00, 42.00</title>", "<title>" + baseline + ": 2.00, 92.00</title>",
                "<title>" + baseline + ": 3.00, 165.00</title>", "<title>" + cached + ": 3.00, 62.00</title>");
        // turns are whole: ticks 0, 1, 2, 3, no turn 0.5
        String chart = en.substring(en.indexOf("<h3>Mean TTFT by turn"), en.indexOf("</figure>", en.indexOf("<h3>Mean TTFT by turn")));
        assertThat(chart).contains("text-anchor=\"middle\">1</text>", "text-anchor=\"middle\">3</text>")
                .doesNotContain(">0.5</text>");
        assertThat(new HtmlReportWriter(ReportLanguage.ZH_CN).render(run)).contains("<h3>各对话轮次的平均 TTFT：VllmOptionGroups</h3>");
        assertThat(new HtmlReportWriter(ReportLanguage.EN).render(twoRatesThreeRepetitions())).doesNotContain("by turn");
        // the same figures as a table, in summary.md and report.html: a column per block
        String md = new SummaryMarkdownWriter(ReportLanguage.EN).render(run);
        assertThat(md).contains("## Mean TTFT (ms) by turn of the conversations", "| Turn | " + baseline + " | " + cached
                + " |", "| 1 | 42.00 | 42.00 |", "| 2 | 92.00 | 53.00 |", "| 3 | 165.00 | 62.00 |");
        assertThat(en).contains("<h2>Mean TTFT (ms) by turn of the conversations</h2>");
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(twoRatesThreeRepetitions())).doesNotContain("by turn");
    }

    /** A repetition of three-turn conversations whose turns' mean TTFTs are the given ones, ms. */
    private static RepetitionResult withTurns(double... ttftMs) {
        java.util.Map<String, RepetitionResult> turns = new java.util.LinkedHashMap<>();
        for (int k = 0; k < ttftMs.length; k++) {
            turns.put(Integer.toString(k + 1), new RepetitionResult(java.util.Map.of(
                    io.servebench.measure.Metric.SUCCESSFUL_REQUESTS.id(), 100.0), java.util.Map.of(
                    io.servebench.measure.Metric.TTFT.id(), Fixtures.dist("ms", 100, ttftMs[k], 5)), 0, 0,
                    java.util.Map.of(), java.util.Map.of()));
        }
        return Fixtures.repetition(2.6, 1.8).withTurns(turns);
    }

    /** A trial with GPU figures gets one chart: power, utilisation and request rate stacked on its time axis. */
    @Test
    void aTrialWithAGpuTimelineGetsItsChartInBothLanguages() {
        io.servebench.results.GpuTimeline timeline = new io.servebench.results.GpuTimeline(0.5,
                java.util.Arrays.asList(null, 410.0, 600.5, 590.0), java.util.Arrays.asList(null, 40.0, 97.0, 96.0),
                List.of(8.0, 8.0, 8.0, 0.0));
        RunResult run = Fixtures.run(List.of(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8",
                List.of(Fixtures.repetition(2.62, 1.8).withGpuTimeline(timeline)))));
        String en = new HtmlReportWriter(ReportLanguage.EN).render(run);
        assertThat(en).contains("<h3>GPUs over the measurement window: ", "GPU power (W)", "GPU utilisation (%)",
                "Requests sent (req/s)", "The first repetition, in steps of 0.5 s");
        String chart = en.substring(en.indexOf("<h3>GPUs over"), en.indexOf("</figure>", en.indexOf("<h3>GPUs over")));
        // the first step has no reading: power and utilisation start at the second step, the rate at the first
        List<Integer> pointsPerLine = java.util.regex.Pattern.compile("points=\"([^\"]*)\"").matcher(chart).results()
                .map(m -> m.group(1).split(" ").length).toList();
        assertThat(pointsPerLine).containsExactly(3, 3, 4);
        assertThat(new HtmlReportWriter(ReportLanguage.ZH_CN).render(run)).contains("测量窗口内的 GPU", "GPU 功率（W）");
        assertThat(new HtmlReportWriter(ReportLanguage.EN).render(Fixtures.run(List.of(Fixtures.trial("baseline", "", true,
                Fixtures.BASE_FLAGS, "8", List.of(Fixtures.repetition(2.62, 1.8))))))).doesNotContain("GPUs over");
    }

    /** A long block's slices get their table and a chart of throughput, TTFT and latency, one panel each. */
    @Test
    void aSlicedBlockGetsItsTableAndChart() {
        RepetitionResult slice = Fixtures.repetition(2.5, 1.0).withScalar(io.servebench.measure.Metric.DURATION, 60);
        RepetitionResult sliced = Fixtures.repetition(2.62, 1.8).withSlices(java.util.Map.of("0", slice, "60", slice,
                "120", slice.withScalar(io.servebench.measure.Metric.DURATION, 10.18)));
        String html = new HtmlReportWriter(ReportLanguage.EN).render(Fixtures.run(List.of(Fixtures.trial("baseline", "", true,
                Fixtures.BASE_FLAGS, "8", List.of(sliced)))));
        assertThat(html).contains("<td>0–60.00</td>", "<td>60–120.00</td>", "<td>120–130.18</td>",
                "<h3>Per time slice: ", "Time since the first measured request was sent (s)");
        String chart = html.substring(html.indexOf("<h3>Per time slice"), html.indexOf("</figure>", html.indexOf("<h3>Per time slice")));
        List<Integer> pointsPerLine = java.util.regex.Pattern.compile("points=\"([^\"]*)\"").matcher(chart).results()
                .map(m -> m.group(1).split(" ").length).toList();
        assertThat(pointsPerLine).containsExactly(3, 3, 3, 3);
        assertThat(new HtmlReportWriter(ReportLanguage.ZH_CN).render(Fixtures.run(List.of(Fixtures.trial("baseline", "",
                true, Fixtures.BASE_FLAGS, "8", List.of(sliced)))))).contains("按时间片：");
    }

    /** A block whose records are at hand gets its request timeline, collapsed, with the counts drawn and measured. */
    @Test
    void aBlockWithItsRecordsGetsARequestTimeline() {
        io.servebench.results.RequestTimeline timeline = new io.servebench.results.RequestTimeline(100, List.of(
                new io.servebench.results.RequestTimeline.Request(0, 0, 0.001, 0.05, 2.1,
                        io.servebench.results.RequestTimeline.Outcome.SUCCEEDED, List.of(1.0, 1.2)),
                new io.servebench.results.RequestTimeline.Request(2, 0.25, 0.251, Double.NaN, 0.6,
                        io.servebench.results.RequestTimeline.Outcome.FAILED, List.of())), 3);
        RunResult run = Fixtures.run(List.of(Fixtures.trial("baseline", "", true, Fixtures.BASE_FLAGS, "8",
                List.of(Fixtures.repetition(2.62, 1.8)))));
        String html = new HtmlReportWriter(ReportLanguage.EN, b -> java.util.Optional.of(timeline)).render(run);
        assertThat(html).contains("<summary>Request timeline (2 of 3 requests)</summary>", "<h3>Requests over time: ",
                "Gap between tokens of 100 ms or more", "Time since the first intended send (s)");
        // one path per kind drawn (send waits, the first token's wait, the stream, the failure, the gap) and the axes
        String chart = html.substring(html.indexOf("<h3>Requests over time"), html.indexOf("</figure>",
                html.indexOf("<h3>Requests over time")));
        assertThat(chart.split("<path d=\"M", -1)).hasSize(1 + 5 + 1);
        assertThat(new HtmlReportWriter(ReportLanguage.EN).render(run)).doesNotContain("Request timeline");
    }

    @Test
    void chineseReport() throws Exception {
        String html = new HtmlReportWriter(ReportLanguage.ZH_CN).render(SeedStudy.load());
        assertThat(html).startsWith("<!DOCTYPE html>\n<html lang=\"zh-CN\">");
        assertThat(html).contains("<th>基准测试用例</th><th>组别</th><th>变体</th><th>基准配置</th><th>对比</th>");
    }
}
