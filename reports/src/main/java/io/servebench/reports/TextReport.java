package io.servebench.reports;

import io.servebench.results.ResultFormat;
import io.servebench.results.RunResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/** A report rendered as one text in one language from the run's {@link ReportContent}, and written as UTF-8. */
abstract class TextReport implements ResultFormat {

    final ReportLanguage language;

    TextReport(ReportLanguage language) {
        this.language = Objects.requireNonNull(language, "language");
    }

    /** Writes the report of {@code run} to {@code file} (replacing it). */
    @Override
    public final void write(RunResult run, Path file) throws IOException {
        Files.writeString(file, render(run), StandardCharsets.UTF_8);
    }

    /** The whole report as text. */
    abstract String render(RunResult run);
}
