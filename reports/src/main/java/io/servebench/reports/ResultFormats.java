package io.servebench.reports;

import io.servebench.results.ResultFormat;
import io.servebench.results.jmh.JmhJsonWriter;

/** The {@link ResultFormat} of each {@link ResultFormatType}, as JMH's {@code ResultFormatFactory} gives them. */
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
}
