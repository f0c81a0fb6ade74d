package io.servebench.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** A model is known, from where the engines read it, or it is refused: never another model's figures. */
class ModelLookupTest {

    @Test
    void aModelNeitherBuiltInNorFoundIsRefusedNamingEveryPlaceLooked(@TempDir Path hfHome) {
        assertThatThrownBy(() -> ModelLookup.find("my-org/Llama-3.1-70B-support", null,
                Map.of("HF_HOME", hfHome.toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the simulated engine does not know model my-org/Llama-3.1-70B-support:"
                        + " no built-in profile (deepseek-r1, deepseek-r1-0528, glm-4.5-air, glm-4.6, glm-4.6-fp8, gpt-oss-120b, gpt-oss-20b, llama-3.1-70b-instruct,")
                .hasMessageContaining("nothing in the Hugging Face cache at " + hfHome.resolve("hub")
                        .resolve("models--my-org--Llama-3.1-70B-support").resolve("refs").resolve("main"))
                .hasMessageEndingWith("or name it with --sim-model-config=PATH (or vLLM's --hf-config-path=PATH)");
        // and so does a run that names it: no Qwen3.5-9B stands in
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "my-org/Llama-3.1-70B-support",
                List.of("--tp-size=4"))).hasMessageContaining("does not know model my-org/Llama-3.1-70B-support");
    }

    /** huggingface_hub's cache layout: {@code hub/models--OWNER--NAME/refs/main} names the snapshot to read. */
    @Test
    void aModelInTheHuggingFaceCacheIsReadAtTheRevisionMainNames(@TempDir Path hfHome) throws IOException {
        Path repo = hfHome.resolve("hub").resolve("models--my-org--Llama-3.1-70B-support");
        Files.createDirectories(repo.resolve("refs"));
        Files.writeString(repo.resolve("refs").resolve("main"), "0e9e39f249a16976918f6564b8830bc894c89659");
        Path snapshot = Files.createDirectories(repo.resolve("snapshots").resolve("0e9e39f249a16976918f6564b8830bc894c89659"));
        Files.writeString(snapshot.resolve("config.json"), ModelLookupFixtures.LLAMA_31_70B);
        Files.createDirectories(repo.resolve("snapshots").resolve("an-older-revision"));

        ModelLookup.Found found = ModelLookup.find("my-org/Llama-3.1-70B-support", null,
                Map.of("HF_HOME", hfHome.toString()));
        assertThat(found.source()).isEqualTo(snapshot.resolve("config.json").toString());
        assertThat(found.profile().parameters()).isCloseTo(70.6e9, within(0.1e9));
        // HF_HUB_CACHE wins over HF_HOME, as in huggingface_hub
        assertThat(ModelLookup.hubCache(Map.of("HF_HOME", "/a", "HF_HUB_CACHE", "/b"))).isEqualTo(Path.of("/b"));
    }

    @Test
    void aModelGivenAsAFolderIsReadFromItsConfigAndAConfigNamedForAnyEngineWins(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("config.json"), ModelLookupFixtures.LLAMA_31_70B);
        assertThat(ModelLookup.find(dir.toString(), null, Map.of()).source()).isEqualTo(dir.resolve("config.json").toString());
        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, "my-org/Llama-3.1-70B-support",
                List.of("--tp-size=4", SimParams.SIM_MODEL_CONFIG + "=" + dir));
        assertThat(sglang.model().parameters()).isCloseTo(70.6e9, within(0.1e9));
        assertThat(sglang.startLog()).contains("model my-org/Llama-3.1-70B-support: config " + dir.resolve("config.json"));
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of()).startLog())
                .contains("model Qwen/Qwen3-8B: config built in");
    }

    /**
     * Keys that change the physics in ways the simulated engine does not model are refused by name:
     * Mistral-7B-v0.1's {@code sliding_window} 4096, gpt-oss-20b's MXFP4 weights
     * ({@code "quant_method": "mxfp4"}); each value from the model's published config.json. Qwen's configs carry
     * {@code sliding_window} with {@code "use_sliding_window": false}, which is no sliding window.
     */
    @Test
    void configKeysThatChangeThePhysicsUnmodelledAreRefusedByName() {
        String dense = "\"hidden_size\": 4096, \"intermediate_size\": 14336, \"max_position_embeddings\": 32768,"
                + " \"num_attention_heads\": 32, \"num_hidden_layers\": 32, \"num_key_value_heads\": 8,"
                + " \"vocab_size\": 32000, \"torch_dtype\": \"bfloat16\"";
        // latent attention and DeepSeek's expert keys are read now: a config short of their shapes names what is missing
        assertThatThrownBy(() -> ModelProfile.fromConfig("deepseek-ai/DeepSeek-V3", "{" + dense + ", \"kv_lora_rank\": 512}"))
                .hasMessageContaining("\"qk_rope_head_dim\" must be a whole number >= 1, got nothing");
        assertThatThrownBy(() -> ModelProfile.fromConfig("zai-org/GLM-4.5-Air",
                "{" + dense + ", \"n_routed_experts\": 128, \"first_k_dense_replace\": 1}"))
                .hasMessageContaining("\"num_experts_per_tok\" must be a whole number >= 1, got nothing");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", "{" + dense + ", \"first_k_dense_replace\": 1}"))
                .hasMessageContaining("\"first_k_dense_replace\" without \"n_routed_experts\"");
        assertThatThrownBy(() -> ModelProfile.fromConfig("mistralai/Mistral-7B-v0.1", "{" + dense + ", \"sliding_window\": 4096}"))
                .hasMessageContaining("\"sliding_window\" 4096 without \"layer_types\": sliding-window attention");
        // MXFP4 is modelled on routed experts with the attention left in bf16, as gpt-oss ships it; not otherwise
        assertThatThrownBy(() -> ModelProfile.fromConfig("dense-mxfp4", "{" + dense + ", \"quantization_config\":"
                + " {\"quant_method\": \"mxfp4\", \"modules_to_not_convert\": [\"model.layers.*.self_attn\"]}}"))
                .hasMessageContaining("MXFP4 weights of a model without routed experts are not modelled");
        assertThatThrownBy(() -> ModelProfile.fromConfig("all-mxfp4", "{" + dense + ", \"quantization_config\":"
                + " {\"quant_method\": \"mxfp4\"}}")).hasMessageContaining("MXFP4 on the attention weights too");
        assertThatThrownBy(() -> ModelProfile.fromConfig("all-sliding", "{" + dense + ", \"sliding_window\": 4096,"
                + " \"layer_types\": [" + String.join(",", java.util.Collections.nCopies(32, "\"sliding_attention\""))
                + "]}")).hasMessageContaining("no layer of \"layer_types\" is full_attention");
        assertThat(ModelProfile.fromConfig("qwen-like", "{" + dense + ", \"sliding_window\": 131072,"
                + " \"use_sliding_window\": false}").parameters()).isPositive();
    }
}
