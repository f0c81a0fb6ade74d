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
 * DeepSeek V3.2's DeepSeek Sparse Attention ({@link ModelProfile.Reach#TOP_K}), as vLLM serves it: DeepSeek V3's
 * latent attention, every query attending the {@code index_topk} (2,048) earlier tokens a lightning indexer of 64 heads
 * of 128 scores highest. Counted by hand from the config's keys and vLLM's code ({@code deepseek_v2.py}'s {@code
 * Indexer} and {@code DeepseekV32IndexerCache}, {@code flashmla_sparse.py}): the indexer adds, per layer, {@code wq_b}
 * (1,536 x 64 x 128), {@code wk} (7,168 x 128) and {@code weights_proj} (7,168 x 64); its key cache 132 bytes a token a
 * layer (128 FP8 values and a 4-byte scale); the latent cache 576 values of 2 bytes; the sparse kernels attend in the
 * latent form, 2 x 128 x 576 + 2 x 128 x 512 FLOPs a pair a layer, their query heads per GPU padded to 64 on Hopper and
 * 128 on Blackwell.
 */
class SparseAttentionTest {

    private static final int LAYERS = 61;

    @Test
    void theIndexerAddsItsWeightsItsKeyCacheAndItsProducts() {
        ModelProfile r1 = ModelProfile.forModel("deepseek-ai/DeepSeek-R1-0528");
        ModelProfile v32 = ModelProfile.forModel("deepseek-ai/DeepSeek-V3.2");
        double indexer = LAYERS * (1536.0 * 64 * 128 + 7168.0 * 128 + 7168.0 * 64);
        assertThat(indexer).isEqualTo(851_509_248);
        assertThat(v32.parameters() - r1.parameters()).isEqualTo(indexer);
        assertThat(v32.activeParameters() - r1.activeParameters()).isEqualTo(indexer);
        // what attends the whole context: every layer's indexer keys, FP8 with a scale per 128
        assertThat(v32.kvBytesPerToken()).isEqualTo(LAYERS * 132.0);
        assertThat(v32.attentionFlopsPerPair()).isEqualTo(LAYERS * 2.0 * 64 * 128);
        // the latent cache, every token kept, at most 2,048 of them attended
        ModelProfile.Window window = v32.window();
        assertThat(window.reach()).isEqualTo(ModelProfile.Reach.TOP_K);
        assertThat(window.tokens()).isEqualTo(2048);
        assertThat(window.kvBytesPerToken()).isEqualTo(LAYERS * 576 * 2.0);
        assertThat(window.keepsEveryToken()).isTrue();
        assertThat(window.flopsPerPair()).isEqualTo(LAYERS * (2.0 * 128 * 576 + 2.0 * 128 * 512));
        assertThat(window.heldBytes(100_000)).isEqualTo(100_000.0 * LAYERS * 576 * 2);
        // a query at position p attends min(p + 1, 2048) keys: a prefill of 4,096 tokens pairs 2,048 x 2,049 / 2 in its
        // first 2,048 positions and 2,048 x 2,048 after
        assertThat(window.pairs(0, 4096)).isEqualTo(2_098_176 + 4_194_304);
        assertThat(window.keys(100_000)).isEqualTo(2048);
    }

    /** FlashMLA's sparse prefill kernel pads each GPU's query heads: 16 at TP 8 compute as 64 on Hopper, 128 on Blackwell. */
    @Test
    void vllmPadsEachGpusQueryHeadsForTheSparseKernel() {
        double unpadded = LAYERS * (2.0 * 128 * 576 + 2.0 * 128 * 512);
        assertThat(vllm("h200", 8).model().window().flopsPerPair()).isEqualTo(unpadded * 64 / 16);
        assertThat(vllm("b200", 8).model().window().flopsPerPair()).isEqualTo(unpadded * 128 / 16);
        // 64 heads a GPU at TP 2 need none on Hopper (the model does not fit two H200s: its profile alone is asked)
        assertThat(ModelProfile.forModel("deepseek-ai/DeepSeek-V3.2").sparseAttentionServedByVllm(2,
                GpuProfile.named("h200")).window().flopsPerPair()).isEqualTo(unpadded);
    }

    /**
     * A decode step at a long context reads 2,048 tokens' latent KV and every token's indexer key, where DeepSeek R1's
     * reads every token's latent KV: at 100,000 tokens of context V3.2's step is the shorter.
     */
    @Test
    void aLongContextDecodeReadsTheChosenTokensNotTheWholeContext() {
        SimParams v32 = vllm("h200", 8);
        SimParams r1 = SimParams.fromFlags(SimDialect.VLLM, "deepseek-ai/DeepSeek-R1-0528",
                List.of("--tensor-parallel-size=8"), GpuProfile.named("h200"));
        // 64 sequences decoding a token each after 100,000: the scheduler's work, the sparse layers' keys capped
        StepCostModel.AttentionWork v32Work = new StepCostModel.AttentionWork(64 * 100_001L, 64 * 2048L, 64 * 100_001L,
                64 * 2048L);
        StepCostModel.AttentionWork r1Work = StepCostModel.AttentionWork.spread(64, 64 * 100_001L, 64);
        long sparse = new StepCostModel(v32).step(64, v32Work, 64, 0, 0, StepCostModel.LoraWork.NONE).nanos();
        long dense = new StepCostModel(r1).step(64, r1Work, 64, 0, 0, StepCostModel.LoraWork.NONE).nanos();
        assertThat(sparse).isLessThan(dense);
    }

    @Test
    void whatIsNotModelledIsRefusedByName(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "deepseek-ai/DeepSeek-V3.2",
                List.of("--tp-size=8"), GpuProfile.named("h200")))
                .hasMessage("SGLang's sparse attention of deepseek-ai/DeepSeek-V3.2 is not modelled by the simulated"
                        + " engine: SGLang serves it with a backend of its own (nsa) and, for DeepSeek V3.2, DP attention"
                        + " by default (docs/basic_usage/deepseek_v32.md); rehearse it with --engine vllm, or measure"
                        + " SGLang on a real engine");
        assertThatThrownBy(() -> vllm("a100", 8)).hasMessageContaining("(compute capability 8.0) is not modelled by the"
                + " simulated engine: it models FlashMLA's sparse kernels, which run on compute capability 9.x and 10.x"
                + " only");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "deepseek-ai/DeepSeek-V3.2",
                List.of("--tensor-parallel-size=8", "--kv-cache-dtype=fp8"), GpuProfile.named("h200")))
                .hasMessageContaining("an FP8 KV cache of deepseek-ai/DeepSeek-V3.2's sparse attention is not modelled");
        // the indexer's keys have no default: a config without them is refused naming the key
        Files.writeString(dir.resolve("config.json"), ModelConfigs.DEEPSEEK_V32.replace("\"index_topk\":2048,", ""));
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "deepseek-ai/DeepSeek-V3.2",
                List.of("--tensor-parallel-size=8", SimParams.SIM_MODEL_CONFIG + "=" + dir), GpuProfile.named("h200")))
                .hasMessageContaining("\"index_topk\" must be a whole number >= 1, got nothing");
    }

    /**
     * GLM-5 (and 5.1: one architecture, one config's fields) counted from its checkpoint's tensor list as a public model
     * report prints GLM-5.1's: 753,864,139,008 parameters in all, of which the twin leaves out the MTP layer (layer 78,
     * its attention, indexer, experts and {@code eh_proj}), the norms and the routers' score-correction biases. The
     * expression below first adds all of them back and meets the report's total, so each shape is read from the list.
     */
    @Test
    void glm5CountsAsItsCheckpointHoldsIt() {
        double hidden = 6144;
        double tables = 2 * 154880 * hidden;
        double dense = 3 * 3 * 12288 * hidden;
        // q_a_proj, q_b_proj, kv_a_proj_with_mqa, kv_b_proj, o_proj
        double attention = 2048 * hidden + 16384 * 2048 + 576 * hidden + 28672 * 512 + hidden * 16384;
        // the indexer's wq_b, wk, weights_proj
        double indexer = 4096 * 2048 + 128 * hidden + 32 * hidden;
        double experts = 256 * 3 * hidden * 2048 + 3 * 2048 * hidden + 256 * hidden;
        double norms = 2 * hidden + 2 * 128 + 512 + 2048;
        assertThat(tables + dense + 79 * (attention + indexer + norms) + 76 * (experts + 256) + hidden * 12288
                + 3 * hidden + hidden).isEqualTo(753_864_139_008.0);
        ModelProfile glm5 = ModelProfile.forModel("zai-org/GLM-5");
        assertThat(glm5.parameters()).isEqualTo(tables + dense + 78 * (attention + indexer) + 75 * experts);
        // "744B total, 40B activated" (the GLM-5 report), the latter beside the two vocabulary tables
        assertThat(glm5.parameters()).isCloseTo(744e9, within(0.5e9));
        assertThat(glm5.activeParameters() - tables).isCloseTo(40e9, within(0.5e9));
        assertThat(ModelProfile.forModel("zai-org/GLM-5.1")).usingRecursiveComparison().ignoringFields("name")
                .isEqualTo(glm5);
        // every layer's indexer: its 128 FP8 keys and a scale, 32 heads of 128 products a pair; the latent cache of 576
        assertThat(glm5.kvBytesPerToken()).isEqualTo(78 * 132.0);
        assertThat(glm5.attentionFlopsPerPair()).isEqualTo(78 * 2.0 * 32 * 128);
        assertThat(glm5.window().kvBytesPerToken()).isEqualTo(78 * 576 * 2.0);
        assertThat(glm5.window().flopsPerPair()).isEqualTo(78 * (2.0 * 64 * 576 + 2.0 * 64 * 512));
        assertThat(glm5.window().tokens()).isEqualTo(2048);
    }

    /**
     * GLM-5.2 shares its indexers: {@code index_topk_freq} 4 and {@code index_skip_topk_offset} 3, so that its config's
     * {@code indexer_types} name 21 layers "full" (0, 1, 2, 6, 10, ..., 74) and the other 57 "shared", and SGLang's own
     * test expects those 21 to hold an indexer. A shared layer reuses the top-k an earlier one chose: vLLM builds it no
     * indexer, so no weights, no key cache and no products of its own, while its latent attention stays.
     */
    @Test
    void sharedIndexersHoldNoWeightsNoKeysAndNoProducts(@TempDir Path dir) throws IOException {
        List<Integer> full = new java.util.ArrayList<>(List.of(0, 1, 2));
        for (int layer = 6; layer <= 74; layer += 4) {
            full.add(layer);
        }
        assertThat(full).hasSize(21);
        String shared = ModelConfigs.GLM_5.replace("\"index_topk\":2048,",
                "\"index_topk\":2048,\"index_topk_freq\":4,\"index_skip_topk_offset\":3,");
        ModelProfile glm5 = ModelProfile.forModel("zai-org/GLM-5");
        ModelProfile glm52 = ModelProfile.fromConfig("zai-org/GLM-5.2", shared);
        double indexer = 4096 * 2048 + 128 * 6144 + 32 * 6144;
        assertThat(glm5.parameters() - glm52.parameters()).isEqualTo(57 * indexer);
        assertThat(glm52.kvBytesPerToken()).isEqualTo(full.size() * 132.0);
        assertThat(glm52.attentionFlopsPerPair()).isEqualTo(full.size() * 2.0 * 32 * 128);
        assertThat(glm52.window()).isEqualTo(glm5.window());
        // without the offset vLLM takes 2: layers 0, 1, 5, 9, ..., 77 choose their own
        ModelProfile offsetTwo = ModelProfile.fromConfig("m", ModelConfigs.GLM_5.replace("\"index_topk\":2048,",
                "\"index_topk\":2048,\"index_topk_freq\":4,"));
        assertThat(offsetTwo.kvBytesPerToken()).isEqualTo((2 + 19) * 132.0);
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", ModelConfigs.GLM_5.replace("\"index_topk\":2048,",
                "\"index_topk\":2048,\"index_topk_pattern\":\"FFFS\",")))
                .hasMessageContaining("\"index_topk_pattern\" is not modelled by the simulated engine");
        // served by vLLM from the config, on eight H200s in FP8 as its recipe serves GLM-5
        Files.writeString(dir.resolve("config.json"), shared.replace("\"dtype\":\"bfloat16\"}",
                "\"dtype\":\"bfloat16\",\"quantization_config\":{\"quant_method\":\"fp8\"}}"));
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "zai-org/GLM-5.2-FP8", List.of("--tensor-parallel-size=8",
                SimParams.SIM_MODEL_CONFIG + "=" + dir), GpuProfile.named("h200")).model().kvBytesPerToken())
                .isEqualTo(21 * 132.0);
    }

    /**
     * GLM-5's dense layers are {@code first_k_dense_replace}, which vLLM's model reads and transformers' class leaves
     * out: a config without it, or whose {@code mlp_layer_types} says otherwise, is refused; so is SGLang's serving of it,
     * and on vLLM GLM-5-FP8 starts on eight H200s, its 8 heads a GPU padded to 64 for the sparse kernel.
     */
    @Test
    void glm5IsReadAsVllmReadsItOrRefused() {
        assertThatThrownBy(() -> ModelProfile.fromConfig("zai-org/GLM-5",
                ModelConfigs.GLM_5.replace("\"first_k_dense_replace\":3,", "")))
                .hasMessageContaining("no \"first_k_dense_replace\", the dense layers' count vLLM's model reads");
        String types = "[\"dense\",\"dense\"" + ",\"sparse\"".repeat(76) + "]";
        assertThatThrownBy(() -> ModelProfile.fromConfig("zai-org/GLM-5", ModelConfigs.GLM_5.replace(
                "\"first_k_dense_replace\":3,", "\"first_k_dense_replace\":3,\"mlp_layer_types\":" + types + ",")))
                .hasMessageContaining("\"mlp_layer_types\" names layer 2 \"sparse\" where \"first_k_dense_replace\" 3"
                        + " makes it dense");
        String agreeing = "[\"dense\",\"dense\",\"dense\"" + ",\"sparse\"".repeat(75) + "]";
        assertThat(ModelProfile.fromConfig("zai-org/GLM-5", ModelConfigs.GLM_5.replace("\"first_k_dense_replace\":3,",
                "\"first_k_dense_replace\":3,\"mlp_layer_types\":" + agreeing + ",")))
                .isEqualTo(ModelProfile.fromConfig("zai-org/GLM-5", ModelConfigs.GLM_5));
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "zai-org/GLM-5-FP8", List.of("--tp-size=8"),
                GpuProfile.named("h200"))).hasMessageStartingWith("SGLang's sparse attention of zai-org/GLM-5-FP8 is not"
                + " modelled");
        SimParams vllm = SimParams.fromFlags(SimDialect.VLLM, "zai-org/GLM-5-FP8", List.of("--tensor-parallel-size=8"),
                GpuProfile.named("h200"));
        assertThat(vllm.model().window().flopsPerPair()).isEqualTo(78 * (2.0 * 64 * 576 + 2.0 * 64 * 512) * 64 / 8);
        assertThat(vllm.model().fp8Weights()).isTrue();
    }

    private static SimParams vllm(String gpu, int tp) {
        return SimParams.fromFlags(SimDialect.VLLM, "deepseek-ai/DeepSeek-V3.2", List.of("--tensor-parallel-size=" + tp),
                GpuProfile.named(gpu));
    }
}
