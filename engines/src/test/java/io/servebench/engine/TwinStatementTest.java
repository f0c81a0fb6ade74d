package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.flags.Flag;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.TwinBar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a block of the simulated engine says of itself: how far to trust it, and which of its flags it leaves out. */
class TwinStatementTest {

    private static ServerEnvironment captured(List<String> flags, Path log) throws Exception {
        ServerConfig server = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3-8B",
                flags.stream().map(f -> Flag.parse(f).orElseThrow()).toList(), EngineSetup.NONE);
        EngineParams engines = EngineParams.defaults(EngineParams.Simulate.IN_PROCESS, 1);
        try (RunningEngine engine = Engines.start(server, engines, log)) {
            return Engines.capture("s01", server, engines, engine, "test");
        }
    }

    @Test
    void aFlagTheTwinDoesNotModelIsSaidBesideItsErrorBar(@TempDir Path dir) throws Exception {
        // vLLM's --enforce-eager (no CUDA graphs) changes a real engine's step time; the twin runs as without it
        ServerEnvironment eager = captured(List.of("--max-num-seqs=64", "--enforce-eager"), dir.resolve("a.log"));
        assertThat(eager.twinNotModelled()).containsExactly("--enforce-eager");
        // Qwen3-8B on one H100: vLLM's published dense cases there (GPUStack's, all at once; its rate sweeps)
        assertThat(eager.twinBars()).extracting(TwinBar::regime).containsExactly(TwinBar.Regime.PACED, TwinBar.Regime.UNPACED);
        assertThat(eager.twinBars()).allSatisfy(bar -> {
            assertThat(List.of(bar.engine(), bar.architecture(), bar.gpu())).containsExactly("vllm", "dense", "h100");
            assertThat(bar.gpus()).isEqualTo(TwinBar.Gpus.ONE);
        }).anySatisfy(bar -> assertThat(bar.cases()).isPositive());
        // the burst bar carries which way sim validate's cases of its kind leaned, as well as their ±
        TwinBar burst = eager.twinBars().get(1);
        io.servebench.sim.TwinEvidence evidence = io.servebench.sim.TwinEvidence.bars("vllm", "h100", "dense", false, false)
                .get(1).published().orElseThrow();
        assertThat(List.of(burst.cases(), burst.figures(), burst.fasterFigures()))
                .containsExactly(evidence.cases(), evidence.figures(), evidence.fasterFigures());
        assertThat(burst.medianSpeedRatio()).isEqualTo(evidence.medianSpeedRatio());
        assertThat(burst.leans()).isTrue();
        assertThat(captured(List.of("--max-num-seqs=64"), dir.resolve("b.log")).twinNotModelled()).isEmpty();
    }

    /**
     * An AWQ checkpoint runs Marlin's kernels, and an NVFP4 one FP4 tensor cores or Marlin, which no published case
     * shows: their blocks say they are unvalidated, each a kind of its own, rather than borrow the bar of the 16-bit
     * dense cases on the same GPU.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "dense-integer|{\"quant_method\":\"awq\",\"bits\":4,\"group_size\":128,\"zero_point\":true,\"version\":\"gemm\"}",
            "dense-nvfp4|{\"quant_method\":\"modelopt\",\"quant_algo\":\"NVFP4\",\"group_size\":16,\"ignore\":[\"lm_head\"]}"})
    void lowBitWeightsAreUnvalidated(String kind, String quantisation, @TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("config.json"), "{\"architectures\":[\"Qwen3ForCausalLM\"],"
                + "\"hidden_size\":4096,\"intermediate_size\":12288,\"num_hidden_layers\":36,"
                + "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"head_dim\":128,\"vocab_size\":151936,"
                + "\"max_position_embeddings\":40960,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\","
                + "\"quantization_config\":" + quantisation + "}");
        ServerEnvironment quantised = captured(List.of("--hf-config-path=" + dir), dir.resolve("quantised.log"));
        assertThat(quantised.twinBars()).hasSize(2).allSatisfy(bar -> {
            assertThat(List.of(bar.engine(), bar.architecture(), bar.gpu())).containsExactly("vllm", kind, "h100");
            assertThat(bar.unvalidated()).isTrue();
        });
    }
}
