package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.flags.Flag;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.TwinBar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a block of the simulated engine says of itself: how far to trust it, and which of its flags it leaves out. */
class TwinStatementTest {

    private static ServerEnvironment captured(List<String> flags, Path log) throws Exception {
        ServerConfig server = new ServerConfig(EngineKinds.VLLM, "Qwen/Qwen3-8B",
                flags.stream().map(f -> Flag.parse(f).orElseThrow()).toList(), EngineSetup.NONE);
        EngineOptions options = EngineOptions.defaults(EngineOptions.Simulate.IN_PROCESS, 1);
        try (RunningEngine engine = Engines.start(server, options, log)) {
            return Engines.capture("s01", server, options, engine, "test");
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
        assertThat(captured(List.of("--max-num-seqs=64"), dir.resolve("b.log")).twinNotModelled()).isEmpty();
    }
}
