package io.servebench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class SimCalibrateCommandTest {

    @Test
    void aMissingReferenceFileIsOneLineNamingItAndExitCode2(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path missing = dir.resolve("missing.json");

        int code = Main.execute(new String[] {"sim", "calibrate", "--no-fit", "--reference", missing.toString()},
                new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("reference file " + missing + " does not exist");
    }

    @Test
    void noFitPrintsTheTableWithTheShippedConstants() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = Main.execute(new String[] {"sim", "calibrate", "--no-fit"}, new PrintWriter(out, true),
                new PrintWriter(err, true));

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("| vLLM per-sequence host time (us) | 70.3 | 70.3 |")
                .contains("| engine-selection/baseline sglang | 8.00 | fit | 8.13 / ").contains("18 reference blocks")
                .contains("Held-out blocks within every target: no (see the table).");
    }
}
