package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.flags.Flag;
import io.servebench.results.ServerEnvironment;
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
        assertThat(captured(List.of("--max-num-seqs=64", "--enforce-eager"), dir.resolve("a.log")).twinEvidence())
                .startsWith("at a request rate: ")
                .endsWith("; not modelled, so the figures are as without them: --enforce-eager");
        assertThat(captured(List.of("--max-num-seqs=64"), dir.resolve("b.log")).twinEvidence())
                .doesNotContain("not modelled");
    }
}
