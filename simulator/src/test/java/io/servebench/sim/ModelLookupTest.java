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
                        + " no built-in profile (deepseek-r1, deepseek-r1-0528, deepseek-v3, deepseek-v3-0324, deepseek-v3.2,"
                        + " deepseek-v3.2-exp, gemma-4-26b-a4b, gemma-4-26b-a4b-it, gemma-4-31b, gemma-4-31b-it,"
                        + " glm-4.5-air, glm-4.6, glm-4.6-fp8, glm-5, glm-5-fp8, glm-5.1,"
                        + " glm-5.1-fp8, gpt-oss-120b, gpt-oss-20b, llama-3.1-70b-instruct,")
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
     * a Mixtral config's {@code sliding_window} 4096 (on every layer, in an architecture whose window SGLang's code was
     * not read for), gpt-oss-20b's MXFP4 weights
     * ({@code "quant_method": "mxfp4"}); each value from the model's published config.json. Qwen's configs carry
     * {@code sliding_window} with {@code "use_sliding_window": false}, which is no sliding window.
     */
    @Test
    void configKeysThatChangeThePhysicsUnmodelledAreRefusedByName() {
        String dense = "\"hidden_size\": 4096, \"intermediate_size\": 14336, \"max_position_embeddings\": 32768,"
                + " \"num_attention_heads\": 32, \"num_hidden_layers\": 32, \"num_key_value_heads\": 8,"
                + " \"vocab_size\": 32000, \"torch_dtype\": \"bfloat16\"";
        java.util.function.Function<String, String> as = architecture -> "{\"architectures\": [\"" + architecture
                + "\"], " + dense;
        // latent attention and DeepSeek's expert keys are read now: a config short of their shapes names what is missing
        assertThatThrownBy(() -> ModelProfile.fromConfig("deepseek-ai/DeepSeek-V3", as.apply("DeepseekV3ForCausalLM") + ", \"kv_lora_rank\": 512}"))
                .hasMessageContaining("\"qk_rope_head_dim\" must be a whole number >= 1, got nothing");
        // (a class without expert defaults: GLM's and DeepSeek's classes default both keys, see ModelProfileTest)
        assertThatThrownBy(() -> ModelProfile.fromConfig("m",
                as.apply("LlamaForCausalLM") + ", \"n_routed_experts\": 128, \"first_k_dense_replace\": 1}"))
                .hasMessageContaining("\"num_experts_per_tok\" must be a whole number >= 1, got nothing");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", as.apply("LlamaForCausalLM") + ", \"first_k_dense_replace\": 1}"))
                .hasMessageContaining("\"first_k_dense_replace\" without \"n_routed_experts\"");
        // Mistral's window on every layer is modelled (SlidingWindowServingTest); Mixtral's, whose SGLang code was not read,
        // is not
        assertThatThrownBy(() -> ModelProfile.fromConfig("mixtral-like", as.apply("MixtralForCausalLM")
                + ", \"sliding_window\": 4096}"))
                .hasMessageContaining("\"sliding_window\" 4096 without \"layer_types\": sliding-window attention");
        // MXFP4 is modelled on routed experts with the attention left in bf16, as gpt-oss ships it; not otherwise
        assertThatThrownBy(() -> ModelProfile.fromConfig("dense-mxfp4", as.apply("LlamaForCausalLM") + ", \"quantization_config\":"
                + " {\"quant_method\": \"mxfp4\", \"modules_to_not_convert\": [\"model.layers.*.self_attn\"]}}"))
                .hasMessageContaining("MXFP4 weights of a model without routed experts are not modelled");
        assertThatThrownBy(() -> ModelProfile.fromConfig("all-mxfp4", as.apply("GptOssForCausalLM") + ", \"quantization_config\":"
                + " {\"quant_method\": \"mxfp4\"}}")).hasMessageContaining("MXFP4 on the attention weights too");
        assertThatThrownBy(() -> ModelProfile.fromConfig("all-linear", as.apply("Gemma3ForCausalLM") + ", \"sliding_window\": 4096,"
                + " \"layer_types\": [" + String.join(",", java.util.Collections.nCopies(32, "\"linear_attention\""))
                + "]}")).hasMessageContaining("no layer of \"layer_types\" is full_attention or sliding_attention");
        assertThat(ModelProfile.fromConfig("qwen-like", as.apply("Qwen2ForCausalLM") + ", \"sliding_window\": 131072,"
                + " \"use_sliding_window\": false}").parameters()).isPositive();
    }

    /**
     * An architecture the twin does not model is refused by its class name, though each of its keys the reader knows
     * would read: Llama 4's text-only class ({@code Llama4ForCausalLM}, as a text fine-tune of Scout ships it), whose
     * chunked layers SGLang's pool and local-attention lists do not name (they name the published
     * {@code Llama4ForConditionalGeneration}, which is read: {@code SlidingWindowServingTest}); Jamba's ({@code
     * jamba}) mixes Mamba layers into attention, whose keys the reader does not know. DeepSeek V3.2's sparse attention is
     * read on vLLM ({@code SparseAttentionTest}; SGLang's is refused). A config without a
     * class is known by its {@code model_type}, as Kimi K2's {@code kimi_k2} names DeepSeek V3's architecture, and one
     * naming neither is refused. The classes and keys are the published configs', as public code copies them.
     */
    @Test
    void anArchitectureTheTwinDoesNotModelIsRefusedByItsClassName(@TempDir Path dir) throws IOException {
        String scout = "{\"architectures\": [\"Llama4ForCausalLM\"], \"model_type\": \"llama4_text\","
                + " \"text_config\": {\"num_hidden_layers\": 48, \"hidden_size\": 5120, \"num_attention_heads\": 40,"
                + " \"num_key_value_heads\": 8, \"head_dim\": 128, \"intermediate_size\": 8192,"
                + " \"intermediate_size_mlp\": 16384, \"vocab_size\": 202048, \"max_position_embeddings\": 10485760,"
                + " \"num_experts_per_tok\": 1, \"num_local_experts\": 16, \"interleave_moe_layer_step\": 1,"
                + " \"attention_chunk_size\": 8192}}";
        assertThatThrownBy(() -> ModelProfile.fromConfig("meta-llama/Llama-4-Scout-17B-16E-Instruct", scout))
                .hasMessageStartingWith("config.json of meta-llama/Llama-4-Scout-17B-16E-Instruct: \"architectures\" names"
                        + " Llama4ForCausalLM, an architecture the simulated engine does not model (it models"
                        + " LlamaForCausalLM, MistralForCausalLM,")
                .hasMessageEndingWith("so it is refused: rehearse with a model of one of those architectures, or measure"
                        + " this one on a real engine");
        String r1 = ModelConfigs.DEEPSEEK_R1_0528;
        String renamed = r1.replace("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM");
        String v32 = renamed.substring(0, renamed.length() - 1) + ",\"index_topk\":2048,\"index_n_heads\":64,\"index_head_dim\":128}";
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(v32).path("index_topk").asInt()).isEqualTo(2048);
        assertThat(ModelProfile.fromConfig("deepseek-ai/DeepSeek-R1-0528", r1).parameters()).isPositive();
        // a run that names the config reads it on vLLM and refuses before it starts on SGLang
        Files.writeString(dir.resolve("config.json"), v32);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "deepseek-ai/DeepSeek-V3.2-Exp", List.of("--tensor-parallel-size=8",
                SimParams.SIM_MODEL_CONFIG + "=" + dir), GpuProfile.named("h200")).model().window().reach())
                .isEqualTo(ModelProfile.Reach.TOP_K);
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "deepseek-ai/DeepSeek-V3.2-Exp",
                List.of("--tp-size=8", SimParams.SIM_MODEL_CONFIG + "=" + dir)))
                .hasMessageStartingWith("SGLang's sparse attention of deepseek-ai/DeepSeek-V3.2-Exp is not modelled");
        String dense = "\"hidden_size\": 4096, \"intermediate_size\": 14336, \"max_position_embeddings\": 32768,"
                + " \"num_attention_heads\": 32, \"num_hidden_layers\": 32, \"num_key_value_heads\": 8,"
                + " \"vocab_size\": 32000, \"torch_dtype\": \"bfloat16\"";
        assertThatThrownBy(() -> ModelProfile.fromConfig("ai21labs/AI21-Jamba-Mini-1.7", "{\"model_type\": \"jamba\", "
                + dense + "}")).hasMessageContaining("\"model_type\" names jamba (and no \"architectures\" are listed), an"
                + " architecture the simulated engine does not model");
        // the model type stands for the class where a config lists none, as the engines read it
        String kimiShape = r1.replace("\"architectures\":[\"DeepseekV3ForCausalLM\"],", "\"model_type\":\"kimi_k2\",");
        assertThat(ModelProfile.fromConfig("moonshotai/Kimi-K2-Instruct", kimiShape))
                .isEqualTo(ModelProfile.fromConfig("moonshotai/Kimi-K2-Instruct", r1));
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", "{\"architectures\": \"LlamaForCausalLM\", " + dense + "}"))
                .hasMessage("config.json of m: \"architectures\" must list the model's class names, e.g."
                        + " [\"LlamaForCausalLM\"], got \"LlamaForCausalLM\"");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", "{" + dense + "}"))
                .hasMessageStartingWith("config.json of m: names no architecture (neither \"architectures\" nor"
                        + " \"model_type\"); expected the config.json as published, which names one of LlamaForCausalLM,");
    }


    /**
     * vLLM also caps the context by the {@code model_max_length} of the model's {@code tokenizer_config.json} where it is
     * smaller, before any rope scaling (vllm-project/vllm@0052a5b8, {@code _get_and_verify_max_len}: "Consider
     * model_max_length in tokenizer_config"); SGLang does not read it. The twin reads it beside the config: 32,768 caps
     * Qwen3-8B's 40,960 for vLLM; transformers' "no limit" (1e30) caps nothing; a YaRN scaling then starts from its
     * original length.
     */
    @Test
    void vllmCapsTheContextByTheTokenizersModelMaxLength(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("config.json"), ModelConfigs.QWEN3_8B);
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"model_max_length\": 32768}");
        ContextLength capped = ModelLookup.find("Qwen/Qwen3-8B", dir.toString(), Map.of()).profile().context();
        assertThat(List.of(capped.vllm(), capped.sglang())).containsExactly(32_768, 40_960);
        assertThat(capped.rule(SimDialect.VLLM)).isEqualTo("tokenizer_config.json model_max_length 32768");
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"model_max_length\": 1e30}");
        assertThat(ModelLookup.find("Qwen/Qwen3-8B", dir.toString(), Map.of()).profile().context().vllm()).isEqualTo(40_960);
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"model_max_length\": 32768}");
        Files.writeString(dir.resolve("config.json"), ModelConfigs.QWEN3_8B.substring(0, ModelConfigs.QWEN3_8B.length() - 1)
                + ",\"rope_scaling\":{\"rope_type\":\"yarn\",\"factor\":4.0,\"original_max_position_embeddings\":32768}}");
        assertThat(ModelLookup.find("Qwen/Qwen3-8B", dir.toString(), Map.of()).profile().context().vllm())
                .isEqualTo(131_072);
    }

}
