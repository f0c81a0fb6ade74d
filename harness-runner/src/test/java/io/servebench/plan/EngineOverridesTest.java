package io.servebench.plan;

import io.servebench.engine.kind.EngineSetup;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command line's {@code --engine-env}: a variable set, or one of ServeBench's own handed on, never a secret's value. */
class EngineOverridesTest {

    @Test
    void aVariableIsSetOrHandedOnAndReplacesTheStudysOwn() {
        EngineSetup study = new EngineSetup("", List.of("CUDA_VISIBLE_DEVICES=0", "HF_TOKEN"), "", List.of(), "", "");
        EngineSetup run = new EngineOverrides("", List.of("CUDA_VISIBLE_DEVICES=1", "HF_HUB_OFFLINE=1", "OPENAI_API_KEY"),
                "", "").applyTo(study);
        assertThat(run.env()).containsExactly("CUDA_VISIBLE_DEVICES=1", "HF_TOKEN", "HF_HUB_OFFLINE=1", "OPENAI_API_KEY");
    }

    @Test
    void aSecretsValueOnTheCommandLineIsRefusedForItsName() {
        // the journal keeps the command line masked (HF_TOKEN=***), which --resume would hand the engine
        assertThatThrownBy(() -> new EngineOverrides("", List.of("HF_TOKEN=hf_abc"), "", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--engine-env HF_TOKEN=...: a secret on the command line reaches the shell's history, and"
                        + " --resume would find it masked in the journal; export HF_TOKEN and write --engine-env HF_TOKEN"
                        + " to hand it on")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("hf_abc"));
        assertThatThrownBy(() -> new EngineOverrides("", List.of("=1"), "", "")).hasMessageContaining("expected NAME=value");
    }
}
