package io.servebench.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Sliding-window attention as each engine serves it, which the architecture decides in SGLang and does not in vLLM.
 * vLLM windows every layer a config's {@code layer_types} (or, for a config without them, its cache's one window) names,
 * and frees what falls out of a window; SGLang pools sliding layers apart only for gpt-oss among the twin's
 * architectures ({@code is_hybrid_swa_model}), keeps Gemma's for every token in its one pool while its kernels read the
 * window, and serves Mistral as Llama, without a window ({@link ModelProfile.SglangWindow} names the sources).
 */
class SlidingWindowServingTest {

    /**
     * gemma-2-27b's shape as transformers' PaliGemma 2 conversion script states it ({@code VARIANT_CONFIGS["27b"]},
     * {@code src/transformers/models/paligemma/convert_paligemma2_weights_to_hf.py}); what a Gemma 2 config leaves out
     * is {@code Gemma2Config}'s: a vocabulary of 256,000, tied embeddings, a window of 4,096 on every other layer, the
     * first among them, a context of 8,192.
     */
    private static final String GEMMA2_27B = "{\"architectures\": [\"Gemma2ForCausalLM\"], \"model_type\": \"gemma2\","
            + " \"hidden_size\": 4608, \"num_hidden_layers\": 46, \"intermediate_size\": 36864,"
            + " \"num_key_value_heads\": 16, \"num_attention_heads\": 32, \"head_dim\": 128,"
            + " \"query_pre_attn_scalar\": 144, \"torch_dtype\": \"bfloat16\"}";

    /** mistralai/Mistral-7B-v0.1's config.json as published (transformers 4.34.0.dev0), a window on every layer. */
    private static final String MISTRAL_7B_V01 = "{\"architectures\": [\"MistralForCausalLM\"], \"bos_token_id\": 1,"
            + " \"eos_token_id\": 2, \"hidden_act\": \"silu\", \"hidden_size\": 4096, \"initializer_range\": 0.02,"
            + " \"intermediate_size\": 14336, \"max_position_embeddings\": 32768, \"model_type\": \"mistral\","
            + " \"num_attention_heads\": 32, \"num_hidden_layers\": 32, \"num_key_value_heads\": 8,"
            + " \"rms_norm_eps\": 1e-05, \"rope_theta\": 10000.0, \"sliding_window\": 4096,"
            + " \"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\", \"transformers_version\": \"4.34.0.dev0\","
            + " \"use_cache\": true, \"vocab_size\": 32000}";

    /** google/gemma-3-27b-it's text config, as {@code ModelProfileTest} reads it: 10 full layers, 52 sliding over 1,024. */
    private static final String GEMMA3_27B = "{\"architectures\": [\"Gemma3ForConditionalGeneration\"],"
            + " \"model_type\": \"gemma3\", \"text_config\": {\"head_dim\": 128, \"hidden_size\": 5376,"
            + " \"intermediate_size\": 21504, \"model_type\": \"gemma3_text\", \"num_attention_heads\": 32,"
            + " \"num_hidden_layers\": 62, \"num_key_value_heads\": 16, \"query_pre_attn_scalar\": 168,"
            + " \"rope_scaling\": {\"factor\": 8.0, \"rope_type\": \"linear\"}, \"sliding_window\": 1024},"
            + " \"torch_dtype\": \"bfloat16\"}";

    /** meta-llama/Llama-4-Scout-17B-16E-Instruct's config.json as published. */
    private static final String LLAMA4_SCOUT = "{\"architectures\": [\"Llama4ForConditionalGeneration\"],"
            + " \"boi_token_index\": 200080, \"eoi_token_index\": 200081, \"image_token_index\": 200092,"
            + " \"model_type\": \"llama4\", \"text_config\": {\"attention_bias\": false, \"attention_chunk_size\": 8192,"
            + " \"attention_dropout\": 0.0, \"bos_token_id\": 200000, \"eos_token_id\": [200001, 200007, 200008],"
            + " \"for_llm_compressor\": false, \"head_dim\": 128, \"hidden_act\": \"silu\", \"hidden_size\": 5120,"
            + " \"initializer_range\": 0.02, \"interleave_moe_layer_step\": 1, \"intermediate_size\": 8192,"
            + " \"intermediate_size_mlp\": 16384, \"max_position_embeddings\": 10485760, \"model_type\": \"llama4_text\","
            + " \"no_rope_layers\": [], \"num_attention_heads\": 40, \"num_experts_per_tok\": 1, \"num_hidden_layers\": 48,"
            + " \"num_key_value_heads\": 8, \"num_local_experts\": 16, \"output_router_logits\": false,"
            + " \"pad_token_id\": 200018, \"rms_norm_eps\": 1e-05, \"rope_scaling\": {\"factor\": 16.0,"
            + " \"high_freq_factor\": 1.0, \"low_freq_factor\": 1.0, \"original_max_position_embeddings\": 8192,"
            + " \"rope_type\": \"llama3\"}, \"rope_theta\": 500000.0, \"router_aux_loss_coef\": 0.001,"
            + " \"router_jitter_noise\": 0.0, \"torch_dtype\": \"bfloat16\", \"use_cache\": true, \"use_qk_norm\": true,"
            + " \"vocab_size\": 202048}, \"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\","
            + " \"vision_config\": {\"attention_dropout\": 0.0, \"hidden_act\": \"gelu\", \"hidden_size\": 1408,"
            + " \"image_size\": 336, \"initializer_range\": 0.02, \"intermediate_size\": 5632,"
            + " \"model_type\": \"llama4_vision_model\", \"multi_modal_projector_bias\": false, \"norm_eps\": 1e-05,"
            + " \"num_attention_heads\": 16, \"num_channels\": 3, \"num_hidden_layers\": 34, \"patch_size\": 14,"
            + " \"pixel_shuffle_ratio\": 0.5, \"projector_dropout\": 0.0, \"projector_input_dim\": 4096,"
            + " \"projector_output_dim\": 4096, \"rope_theta\": 10000, \"vision_feature_layer\": -1,"
            + " \"vision_feature_select_strategy\": \"default\", \"vision_output_dim\": 4096}}";

    /** One token's KV in one layer of 16 KV heads of 128 values, K and V, two bytes each. */
    private static final double LAYER_16X128 = 2 * 16 * 128 * 2.0;

    /**
     * Gemma 2 27B, read: the Gemma 2 technical report (arXiv:2408.00118, Table 2) counts 26,047,480,320 non-embedding
     * parameters, norms among them, which the twin leaves out (46 layers x 4 norms and one final, of 4,608 each:
     * 852,480); one table of 256,000 x 4,608 serves as embedding and output. 23 full layers, 23 sliding ones.
     */
    @Test
    void gemma2ReadsItsAlternatingWindowAndItsClasssDefaults() {
        ModelProfile m = ModelProfile.fromConfig("google/gemma-2-27b-it", GEMMA2_27B);
        double table = 256_000.0 * 4608;
        assertThat(m.parameters() - table).isCloseTo(26_047_480_320.0 - 852_480, within(1e6));
        assertThat(m.embeddings().tied()).isTrue();
        assertThat(m.kvBytesPerToken()).isEqualTo(23 * LAYER_16X128);
        assertThat(m.window().tokens()).isEqualTo(4096);
        assertThat(m.window().kvBytesPerToken()).isEqualTo(23 * LAYER_16X128);
        assertThat(List.of(m.context().vllm(), m.context().sglang())).containsExactly(8192, 8192);
        // vLLM frees a sliding layer's blocks out of its window; SGLang keeps every token of them in its one pool
        assertThat(m.kvBytes(8000)).isEqualTo(23 * LAYER_16X128 * (8000 + 4096));
        assertThat(m.servedBySglang(true).kvBytes(8000)).isEqualTo(46 * LAYER_16X128 * 8000);
        // what a step reads is the window's either way
        assertThat(m.servedBySglang(true).window().tokens()).isEqualTo(4096);
    }

    /**
     * Mistral 7B v0.1: 7.24e9 parameters (the model page's "7.24B"), and in vLLM a window of 4,096 on all 32 layers, so
     * a sequence never holds more than 4,096 tokens' KV; SGLang's Llama code takes no window and holds and reads them
     * all. A later Mistral's {@code "sliding_window": null} has no window in either.
     */
    @Test
    void mistralWindowsEveryLayerInVllmAndNoneInSglang() {
        ModelProfile m = ModelProfile.fromConfig("mistralai/Mistral-7B-v0.1", MISTRAL_7B_V01);
        double layer = 2 * 8 * 128 * 2.0;
        assertThat(m.parameters()).isCloseTo(7.24e9, within(0.01e9));
        assertThat(m.kvBytesPerToken()).isZero();
        assertThat(m.window().kvBytesPerToken()).isEqualTo(32 * layer);
        assertThat(m.kvBytes(10_000)).isEqualTo(m.kvBytes(4096)).isEqualTo(32 * layer * 4096);

        ModelProfile sglang = m.servedBySglang(true);
        assertThat(sglang.window()).isEqualTo(ModelProfile.Window.NONE);
        assertThat(sglang.kvBytes(10_000)).isEqualTo(32 * layer * 10_000);
        // every layer's q.k and weighted v over the whole context: 32 heads x 128, a multiply-add each
        assertThat(sglang.attentionFlopsPerPair()).isEqualTo(32 * 4 * 32 * 128.0);

        ModelProfile v03 = ModelProfile.fromConfig("mistralai/Mistral-7B-Instruct-v0.3",
                MISTRAL_7B_V01.replace("\"sliding_window\": 4096", "\"sliding_window\": null"));
        assertThat(v03.window()).isEqualTo(ModelProfile.Window.NONE);
        assertThat(v03.kvBytesPerToken()).isEqualTo(32 * layer);
    }

    /**
     * The pool SGLang sizes for Gemma 3 27B on one H100 holds every layer's KV for every token: its 62 layers'. Pooled
     * apart as gpt-oss's are, it would hold about a fifth more tokens (10 full layers and 0.8 x 52 sliding ones a token).
     * The pool is smaller than the context, so SGLang caps a request at it ({@code SimParamsTest}).
     */
    @Test
    void sglangSizesGemma3sOnePoolByEveryLayer(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("config.json"), GEMMA3_27B);
        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, "google/gemma-3-27b-it",
                List.of(SimParams.SIM_MODEL_CONFIG + "=" + dir), GpuProfile.named("h100"));
        long poolTokens = (long) (sglang.kvPoolBytes() / (62 * LAYER_16X128));
        assertThat(poolTokens).isLessThan(131_072);
        assertThat(sglang.maxModelLen()).isBetween((int) poolTokens - 2, (int) poolTokens - 1);

        SimParams vllm = SimParams.fromFlags(SimDialect.VLLM, "google/gemma-3-27b-it",
                List.of(SimParams.SIM_MODEL_CONFIG + "=" + dir, "--max-model-len=32768"), GpuProfile.named("h100"));
        // vLLM: a 32,768-token sequence holds 10 full layers' of every token and 52 sliding layers' of 1,024
        assertThat(vllm.model().kvBytes(32_768)).isEqualTo(LAYER_16X128 * (10 * 32_768 + 52 * 1024));
    }

    /** gpt-oss keeps its pool of its own in SGLang: the served profile is the one read. */
    @Test
    void gptOssKeepsItsOwnPoolInSglang() {
        ModelProfile m = ModelProfile.forModel("openai/gpt-oss-20b");
        assertThat(m.servedBySglang(true)).isEqualTo(m);
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "openai/gpt-oss-20b", List.of()).model().window())
                .isEqualTo(m.window());
    }

    /**
     * vLLM's {@code --disable-hybrid-kv-cache-manager} makes a sliding layer's cache full attention's where full layers
     * are too (gpt-oss-20b: every token of its 12 sliding layers kept), leaves a model whose every layer slides as it is
     * (Mistral 7B v0.1), and does not start a model with linear-attention layers ({@code unify_hybrid_kv_cache_specs},
     * v0.17.1 and v0.26.0). SGLang's {@code --disable-hybrid-swa-memory} keeps gpt-oss's sliding layers in its one pool.
     */
    @Test
    void theFlagsThatTurnOffEachEnginesWindowedCacheKeepEveryToken(@TempDir Path dir) throws IOException {
        double gptOssLayer = 2 * 8 * 64 * 2.0;
        SimParams vllm = SimParams.fromFlags(SimDialect.VLLM, "openai/gpt-oss-20b",
                List.of("--disable-hybrid-kv-cache-manager"));
        assertThat(vllm.model().kvBytes(10_000)).isEqualTo(24 * gptOssLayer * 10_000);
        assertThat(vllm.model().window().tokens()).isEqualTo(128);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "openai/gpt-oss-20b", List.of()).model().kvBytes(10_000))
                .isEqualTo(12 * gptOssLayer * (10_000 + 128));
        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, "openai/gpt-oss-20b",
                List.of("--disable-hybrid-swa-memory"));
        assertThat(sglang.model().kvBytes(10_000)).isEqualTo(24 * gptOssLayer * 10_000);

        Files.writeString(dir.resolve("config.json"), MISTRAL_7B_V01);
        SimParams mistral = SimParams.fromFlags(SimDialect.VLLM, "mistralai/Mistral-7B-v0.1",
                List.of(SimParams.SIM_MODEL_CONFIG + "=" + dir, "--disable-hybrid-kv-cache-manager"));
        assertThat(mistral.model().kvBytes(10_000)).isEqualTo(32 * 2 * 8 * 128 * 2.0 * 4096);

        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B",
                List.of("--disable-hybrid-kv-cache-manager")))
                .hasMessageContaining("failed to convert the KV cache specs to one unified type");
    }

    /**
     * meta-llama/Llama-4-Scout-17B-16E-Instruct's config as published (its {@code no_rope_layers} empty, so every fourth
     * layer is NoPE: {@code Llama4TextConfig}), against its model card's "17B active, 109B total": counted by hand, the
     * language model 2 x 202,048 x 5,120 + 48 x (62,914,560 attention + 16 x 125,829,120 experts + 125,829,120 shared +
     * 5,120 x 16 router) = 107,769,364,480, the vision encoder and projector 871,932,416 (patches 3 x 14 x 14 x 1,408,
     * class and 577 position embeddings, 34 layers of 23,807,872, the adapter 5,632 x 4,096 + 4,096^2, the projector
     * 4,096 x 5,120). Its 12 NoPE layers attend the whole context, the 36 others their own chunk of 8,192: vLLM keeps
     * every token of them (it turns its hybrid KV cache manager off for chunked attention by default), SGLang pools
     * them apart (Llama 4 is in its {@code is_hybrid_swa_model} list) and keeps at most a chunk's.
     */
    @Test
    void llama4ScoutReadsItsExpertsAndItsChunkedLayers(@TempDir Path dir) throws IOException {
        ModelProfile m = ModelProfile.fromConfig("meta-llama/Llama-4-Scout-17B-16E-Instruct", LLAMA4_SCOUT);
        assertThat(m.parameters()).isEqualTo(107_769_364_480.0);
        assertThat(m.nonLanguageBytes() / 2).isEqualTo(871_932_416.0);
        assertThat(m.parameters() + m.nonLanguageBytes() / 2).isCloseTo(109e9, within(0.5e9));
        assertThat(m.activeParameters()).isCloseTo(17e9, within(0.2e9));
        assertThat(m.experts().layers()).isEqualTo(48);
        double layer = 2 * 8 * 128 * 2.0;
        assertThat(m.kvBytesPerToken()).isEqualTo(12 * layer);
        assertThat(m.window().kvBytesPerToken()).isEqualTo(36 * layer);
        assertThat(m.window().chunked()).isTrue();
        assertThat(m.window().tokens()).isEqualTo(8192);
        assertThat(List.of(m.context().vllm(), m.context().sglang())).containsExactly(10_485_760, 10_485_760);

        Files.writeString(dir.resolve("config.json"), LLAMA4_SCOUT);
        String config = SimParams.SIM_MODEL_CONFIG + "=" + dir;
        SimParams vllm = SimParams.fromFlags(SimDialect.VLLM, "meta-llama/Llama-4-Scout-17B-16E-Instruct",
                List.of(config, "--tensor-parallel-size=4", "--max-model-len=32768"));
        assertThat(vllm.model().kvBytes(20_000)).isEqualTo(48 * layer * 20_000);
        assertThat(vllm.startLog()).contains("chunked-attention layers attend their own chunk of 8192 tokens; the cache"
                + " keeps every token of them");
        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, "meta-llama/Llama-4-Scout-17B-16E-Instruct",
                List.of(config, "--tp-size=4", "--context-length=32768"));
        assertThat(sglang.model().kvBytes(20_000)).isEqualTo(layer * (12 * 20_000 + 36 * 8192));
        assertThat(sglang.startLog()).contains("chunked-attention layers attend their own chunk of 8192 tokens; the cache"
                + " keeps at most 8192 tokens of them");
        // SGLang builds Llama 4's vision encoder only with --enable-multimodal: without it, its weights are KV cache
        SimParams multimodal = SimParams.fromFlags(SimDialect.SGLANG, "meta-llama/Llama-4-Scout-17B-16E-Instruct",
                List.of(config, "--tp-size=4", "--context-length=32768", "--enable-multimodal"));
        assertThat(sglang.kvPoolBytes() - multimodal.kvPoolBytes()).isCloseTo(871_932_416.0 * 2, within(1e6));

        // Maverick: 128 experts in every other layer, the others dense MLPs of 16,384
        ModelProfile maverick = ModelProfile.fromConfig("meta-llama/Llama-4-Maverick-17B-128E-Instruct",
                LLAMA4_SCOUT.replace("\"interleave_moe_layer_step\": 1", "\"interleave_moe_layer_step\": 2")
                        .replace("\"num_local_experts\": 16", "\"num_local_experts\": 128"));
        assertThat(maverick.experts().layers()).isEqualTo(24);
        assertThat(maverick.parameters() + maverick.nonLanguageBytes() / 2).isCloseTo(400e9, within(2e9));
        assertThat(maverick.activeParameters()).isCloseTo(17e9, within(0.5e9));
    }
}
