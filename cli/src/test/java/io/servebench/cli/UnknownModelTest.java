package io.servebench.cli;

import io.servebench.runner.ConfiguredModelStudy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulated engine never stands another model in for one it does not know. */
class UnknownModelTest {

    private static int run(StringWriter out, String... args) {
        return Main.execute(args, new PrintWriter(out, true), new PrintWriter(out, true));
    }

    @Test
    void aModelTheTwinDoesNotKnowIsRefusedBeforeAnythingStartsAndRunsOnceItsConfigIsGiven(@TempDir Path dir)
            throws Exception {
        StringWriter refused = new StringWriter();
        int code = run(refused, "UnknownModelStudy", "--simulate=virtual", "-o", dir.resolve("refused").toString());
        assertThat(code).as(refused.toString()).isEqualTo(2);
        assertThat(refused.toString()).contains("simulated sglang cannot stand in: the simulated engine does not know"
                + " model my-org/Llama-3.1-70B-support: no built-in profile").contains("--sim-model-config=PATH")
                .doesNotContain("Starting");

        // the model's published config.json (its model card: 70.6B parameters), given for an engine without a flag
        Path config = Files.writeString(dir.resolve("config.json"), io.servebench.sim.ModelLookupFixtures.LLAMA_31_70B);
        StringWriter ran = new StringWriter();
        code = run(ran, "UnknownModelStudy", "--simulate=virtual", "--sim-model-config", config.toString(), "-o",
                dir.resolve("ran").toString());
        assertThat(code).as(ran.toString()).isZero();
        assertThat(Files.readString(dir.resolve("ran").resolve("summary.md"))).contains("model config " + config);
    }

    @Test
    void aStudyNamesItsModelsConfigInServerOptionsAndTheCommandLineWinsOverIt(@TempDir Path dir) throws Exception {
        Path config = Path.of(ConfiguredModelStudy.CONFIG).toAbsolutePath();
        Files.createDirectories(config.getParent());
        Files.writeString(config, io.servebench.sim.ModelLookupFixtures.LLAMA_31_70B);
        StringWriter ran = new StringWriter();
        int code = run(ran, "ConfiguredModelStudy", "--simulate=virtual", "-o", dir.resolve("ran").toString());
        assertThat(code).as(ran.toString()).isZero();
        assertThat(Files.readString(dir.resolve("ran").resolve("summary.md"))).contains("model config " + config);

        // the command line's config replaces the study's: here one that does not exist, which the run names and refuses
        StringWriter refused = new StringWriter();
        code = run(refused, "ConfiguredModelStudy", "--simulate=virtual", "--sim-model-config",
                dir.resolve("absent.json").toString(), "-o", dir.resolve("refused").toString());
        assertThat(code).as(refused.toString()).isEqualTo(2);
        assertThat(refused.toString()).contains(dir.resolve("absent.json").toString()).doesNotContain("Starting");
    }
}
