package io.servebench.results;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A way to write a run's results to a file, as JMH's {@code ResultFormat}: JMH JSON, the markdown summary, the
 * HTML report. Implementations are obtained by type from {@code io.servebench.reports.ResultFormats}.
 */
public interface ResultFormat {

    /**
     * Writes {@code run} to {@code file}, replacing what was there.
     *
     * @throws IOException when the file cannot be written
     */
    void write(RunResult run, Path file) throws IOException;
}
