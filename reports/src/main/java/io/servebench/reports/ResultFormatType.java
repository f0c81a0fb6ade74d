package io.servebench.reports;

/** The files a run writes, each in its own format. */
public enum ResultFormatType {
    /** JMH's JSON result format, read by JMH visualizers, CI benchmark actions and {@code compare}. */
    JSON("results.json"),
    /** The markdown summary: the decision, the comparisons and every result block. */
    MARKDOWN("summary.md"),
    /** The same as one offline HTML file, with charts. */
    HTML("report.html");

    private final String fileName;

    ResultFormatType(String fileName) {
        this.fileName = fileName;
    }

    /** The file's name in the run folder. */
    public String fileName() {
        return fileName;
    }
}
