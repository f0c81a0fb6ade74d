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
        return switch (type) {
            case JSON -> new JmhJsonWriter();
            case MARKDOWN -> new SummaryMarkdownWriter(language);
            case HTML -> new HtmlReportWriter(language);
        };
    }
}
