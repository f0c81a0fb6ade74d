package io.servebench.junit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A study's folder is replaced by its next run from the IDE or {@code mvn test}; a folder that holds no run is kept. */
class ReplacePreviousRunTest {

    @Test
    void aPreviousRunIsDeletedAndAForeignFolderIsNot(@TempDir Path tmp) throws IOException {
        Path run = tmp.resolve("MyStudy");
        Files.createDirectories(run.resolve("requests"));
        Files.writeString(run.resolve("journal.jsonl"), "{\"run\":{}}\n");
        Files.writeString(run.resolve("requests/t01.jsonl.gz"), "x");
        StudyExecution.replacePreviousRun(run);
        assertThat(run).doesNotExist();
        StudyExecution.replacePreviousRun(run);

        Path foreign = tmp.resolve("Other");
        Files.createDirectories(foreign);
        Files.writeString(foreign.resolve("notes.txt"), "mine");
        assertThatThrownBy(() -> StudyExecution.replacePreviousRun(foreign)).hasMessageContaining("holds files but no ServeBench run");
        assertThat(foreign.resolve("notes.txt")).exists();
    }
}
