package io.servebench.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The log's last line as a start's wait notice shows it: what a terminal would show of a progress bar. */
class LogTailTest {

    @Test
    void theLastLineIsWhatFollowsAProgressBarsLastCarriageReturn(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s01.log");
        // as vLLM writes tqdm's bar: the same line redrawn after each carriage return, then blank lines
        Files.writeString(log, "INFO starting\nLoading safetensors checkpoint shards:   0% Completed | 0/4\r"
                + "Loading safetensors checkpoint shards:  25% Completed | 1/4\r\n\n  \n");
        assertThat(LogTail.lastLine(log, 160)).isEqualTo("Loading safetensors checkpoint shards:  25% Completed | 1/4");
        assertThat(LogTail.lastLine(log, 20)).isEqualTo("Loading safetenso...").hasSize(20);
    }

    @Test
    void anEmptyOrMissingLogHasNoLastLine(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("s02.log");
        Files.writeString(log, "");
        assertThat(LogTail.lastLine(log, 160)).isEmpty();
        assertThat(LogTail.lastLine(dir.resolve("missing.log"), 160)).startsWith("(cannot read ");
    }
}
