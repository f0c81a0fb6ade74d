package io.servebench.reports;

import io.servebench.compare.BaselineGroup;
import io.servebench.results.BlockResult;
import io.servebench.results.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code summary.md} in one {@link ReportLanguage}: run info; the decision (the optimization
 * summary table, each study's recommended serve command, baseline against recommended across
 * workload points); per group the comparison sentences with their verdicts ({@link Comparison});
 * an overview table; then every result block as a table in the reference study's order and in
 * {@code vllm bench serve}'s text layout. The words come from the language's {@link Messages}; what
 * is said comes from {@link ReportContent}.
 */
final class SummaryMarkdownWriter extends TextReport {

    SummaryMarkdownWriter(ReportLanguage language) {
        super(language);
    }

    /** The summary as markdown text. */
    @Override
    public String render(RunResult run) {
        ReportContent content = new ReportContent(run, language);
        Messages m = content.messages();
        StringBuilder md = new StringBuilder();
        md.append("# ").append(m.text("title")).append("\n\n");
        md.append("- ").append(m.text("run.started", run.startTime())).append('\n');
        md.append("- ").append(m.text("run.version", run.servebenchVersion())).append('\n');
        md.append("- ").append(m.text("run.command", "`" + run.commandLine() + "`")).append('\n');
        md.append("- ").append(content.engines()).append('\n');
        content.twinBars().forEach(bar -> md.append("  - ").append(bar).append('\n'));
        md.append("- ").append(m.text("run.quick", m.text(run.quick() ? "run.quick.yes" : "run.quick.no"))).append('\n');
        md.append("- ").append(m.text("run.blocks", run.blocks().size())).append('\n');
        content.runState().ifPresent(state -> md.append("- **").append(state).append("**\n"));
        content.nothingCompared().ifPresent(line -> md.append("- ").append(line).append('\n'));
        content.jsonOmitted().ifPresent(line -> md.append("- ").append(line).append('\n'));
        md.append('\n');
        // The decision first, then how each verdict was reached, then every block in full.
        content.tuning().ifPresent(t -> tuning(md, m, t));
        if (!content.capacities().isEmpty()) {
            md.append("## ").append(m.text("capacity.heading")).append("\n\n").append(m.text("capacity.intro")).append("\n\n");
            for (ReportContent.Capacity c : content.capacities()) {
                md.append("**").append(c.configuration()).append("**").append(c.afterName()).append("\n\n");
                table(md, c.table());
            }
        }
        if (content.nothingCompared().isEmpty()) {
            decision(md, content);
            comparisons(md, content);
        }
        md.append("## ").append(m.text("overview.heading")).append("\n\n").append(m.text("overview.intro")).append("\n\n");
        table(md, content.overview());
        content.ttftByTurn().ifPresent(byTurn -> {
            md.append("## ").append(m.text("turns.across.heading")).append("\n\n").append(m.text("turns.across.intro"))
                    .append("\n\n");
            table(md, byTurn);
            content.ttftByTurnAgainstBaseline().ifPresent(against -> {
                md.append(m.text("turns.against.intro")).append("\n\n");
                table(md, against);
            });
        });
        if (!run.servers().isEmpty()) {
            md.append("## ").append(m.text("servers.heading")).append("\n\n");
            table(md, content.servers());
        }
        md.append("## ").append(m.text("blocks.heading")).append("\n\n").append(m.text("blocks.plusMinus")).append("\n\n");
        for (BlockResult trial : run.blocks()) {
            block(md, content, trial);
        }
        return md.toString();
    }

    private static void tuning(StringBuilder md, Messages m, ReportContent.Tuning t) {
        md.append("## ").append(m.text("tuning.heading")).append("\n\n").append(t.intro()).append("\n\n");
        for (Map.Entry<String, Table> step : t.steps()) {
            md.append("### ").append(step.getKey()).append("\n\n");
            if (!step.getValue().rows().isEmpty()) {
                table(md, step.getValue());
            }
        }
        md.append(t.result()).append("\n\n");
        if (!t.caveats().isEmpty()) {
            md.append("**").append(m.text("tuning.caveats")).append("**\n\n");
            t.caveats().forEach(c -> md.append("- ").append(c).append('\n'));
            md.append('\n');
        }
    }

    private static void decision(StringBuilder md, ReportContent content) {
        Messages m = content.messages();
        md.append("## ").append(m.text("summary.heading")).append("\n\n").append(m.text("summary.intro")).append("\n\n");
        Table summary = content.optimizationSummary();
        if (summary.rows().isEmpty()) {
            md.append(m.text("summary.none")).append("\n\n");
        } else {
            table(md, summary);
        }
        List<ReportContent.Recommendation> recommendations = content.recommendations();
        if (!recommendations.isEmpty()) {
            md.append("## ").append(m.text("recommended.heading")).append("\n\n");
            for (ReportContent.Recommendation r : recommendations) {
                md.append(m.text("recommended.intro", r.study(), "**" + r.variant() + "**")).append("\n\n```sh\n")
                        .append(r.command()).append("\n```\n\n");
                if (r.simulated() != null) {
                    md.append(m.text("recommended.simulated", r.simulated())).append("\n\n");
                }
                if (r.shortfall() != null) {
                    md.append(r.shortfall()).append("\n\n");
                }
            }
        }
        List<ReportContent.CrossRate> crossRates = content.crossRates();
        if (!crossRates.isEmpty()) {
            md.append("## ").append(m.text("crossrate.heading")).append("\n\n");
            for (ReportContent.CrossRate c : crossRates) {
                md.append("### ").append(c.study()).append("\n\n");
                table(md, c.table());
            }
        }
    }

    private static void comparisons(StringBuilder md, ReportContent content) {
        Messages m = content.messages();
        md.append("## ").append(m.text("comparisons.heading")).append("\n\n");
        for (BaselineGroup g : content.groups()) {
            md.append("### ").append(content.heading(g)).append("\n\n");
            if (g.baseline() == null) {
                md.append(m.text("comparisons.noBaseline")).append("\n\n");
                continue;
            }
            if (g.others().isEmpty()) {
                md.append(m.text("comparisons.onlyBaseline")).append("\n\n");
                continue;
            }
            md.append(m.text("comparisons.baseline", "**" + g.baseline().displayName() + "**")).append("\n\n");
            for (ReportContent.Row line : content.comparisonLines(g)) {
                md.append("- ").append(line.label().isEmpty() ? line.value()
                        : m.text("item", "**" + line.label() + "**", line.value())).append('\n');
            }
            md.append('\n');
        }
    }

    private static void block(StringBuilder md, ReportContent content, BlockResult trial) {
        Messages m = content.messages();
        md.append("### ").append(content.blockTitle(trial)).append("\n\n");
        md.append("- ").append(m.text("item", m.text("block.benchmark"), "`" + trial.benchmark() + "`")).append('\n');
        List<String> params = new ArrayList<>();
        trial.params().forEach((k, v) -> params.add(k + " = `" + v + "`"));
        md.append("- ").append(m.text("item", m.text("block.params"),
                params.isEmpty() ? m.text("block.none") : String.join(", ", params))).append('\n');
        String group = (trial.group().isEmpty() ? m.text("block.none") : trial.group())
                + (trial.baseline() ? " · **" + m.text("role.baseline") + "**" : "")
                + (trial.recommended() ? " · **" + m.text("role.recommended") + "**" : "");
        md.append("- ").append(m.text("item", m.text("block.group"), group)).append('\n');
        md.append("- ").append(m.text("block.trial", trial.trialId(), trial.serverId(), trial.repetitions().size()))
                .append("\n\n");
        content.blockState(trial).ifPresent(state -> md.append("**").append(state).append("**\n\n"));
        content.incomplete(trial).ifPresent(incomplete -> {
            md.append(m.text("incomplete.heading")).append("\n\n");
            table(md, incomplete);
        });
        if (trial.repetitions().isEmpty()) {
            return;
        }
        for (String note : content.notes(trial)) {
            md.append("> **").append(m.text("note.label")).append("** ").append(note).append("\n\n");
        }
        for (String warning : content.warnings(trial)) {
            md.append("> **").append(m.text("warning.label")).append("** ").append(warning).append("\n\n");
        }
        List<List<String>> rows = content.rows(trial).stream().map(r -> List.of(r.label(), r.value())).toList();
        table(md, new Table(List.of(m.text("block.metric"), m.text("block.value")), rows));
        for (ReportContent.Breakdown breakdown : content.breakdowns(trial)) {
            md.append(breakdown.heading()).append("\n\n");
            table(md, breakdown.table());
        }
        md.append("```\n").append(VllmBenchLayout.of(trial)).append("```\n\n");
    }

    private static void table(StringBuilder md, Table table) {
        md.append("| ").append(String.join(" | ", table.header().stream().map(SummaryMarkdownWriter::cell).toList()))
                .append(" |\n|").append("---|".repeat(table.header().size())).append('\n');
        for (List<String> row : table.rows()) {
            md.append("| ").append(String.join(" | ", row.stream().map(SummaryMarkdownWriter::cell).toList())).append(" |\n");
        }
        md.append('\n');
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
