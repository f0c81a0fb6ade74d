package io.servebench.reports;

import io.servebench.compare.BaselineGroup;
import io.servebench.compare.Comparison;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.CapacityResult;
import io.servebench.results.Distribution;
import io.servebench.results.GpuTimeline;
import io.servebench.results.HistogramBucket;
import io.servebench.results.RepetitionResult;
import io.servebench.results.RequestTimeline;
import io.servebench.results.RunResult;
import io.servebench.stats.Statistics;
import io.servebench.workload.WorkloadSetting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Writes {@code report.html}: one self-contained page (inline CSS and inline SVG, no script, no
 * external resource) that renders offline. It holds the tables of {@code summary.md} and charts:
 * mean latency and median TTFT against request rate per variant (studies that ran at two or more
 * rates), mean latency per variant with error bars per comparison group, and CDFs of TTFT and ITL
 * per block from the histograms the results carry.
 */
final class HtmlReportWriter extends TextReport {

    private static final String CSS = """
            body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif;
            color:#1a1a1a;background:#fff;max-width:1120px;margin:0 auto;padding:16px 24px}
            h1{font-size:26px}h2{font-size:21px;margin-top:32px;border-bottom:1px solid #ccc;padding-bottom:4px}
            h3{font-size:17px;margin-top:22px}
            table{border-collapse:collapse;margin:8px 0 16px;font-size:13.5px}
            th,td{border:1px solid #c8c8c8;padding:4px 8px;text-align:left;vertical-align:top}
            th{background:#f0f0f0}tr:nth-child(even) td{background:#fafafa}
            pre,code{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",monospace}
            pre{background:#f5f5f5;padding:8px 10px;overflow-x:auto;border:1px solid #ddd}
            pre.command{white-space:pre-wrap;overflow-wrap:anywhere}
            figure{margin:12px 0 24px}figcaption{font-size:13px;color:#444;margin-top:4px}
            svg{width:100%;max-width:760px;height:auto;font-size:12px;fill:#1a1a1a}
            svg text.axis{font-size:13px;font-weight:600}
            .legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;margin:4px 0}
            .legend svg{width:34px;height:10px;vertical-align:middle;margin-right:4px}
            .warning{border-left:4px solid #D55E00;background:#fff4ec;padding:6px 10px}
            details{margin:6px 0}summary{cursor:pointer;font-weight:600}
            """;

    /** Each block's request timeline, where the run folder holds its records. */
    private final Function<BlockResult, Optional<RequestTimeline>> timelines;

    HtmlReportWriter(ReportLanguage language) {
        this(language, block -> Optional.empty());
    }

    /** @param timelines each block's request timeline, drawn in its section; empty for none */
    HtmlReportWriter(ReportLanguage language, Function<BlockResult, Optional<RequestTimeline>> timelines) {
        super(language);
        this.timelines = Objects.requireNonNull(timelines, "timelines");
    }

    /** The report as one HTML document. */
    @Override
    public String render(RunResult run) {
        ReportContent content = new ReportContent(run, language);
        Messages m = content.messages();
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"").append(language.tag())
                .append("\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>")
                .append(Html.escape(m.text("title"))).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        html.append("<h1>").append(Html.escape(m.text("title"))).append("</h1>\n<ul>\n");
        // each line as HTML: the engines' with the simulated engine's error bars as a list of their own
        StringBuilder engines = new StringBuilder(Html.escape(content.engines()));
        if (!content.twinBars().isEmpty()) {
            engines.append("\n<ul>\n");
            content.twinBars().forEach(bar -> engines.append("<li>").append(Html.escape(bar)).append("</li>\n"));
            engines.append("</ul>\n");
        }
        List<String> lines = new ArrayList<>(List.of(Html.escape(m.text("run.started", run.startTime())),
                Html.escape(m.text("run.version", run.servebenchVersion())), Html.escape(m.text("run.command", run.commandLine())),
                engines.toString(),
                Html.escape(m.text("run.quick", m.text(run.quick() ? "run.quick.yes" : "run.quick.no"))),
                Html.escape(m.text("run.blocks", run.blocks().size()))));
        content.jsonOmitted().map(Html::escape).ifPresent(lines::add);
        content.nothingCompared().map(Html::escape).ifPresent(lines::add);
        for (String line : lines) {
            html.append("<li>").append(line).append("</li>\n");
        }
        html.append("</ul>\n");
        content.runState().ifPresent(state -> html.append("<p class=\"warning\">").append(Html.escape(state))
                .append("</p>\n"));
        decision(html, content);
        charts(html, content);
        comparisons(html, content);
        html.append("<h2>").append(Html.escape(m.text("overview.heading"))).append("</h2>\n<p>")
                .append(Html.escape(m.text("overview.intro"))).append("</p>\n");
        table(html, content.overview());
        content.ttftByTurn().ifPresent(byTurn -> {
            html.append("<h2>").append(Html.escape(m.text("turns.across.heading"))).append("</h2>\n<p>")
                    .append(Html.escape(m.text("turns.across.intro"))).append("</p>\n");
            table(html, byTurn);
            content.ttftByTurnAgainstBaseline().ifPresent(against -> {
                html.append("<p>").append(Html.escape(m.text("turns.against.intro"))).append("</p>\n");
                table(html, against);
            });
        });
        if (!run.servers().isEmpty()) {
            html.append("<h2>").append(Html.escape(m.text("servers.heading"))).append("</h2>\n");
            table(html, content.servers());
        }
        html.append("<h2>").append(Html.escape(m.text("blocks.heading"))).append("</h2>\n<p>")
                .append(Html.escape(m.text("blocks.plusMinus"))).append("</p>\n");
        for (BlockResult t : run.blocks()) {
            block(html, content, t);
        }
        return html.append("</body>\n</html>\n").toString();
    }

    private static void decision(StringBuilder html, ReportContent content) {
        Messages m = content.messages();
        if (!content.capacities().isEmpty()) {
            html.append("<h2>").append(Html.escape(m.text("capacity.heading"))).append("</h2>\n<p>")
                    .append(Html.escape(m.text("capacity.intro"))).append("</p>\n");
            // one chart per axis searched: goodput against a rate (of requests, of conversations), against streams
            for (CapacityResult.Axis axis : CapacityResult.Axis.values()) {
                List<SvgCharts.Series> goodput = new ArrayList<>();
                for (CapacityResult c : content.run().capacities()) {
                    if (c.axis() == axis) {
                        goodput.add(new SvgCharts.Series(c.configuration(), c.probes().stream()
                                .filter(p -> !Double.isNaN(p.goodput())).map(p -> new double[] {p.load(), p.goodput()})
                                .toList()));
                    }
                }
                if (!goodput.isEmpty()) {
                    html.append(SvgCharts.lines(goodput, m.text("capacity.col." + axis.messageKey()),
                            m.text("capacity.col.goodput"), Double.POSITIVE_INFINITY, false,
                            m.text("capacity.chart." + axis.messageKey())));
                }
            }
            for (ReportContent.Capacity c : content.capacities()) {
                html.append("<p><strong>").append(Html.escape(c.configuration())).append("</strong>")
                        .append(Html.escape(c.afterName())).append("</p>\n");
                table(html, c.table());
            }
        }
        content.tuning().ifPresent(t -> {
            html.append("<h2>").append(Html.escape(m.text("tuning.heading"))).append("</h2>\n<p>").append(Html.escape(t.intro()))
                    .append("</p>\n");
            for (Map.Entry<String, Table> step : t.steps()) {
                html.append("<h3>").append(Html.escape(step.getKey())).append("</h3>\n");
                if (!step.getValue().rows().isEmpty()) {
                    table(html, step.getValue());
                }
            }
            html.append("<p><strong>").append(Html.escape(t.result())).append("</strong></p>\n");
            if (!t.caveats().isEmpty()) {
                html.append("<p>").append(Html.escape(m.text("tuning.caveats"))).append("</p>\n<ul>\n");
                t.caveats().forEach(c -> html.append("<li>").append(Html.escape(c)).append("</li>\n"));
                html.append("</ul>\n");
            }
        });
        if (content.nothingCompared().isPresent()) {
            return;
        }
        html.append("<h2>").append(Html.escape(m.text("summary.heading"))).append("</h2>\n<p>")
                .append(Html.escape(m.text("summary.intro"))).append("</p>\n");
        Table summary = content.optimizationSummary();
        if (summary.rows().isEmpty()) {
            html.append("<p>").append(Html.escape(m.text("summary.none"))).append("</p>\n");
        } else {
            table(html, summary);
        }
        for (ReportContent.Recommendation r : content.recommendations()) {
            html.append("<h3>").append(Html.escape(m.text("recommended.heading"))).append("</h3>\n<p>")
                    .append(Html.escape(m.text("recommended.intro", r.study(), r.variant()))).append("</p>\n<pre class=\"command\">")
                    .append(Html.escape(r.command())).append("</pre>\n");
            if (r.simulated() != null) {
                html.append("<p>").append(Html.escape(m.text("recommended.simulated", r.simulated()))).append("</p>\n");
            }
            if (r.shortfall() != null) {
                html.append("<p>").append(Html.escape(r.shortfall())).append("</p>\n");
            }
        }
        for (ReportContent.CrossRate c : content.crossRates()) {
            html.append("<h3>").append(Html.escape(m.text("crossrate.heading"))).append(": ").append(Html.escape(c.study()))
                    .append("</h3>\n");
            table(html, c.table());
        }
    }

    private static void charts(StringBuilder html, ReportContent content) {
        Messages m = content.messages();
        html.append("<h2>").append(Html.escape(m.text("html.charts"))).append("</h2>\n");
        Map<String, List<BlockResult>> byStudy = new LinkedHashMap<>();
        content.run().blocks().stream().filter(BlockResult::succeeded)
                .forEach(t -> byStudy.computeIfAbsent(t.className(), k -> new ArrayList<>()).add(t));
        boolean anyRateChart = false;
        for (Map.Entry<String, List<BlockResult>> study : byStudy.entrySet()) {
            anyRateChart |= versusLoad(html, content, ReportContent.simpleName(study.getKey()), study.getValue());
        }
        if (!anyRateChart) {
            html.append("<p>").append(Html.escape(m.text("html.oneRate"))).append("</p>\n");
        }
        for (BaselineGroup g : content.groups()) {
            bars(html, content, g);
        }
        for (Map.Entry<String, List<BlockResult>> study : byStudy.entrySet()) {
            for (Metric metric : List.of(Metric.TTFT, Metric.ITL)) {
                cdf(html, content, ReportContent.simpleName(study.getKey()), study.getValue(), metric);
            }
            byTurn(html, content, m, ReportContent.simpleName(study.getKey()), study.getValue());
        }
    }

    /**
     * Mean TTFT against the turn of the conversations, one line per multi-turn block of a study: how a turn's wait grows
     * with the history it carries, and which variant's grows less (prefix caching, for one). Nothing for a study without
     * a block of two or more turns.
     */
    private static void byTurn(StringBuilder html, ReportContent content, Messages m, String study, List<BlockResult> blocks) {
        List<SvgCharts.Series> series = new ArrayList<>();
        // blocks at several load points share their names: each line then says its point
        boolean manyPoints = blocks.stream().map(content::point).distinct().count() > 1;
        for (BlockResult t : blocks) {
            List<double[]> points = new ArrayList<>();
            ReportContent.byTurn(t).forEach((turn, of) -> {
                double y = ReportContent.mean(of, r -> r.number(Metric.TTFT, Stat.MEAN));
                if (!Double.isNaN(y)) {
                    points.add(new double[] {turn, y});
                }
            });
            if (points.size() >= 2) {
                series.add(new SvgCharts.Series(t.displayName() + (manyPoints ? " · " + content.point(t) : ""), points));
            }
        }
        if (series.isEmpty()) {
            return;
        }
        String title = m.text("html.ttftByTurn", study);
        figure(html, title, SvgCharts.lines(series, m.text("turns.turn"), m.text("html.axis.ttftMean"), Double.NaN, false,
                title), legend(series.stream().map(SvgCharts.Series::name).toList()), m.text("html.ttftByTurn.caption"));
    }

    /**
     * Mean latency and median TTFT against the load axis, one line per variant (and per setting beside the load that
     * differs among the blocks, a dataset say, whose points would otherwise fall on one line and hide each other); only
     * for 2 or more load points.
     */
    private static boolean versusLoad(StringBuilder html, ReportContent content, String study, List<BlockResult> blocks) {
        Messages m = content.messages();
        WorkloadSetting setting = blocks.stream().allMatch(t -> t.params().containsKey(WorkloadSetting.RATE.key()))
                ? WorkloadSetting.RATE : WorkloadSetting.CONCURRENCY;
        String key = setting.key();
        if (blocks.stream().map(t -> t.params().get(key)).filter(Objects::nonNull).distinct().count() < 2) {
            return false;
        }
        String axis = setting == WorkloadSetting.RATE ? content.rateAxis(blocks) : m.text("axis." + key);
        String axisWord = m.text(setting == WorkloadSetting.RATE
                ? ReportContent.byRateKind(blocks, "load.rate", "load.rate.conversations", "load.rate") : "load." + key);
        for (boolean latency : List.of(true, false)) {
            Map<String, TreeMap<Double, Double>> lines = new LinkedHashMap<>();
            for (BlockResult t : blocks) {
                String at = t.params().get(key);
                double y = latency ? ReportContent.mean(t.repetitions(), r -> r.number(Metric.E2E_LATENCY, Stat.MEAN))
                        : ReportContent.mean(t.repetitions(), r -> r.number(Metric.TTFT, Stat.MEDIAN));
                if (at != null && !Double.isNaN(y)) {
                    lines.computeIfAbsent(t.displayName() + content.beside(t), k -> new TreeMap<>()).put(Double.parseDouble(at), y);
                }
            }
            List<SvgCharts.Series> series = new ArrayList<>();
            lines.forEach((name, points) -> series.add(new SvgCharts.Series(name,
                    points.entrySet().stream().map(e -> new double[] {e.getKey(), e.getValue()}).toList())));
            String title = m.text(latency ? "html.latencyVsRate" : "html.ttftVsRate", axisWord, study);
            figure(html, title, SvgCharts.lines(series, axis, m.text(latency ? "html.axis.latency" : "html.axis.ttft"),
                    Double.NaN, false, title), legend(series.stream().map(SvgCharts.Series::name).toList()), null);
        }
        return true;
    }

    /** Mean latency per block of a group, with the interval that fits how many repetitions it ran. */
    private static void bars(StringBuilder html, ReportContent content, BaselineGroup g) {
        Messages m = content.messages();
        List<BlockResult> blocks = new ArrayList<>();
        if (g.baseline() != null) {
            blocks.add(g.baseline());
        }
        g.others().stream().filter(Comparison::comparable).forEach(blocks::add);
        if (blocks.size() < 2) {
            return;
        }
        List<SvgCharts.Bar> bars = new ArrayList<>();
        for (BlockResult t : blocks) {
            double[] means = ReportContent.values(t.repetitions(), Metric.E2E_LATENCY, Stat.MEAN);
            double mean = Statistics.mean(means);
            double error;
            String how;
            if (means.length >= 3) {
                error = Statistics.scoreError(means);
                how = m.text("html.bars.scoreError", means.length);
            } else {
                List<Distribution> parts = t.repetitions().stream().map(r -> r.distribution(Metric.E2E_LATENCY))
                        .flatMap(Optional::stream).toList();
                io.servebench.stats.Pooled pooled = io.servebench.stats.Pooled.of(parts);
                if (pooled.count() < 2) {
                    error = Double.NaN;
                    how = m.text("html.bars.none", m.text("reason.fewSamples"));
                } else if (Double.isNaN(pooled.stdev())) {
                    error = Double.NaN;
                    how = m.text("html.bars.none", m.text("reason.unknownSpread"));
                } else {
                    error = Statistics.studentTQuantile(0.975, pooled.count() - 1) * pooled.stdev() / Math.sqrt(pooled.count());
                    how = m.text("html.bars.perRequest", pooled.count());
                }
            }
            String label = t.displayName() + (t == g.baseline() ? " (" + m.text("role.baseline") + ")" : "");
            String tooltip = label + ": " + Numbers.format(mean) + " s"
                    + (Double.isNaN(error) ? "" : " ± " + Numbers.formatLike(error, mean) + " s") + "; " + how;
            bars.add(new SvgCharts.Bar(label, mean, error, tooltip));
        }
        String title = m.text("html.bars", content.heading(g));
        figure(html, title, SvgCharts.bars(bars, m.text("html.bars.axis"), title), "", m.text("html.bars.caption"));
    }

    /** CDF of one metric, one staircase per block of the study, from the histograms of all its repetitions. */
    private static void cdf(StringBuilder html, ReportContent content, String study, List<BlockResult> blocks, Metric metric) {
        Messages m = content.messages();
        String name = metric.label();
        String title = m.text("html.cdf", name, study);
        boolean manyPoints = blocks.stream().map(BaselineGroup::workload).distinct().count() > 1;
        List<SvgCharts.Series> series = new ArrayList<>();
        double xMax = 0;
        for (BlockResult t : blocks) {
            TreeMap<Double, Long> counts = new TreeMap<>();
            for (RepetitionResult r : t.repetitions()) {
                Optional<Distribution> d = r.distribution(metric);
                if (d.isPresent()) {
                    for (HistogramBucket b : d.get().histogram()) {
                        counts.merge(b.value(), b.count(), Long::sum);
                    }
                    xMax = Math.max(xMax, d.get().p99());
                }
            }
            long total = counts.values().stream().mapToLong(Long::longValue).sum();
            if (total == 0) {
                continue;
            }
            List<double[]> points = new ArrayList<>();
            points.add(new double[] {counts.firstKey(), 0});
            long cumulative = 0;
            for (Map.Entry<Double, Long> e : counts.entrySet()) {
                cumulative += e.getValue();
                points.add(new double[] {e.getKey(), (double) cumulative / total});
            }
            series.add(new SvgCharts.Series(t.displayName() + (manyPoints ? " · " + content.point(t) : ""), points));
        }
        if (series.isEmpty()) {
            html.append("<p>").append(Html.escape(m.text("html.cdf.none", name))).append("</p>\n");
            return;
        }
        String axis = name;
        figure(html, title, SvgCharts.lines(series, axis, m.text("html.cdf.axis"), xMax > 0 ? xMax : Double.NaN, true, title),
                legend(series.stream().map(SvgCharts.Series::name).toList()), m.text("html.cdf.caption"));
    }

    private static void figure(StringBuilder html, String title, String svg, String legend, String caption) {
        html.append("<figure>\n<h3>").append(Html.escape(title)).append("</h3>\n").append(svg).append('\n').append(legend);
        if (caption != null) {
            html.append("<figcaption>").append(Html.escape(caption)).append("</figcaption>\n");
        }
        html.append("</figure>\n");
    }

    /** A legend of solid lines in the given colours. */
    private static String legend(List<String> names, List<String> colours) {
        StringBuilder html = new StringBuilder("<div class=\"legend\">");
        for (int i = 0; i < names.size(); i++) {
            html.append("<span><svg viewBox=\"0 0 34 10\" aria-hidden=\"true\"><line x1=\"1\" y1=\"5\" x2=\"33\" y2=\"5\" "
                    + "stroke=\"").append(colours.get(i)).append("\" stroke-width=\"6\"/></svg>")
                    .append(Html.escape(names.get(i))).append("</span>");
        }
        return html.append("</div>\n").toString();
    }

    private static String legend(List<String> names) {
        StringBuilder html = new StringBuilder("<div class=\"legend\">");
        for (int i = 0; i < names.size(); i++) {
            String dash = SvgCharts.dash(i);
            html.append("<span><svg viewBox=\"0 0 34 10\" aria-hidden=\"true\"><line x1=\"1\" y1=\"5\" x2=\"33\" y2=\"5\" stroke=\"")
                    .append(SvgCharts.colour(i)).append("\" stroke-width=\"3\"")
                    .append(dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"").append("/></svg>")
                    .append(Html.escape(names.get(i))).append("</span>");
        }
        return html.append("</div>\n").toString();
    }

    private static void comparisons(StringBuilder html, ReportContent content) {
        if (content.nothingCompared().isPresent()) {
            return;
        }
        Messages m = content.messages();
        html.append("<h2>").append(Html.escape(m.text("comparisons.heading"))).append("</h2>\n");
        for (BaselineGroup g : content.groups()) {
            html.append("<h3>").append(Html.escape(content.heading(g))).append("</h3>\n");
            if (g.baseline() == null) {
                html.append("<p>").append(Html.escape(m.text("comparisons.noBaseline"))).append("</p>\n");
            } else if (g.others().isEmpty()) {
                html.append("<p>").append(Html.escape(m.text("comparisons.onlyBaseline"))).append("</p>\n");
            } else {
                html.append("<p>").append(Html.escape(m.text("comparisons.baseline", g.baseline().displayName())))
                        .append("</p>\n<ul>\n");
                for (ReportContent.Row line : content.comparisonLines(g)) {
                    html.append("<li>").append(line.label().isEmpty() ? Html.escape(line.value())
                            : Html.escape(m.text("item", line.label(), line.value()))).append("</li>\n");
                }
                html.append("</ul>\n");
            }
        }
    }

    private void block(StringBuilder html, ReportContent content, BlockResult t) {
        Messages m = content.messages();
        html.append("<details>\n<summary>").append(Html.escape(content.blockTitle(t))).append("</summary>\n<ul>\n");
        List<String> params = new ArrayList<>();
        t.params().forEach((k, v) -> params.add(k + " = " + v));
        String group = (t.group().isEmpty() ? m.text("block.none") : t.group())
                + (t.baseline() ? " · " + m.text("role.baseline") : "") + (t.recommended() ? " · " + m.text("role.recommended") : "");
        for (String line : List.of(m.text("item", m.text("block.benchmark"), t.benchmark()),
                m.text("item", m.text("block.params"), params.isEmpty() ? m.text("block.none") : String.join(", ", params)),
                m.text("item", m.text("block.group"), group),
                m.text("block.trial", t.trialId(), t.serverId(), t.repetitions().size()))) {
            html.append("<li>").append(Html.escape(line)).append("</li>\n");
        }
        html.append("</ul>\n");
        content.blockState(t).ifPresent(state -> html.append("<p class=\"warning\">").append(Html.escape(state))
                .append("</p>\n"));
        content.incomplete(t).ifPresent(incomplete -> {
            html.append("<p>").append(Html.escape(m.text("incomplete.heading"))).append("</p>\n");
            table(html, incomplete);
        });
        if (!t.repetitions().isEmpty()) {
            for (String note : content.notes(t)) {
                html.append("<p class=\"note\">").append(Html.escape(m.text("note.label") + " " + note)).append("</p>\n");
            }
            for (String warning : content.warnings(t)) {
                html.append("<p class=\"warning\">").append(Html.escape(m.text("warning.label") + " " + warning)).append("</p>\n");
            }
            table(html, new Table(List.of(m.text("block.metric"), m.text("block.value")),
                    content.rows(t).stream().map(r -> List.of(r.label(), r.value())).toList()));
            gpuTimeline(html, content, t);
            timelines.apply(t).ifPresent(timeline -> requestTimeline(html, content, t, timeline));
            for (ReportContent.Breakdown breakdown : content.breakdowns(t)) {
                html.append("<p>").append(Html.escape(breakdown.heading())).append("</p>\n");
                table(html, breakdown.table());
            }
            // the time slices also as panels of charts, one figure a panel
            Map<String, List<double[]>> slices = content.sliceSeries(t);
            if (!slices.isEmpty()) {
                String title = m.text("html.slices", content.blockTitle(t));
                figure(html, title, SvgCharts.panels(slices.entrySet().stream()
                        .map(e -> new SvgCharts.Series(e.getKey(), e.getValue())).toList(), m.text("html.slices.axis"),
                        title), "", null);
            }
            html.append("<pre>").append(Html.escape(VllmBenchLayout.of(t))).append("</pre>\n");
        }
        html.append("</details>\n");
    }

    /** The first repetition's GPU power and utilisation beside its request rate, when it has GPU figures. */
    private static void gpuTimeline(StringBuilder html, ReportContent content, BlockResult t) {
        GpuTimeline g = t.repetitions().get(0).gpuTimeline();
        if (g == null) {
            return;
        }
        Messages m = content.messages();
        String title = m.text("html.gpu", content.blockTitle(t));
        figure(html, title, SvgCharts.panels(List.of(panel(m.text("html.gpu.power"), g, g.watts()),
                panel(m.text("html.gpu.utilization"), g, g.utilization()),
                panel(m.text("html.gpu.rate"), g, g.requestRate())), m.text("html.gpu.axis"), title), "",
                m.text("html.gpu.caption", Numbers.format(g.stepSeconds())));
    }

    /** The block's requests, one bar each, collapsed until opened: a thousand rows are long. */
    private static void requestTimeline(StringBuilder html, ReportContent content, BlockResult t, RequestTimeline timeline) {
        Messages m = content.messages();
        List<String> names = List.of(m.text("html.timeline.sendWait"), m.text("html.timeline.firstToken"),
                m.text("html.timeline.streaming"), m.text("html.timeline.failed"), m.text("html.timeline.cancelled"),
                m.text("html.timeline.gap", timeline.gapThresholdMs() == Math.rint(timeline.gapThresholdMs())
                        ? Long.toString(Math.round(timeline.gapThresholdMs())) : Numbers.format(timeline.gapThresholdMs())));
        String title = m.text("html.timeline", content.blockTitle(t));
        html.append("<details>\n<summary>").append(Html.escape(m.text("html.timeline.open", timeline.requests().size(),
                timeline.total()))).append("</summary>\n");
        figure(html, title, SvgCharts.timeline(timeline, names, m.text("html.timeline.axis"), title),
                legend(names, SvgCharts.timelineColours()), m.text("html.timeline.caption"));
        html.append("</details>\n");
    }

    /** One series of a timeline, each value at its step's middle; a step without one is a gap. */
    private static SvgCharts.Series panel(String name, GpuTimeline g, List<Double> values) {
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            Double v = values.get(i);
            points.add(new double[] {(i + 0.5) * g.stepSeconds(), v == null ? Double.NaN : v});
        }
        return new SvgCharts.Series(name, points);
    }

    private static void table(StringBuilder html, Table table) {
        html.append("<table>\n<thead><tr>");
        table.header().forEach(h -> html.append("<th>").append(Html.escape(h)).append("</th>"));
        html.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : table.rows()) {
            html.append("<tr>");
            row.forEach(c -> html.append("<td>").append(Html.escape(c)).append("</td>"));
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }
}
