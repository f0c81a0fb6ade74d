package io.servebench.reports;

import io.servebench.results.ResultFormat;
import io.servebench.results.jmh.JmhJsonWriter;

/**
 * The {@link ResultFormat} of each {@link ResultFormatType}, as JMH's {@code ResultFormatFactory} gives them; and the
 * summary's statement of a simulated run's figures, which the console repeats ({@link #rehearsal}).
 */
public final class ResultFormats {

    private ResultFormats() {
    }

    /**
     * @param language the language of the text reports (JMH JSON has none)
     */
    public static ResultFormat of(ResultFormatType type, ReportLanguage language) {
        return of(type, language, block -> java.util.Optional.empty());
    }

    /**
     * @param language  the language of the text reports (JMH JSON has none)
     * @param timelines each block's request timeline, which {@code report.html} draws; empty for none
     */
    public static ResultFormat of(ResultFormatType type, ReportLanguage language,
                                  java.util.function.Function<io.servebench.results.BlockResult,
                                          java.util.Optional<io.servebench.results.RequestTimeline>> timelines) {
        return switch (type) {
            case JSON -> new JmhJsonWriter();
            case MARKDOWN -> new SummaryMarkdownWriter(language);
            case HTML -> new HtmlReportWriter(language, timelines);
        };
    }

    /**
     * For a run on the simulated engine, the summary's first screen on it: that its figures are a rehearsal, then each
     * error bar it states (which way the twin leaned included) and the flags it did not model, a line each, indented as
     * list items; empty for a run of real engines. English: what a run's last console lines repeat, so that a user who
     * never opens the summary still reads it.
     */
    public static java.util.List<String> rehearsal(io.servebench.results.RunResult run) {
        ReportContent content = new ReportContent(run, ReportLanguage.EN);
        java.util.List<String> bars = content.twinBars();
        if (bars.isEmpty()) {
            return java.util.List.of();
        }
        java.util.List<String> lines = new java.util.ArrayList<>();
        lines.add(content.engines());
        bars.forEach(bar -> lines.add("  - " + bar));
        return lines;
    }
}
