package io.servebench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

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

    /**
     * {@code --write-evidence} writes the held-out blocks' evidence of the twin as it ships, which every simulated block
     * of the reference's kind states: the file written is the bundled one, and any option that makes it something else
     * is refused.
     */
    @Test
    void writeEvidenceWritesTheBundledFileAndIsRefusedBesideAFitOrAnotherReference(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path file = dir.resolve("calibration.json");

        int code = Main.execute(new String[] {"sim", "calibrate", "--no-fit", "--write-evidence", file.toString()},
                new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).as(err.toString()).isZero();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        try (java.io.InputStream bundled = io.servebench.sim.TwinCalibration.class.getResourceAsStream(
                io.servebench.sim.TwinCalibration.RESOURCE)) {
            assertThat(json.readTree(file.toFile())).isEqualTo(json.readTree(bundled));
        }
        for (String[] other : List.of(new String[] {"--write-evidence", file.toString()},
                new String[] {"--no-fit", "--seed", "7", "--write-evidence", file.toString()})) {
            StringWriter refused = new StringWriter();
            String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("sim", "calibrate"),
                    java.util.Arrays.stream(other)).toArray(String[]::new);
            assertThat(Main.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(refused, true)))
                    .isEqualTo(2);
            assertThat(refused.toString()).contains("--write-evidence writes what the twin as it ships shows on the"
                    + " bundled reference: give it with --no-fit and none of --reference");
        }
    }
}
