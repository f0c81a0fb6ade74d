package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * vLLM's {@code --hf-overrides} changes the model the twin reads as it changes the one vLLM serves: a value of another
 * kind set at the config's top level ({@code config.update}), an object naming a nested config merged into it key by
 * key, an object naming a plain parameter replacing it whole ({@code ModelConfig._apply_dict_overrides},
 * {@code vllm/config/model.py}).
 */
class ConfigOverridesTest {

    private static SimParams vllm(String model, String... flags) {
        return SimParams.fromFlags(SimDialect.VLLM, model, List.of(flags), GpuProfile.named("h100"));
    }

    /**
     * Qwen3's card extends its context with YaRN (factor 4 over 32,768 tokens); given as an override, vLLM's context is
     * then 131,072 tokens, and a smaller stated length caps it.
     */
    @Test
    void anOverrideChangesTheContextAsTheConfigWould() {
        assertThat(vllm("Qwen/Qwen3-8B").maxModelLen()).isEqualTo(40_960);
        assertThat(vllm("Qwen/Qwen3-8B", "--hf-overrides={\"rope_scaling\":{\"rope_type\":\"yarn\",\"factor\":4.0,"
                + "\"original_max_position_embeddings\":32768}}").maxModelLen()).isEqualTo(131_072);
        assertThat(vllm("Qwen/Qwen3-8B", "--hf-overrides={\"max_position_embeddings\":8192}").maxModelLen())
                .isEqualTo(8192);
        assertThat(vllm("Qwen/Qwen3-8B", "--hf-overrides={\"max_position_embeddings\":8192}").modelSource())
                .isEqualTo("built in with --hf-overrides {\"max_position_embeddings\":8192}");
    }

    /** An object naming a nested config is merged into it: the text model keeps every key the override leaves alone. */
    @Test
    void anObjectNamingANestedConfigIsMergedIntoIt() {
        ModelProfile gemma = vllm("google/gemma-4-31B-it", "--tensor-parallel-size=2").model();
        ModelProfile narrower = vllm("google/gemma-4-31B-it", "--tensor-parallel-size=2",
                "--hf-overrides={\"text_config\":{\"sliding_window\":512}}").model();
        assertThat(narrower.window().tokens()).isEqualTo(512);
        assertThat(narrower.parameters()).isEqualTo(gemma.parameters());
        assertThat(narrower.kvBytesPerToken()).isEqualTo(gemma.kvBytesPerToken());
    }

    /**
     * vLLM's IndexCache for DeepSeek V3.2 ({@code --hf-overrides '{"index_topk_freq": 4}'}): with the offset's default 2,
     * layers 0, 1, 5, 9, ..., 57 choose their own top-k, 16 of 61, and only they hold an indexer's keys.
     */
    @Test
    void sharedIndexersCanBeAskedForByOverride() {
        SimParams shared = SimParams.fromFlags(SimDialect.VLLM, "deepseek-ai/DeepSeek-V3.2", List.of(
                "--tensor-parallel-size=8", "--hf-overrides={\"index_topk_freq\":4}"), GpuProfile.named("h200"));
        assertThat(shared.model().kvBytesPerToken()).isEqualTo((2 + 14) * 132.0);
    }

    @Test
    void anOverrideThatCannotApplyIsRefusedNamingIt() {
        assertThatThrownBy(() -> vllm("Qwen/Qwen3-8B", "--hf-overrides=[1]"))
                .hasMessageStartingWith("--hf-overrides [1] is not a JSON object; expected the config keys to override");
        assertThatThrownBy(() -> vllm("Qwen/Qwen3.5-9B", "--hf-overrides={\"max_position_embeddings\":8192}"))
                .hasMessageContaining("cannot be applied to Qwen/Qwen3.5-9B's built-in profile, which no config.json"
                        + " describes");
        assertThatThrownBy(() -> vllm("Qwen/Qwen3-8B", "--hf-overrides={\"num_hidden_layers\":\"many\"}"))
                .hasMessageContaining("\"num_hidden_layers\" must be a whole number >= 1, got \"many\"");
    }
}
