package io.servebench.execution.slurm;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A job script holds the worker's command word by word: bash reads each quoted word back as it was. */
class SlurmScriptWordsTest {

    @Test
    void bashReadsEveryQuotedWordBackUnchanged() throws Exception {
        for (String word : List.of("plain", "it's", "$HOME and `date`", "\"double\" \\ back", "spaces  and\ttabs", "-p",
                "dataset=synthetic:in=fixed(512),out=uniform(64,256)", "")) {
            Process bash = new ProcessBuilder("bash", "-c", "printf %s " + SlurmExecutor.quote(word)).start();
            String back = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(bash.waitFor()).isZero();
            assertThat(back).as(word).isEqualTo(word);
        }
    }
}
