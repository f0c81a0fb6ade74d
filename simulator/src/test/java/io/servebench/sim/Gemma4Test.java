package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Gemma 4's two large sizes as vLLM builds them ({@code vllm/model_executor/models/gemma4.py}): five sliding layers of
 * each six (heads of 256, a window of 1,024), the sixth attending the whole context with heads of 512 and, its keys
 * being its values ({@code attention_k_eq_v}), its own fewer KV heads, whose value projection vLLM holds as a copy of
 * the key projection and whose cache keeps keys and values both. Counted by hand from the shapes transformers'
 * conversion script gives the published checkpoints, against their cards' totals.
 */
class Gemma4Test {

    @Test
    void gemma4_31bCountsAsItsCardAndVllmHoldIt() {
        double hidden = 5376;
        double sliding = 2 * hidden * 32 * 256 + 2 * hidden * 16 * 256;
        // q and o of 32 heads of 512, k of 4 KV heads of 512; no v_proj in the checkpoint
        double whole = 2 * hidden * 32 * 512 + hidden * 4 * 512;
        double checkpoint = 262144 * hidden + 50 * sliding + 10 * whole + 60 * 3 * hidden * 21504;
        assertThat(checkpoint).isCloseTo(30.7e9, within(0.05e9));
        ModelProfile gemma = ModelProfile.forModel("google/gemma-4-31B-it");
        // vLLM's copy of each whole-context layer's key projection as its value projection
        assertThat(gemma.parameters()).isEqualTo(checkpoint + 10 * hidden * 4 * 512);
        // the vision encoder and its projector: the card's "~550M" for the encoder
        double vision = gemma.nonLanguageBytes() / 2;
        assertThat(vision).isEqualTo(3 * 16 * 16 * 1152 + 2 * 10240 * 1152.0 + 27 * (4 * 1152 * 16 * 72 + 3 * 1152 * 4304.0)
                + 1152 * hidden);
        assertThat(vision).isCloseTo(0.55e9, within(0.03e9));
        // the whole-context layers: every token's keys and values, 4 heads of 512; the sliding ones: 16 heads of 256
        assertThat(gemma.kvBytesPerToken()).isEqualTo(10 * 2 * 4 * 512 * 2.0);
        assertThat(gemma.attentionFlopsPerPair()).isEqualTo(10 * 4 * 32 * 512.0);
        assertThat(gemma.window().tokens()).isEqualTo(1024);
        assertThat(gemma.window().kvBytesPerToken()).isEqualTo(50 * 2 * 16 * 256 * 2.0);
        assertThat(gemma.window().flopsPerPair()).isEqualTo(50 * 4 * 32 * 256.0);
        assertThat(gemma.context().tokens(SimDialect.VLLM)).isEqualTo(262_144);
    }

    /**
     * 26B-A4B: 8 of 128 experts of 704 in every layer, beside a dense MLP of 2,112 that runs on every token as a shared
     * expert does; its card's "25.2B total, 3.8B active".
     */
    @Test
    void gemma4_26bA4bRunsItsExpertsBesideEveryLayersDenseMlp() {
        double hidden = 2816;
        double sliding = 2 * hidden * 16 * 256 + 2 * hidden * 8 * 256;
        double whole = 2 * hidden * 16 * 512 + hidden * 2 * 512;
        double router = hidden * 128;
        double dense = 3 * hidden * 2112;
        double expert = 3 * hidden * 704;
        double tables = 262144 * hidden;
        double checkpoint = tables + 25 * sliding + 5 * whole + 30 * (dense + router + 128 * expert);
        assertThat(checkpoint).isCloseTo(25.2e9, within(0.05e9));
        ModelProfile gemma = ModelProfile.forModel("google/gemma-4-26B-A4B-it");
        double copies = 5 * hidden * 2 * 512;
        assertThat(gemma.parameters()).isEqualTo(checkpoint + copies);
        assertThat(gemma.activeParameters()).isEqualTo(tables + 25 * sliding + 5 * whole + copies
                + 30 * (dense + router + 8 * expert));
        assertThat(gemma.activeParameters() - copies).isCloseTo(3.8e9, within(0.05e9));
        assertThat(gemma.experts().layers()).isEqualTo(30);
        assertThat(gemma.experts().count()).isEqualTo(128);
        assertThat(gemma.experts().perToken()).isEqualTo(8);
        assertThat(gemma.kvBytesPerToken()).isEqualTo(5 * 2 * 2 * 512 * 2.0);
        assertThat(gemma.window().kvBytesPerToken()).isEqualTo(25 * 2 * 8 * 256 * 2.0);
    }

    /**
     * Without {@code layer_types} transformers' {@code Gemma4TextConfig} makes five of each six layers sliding and the
     * last one full whatever the pattern says: of 32 layers, 5, 11, 17, 23, 29 and 31.
     */
    @Test
    void layerTypesLeftOutAreTransformersPatternWithTheLastLayerFull() {
        String types = ModelConfigs.GEMMA4_31B.substring(ModelConfigs.GEMMA4_31B.indexOf("\"layer_types\""),
                ModelConfigs.GEMMA4_31B.indexOf("],\"num_kv_shared_layers\"") + 2);
        ModelProfile gemma = ModelProfile.fromConfig("m", ModelConfigs.GEMMA4_31B.replace(types, "")
                .replace("\"num_hidden_layers\":60", "\"num_hidden_layers\":32"));
        assertThat(gemma.kvBytesPerToken()).isEqualTo(6 * 2 * 4 * 512 * 2.0);
        assertThat(gemma.window().kvBytesPerToken()).isEqualTo(26 * 2 * 16 * 256 * 2.0);
    }

    /**
     * E2B's and E4B's per-layer input embeddings and layers reading another's KV cache are refused by name, and so is
     * a split over more ranks than the whole-context layers' KV heads, which the engines would copy while splitting the
     * sliding layers' (one rule of copies per model in the twin).
     */
    @Test
    void whatIsNotModelledIsRefusedByName() {
        String perLayer = ModelConfigs.GEMMA4_31B.replace("\"hidden_size_per_layer_input\":0", "\"hidden_size_per_layer_input\":256");
        assertThatThrownBy(() -> ModelProfile.fromConfig("google/gemma-4-E2B-it", perLayer))
                .hasMessageContaining("\"hidden_size_per_layer_input\" 256: per-layer input embeddings (Gemma 4 E2B's and"
                        + " E4B's) is not modelled by the simulated engine");
        String shared = ModelConfigs.GEMMA4_31B.replace("\"num_kv_shared_layers\":0", "\"num_kv_shared_layers\":20");
        assertThatThrownBy(() -> ModelProfile.fromConfig("google/gemma-4-E2B-it", shared))
                .hasMessageContaining("\"num_kv_shared_layers\" 20: layers reading another layer's KV cache");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "google/gemma-4-31B-it",
                List.of("--tensor-parallel-size=8"), GpuProfile.named("h100")))
                .hasMessageStartingWith("google/gemma-4-31B-it over 8 tensor-parallel ranks is not modelled by the"
                        + " simulated engine: its whole-context layers' 4 KV heads would be copied");
        SimParams vllm = SimParams.fromFlags(SimDialect.VLLM, "google/gemma-4-31B-it", List.of(
                "--tensor-parallel-size=4"), GpuProfile.named("h100"));
        assertThat(vllm.kvCopies()).isEqualTo(1);
        // SGLang pools the sliding layers apart (is_hybrid_swa_model lists Gemma 4's classes)
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "google/gemma-4-26B-A4B-it", List.of("--tp-size=2"),
                GpuProfile.named("h100")).model().window().keepsEveryToken()).isFalse();
    }
}
