package io.servebench.engine;

import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.flags.Flag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The caps an engine sets itself, as its source says, stated where a study's flags leave them open. */
class EngineLimitsTest {

    private static final EngineParams REAL = EngineParams.defaults(EngineParams.Simulate.OFF, 1);
    private static final List<String> H100 = List.of("NVIDIA H100 80GB HBM3, 81559 MiB, 570.86.15");

    private static ServerConfig server(EngineKind kind, String... flags) {
        return new ServerConfig(kind, "Qwen/Qwen3-8B", java.util.Arrays.stream(flags).map(f -> Flag.parse(f).orElseThrow())
                .toList());
    }

    /**
     * SGLang 0.5.9, {@code python/sglang/srt/server_args.py} lines 2362-2366 and 2467-2471: "if self.max_running_requests
     * is None: self.max_running_requests = 48" for EAGLE, EAGLE3, STANDALONE (NEXTN is EAGLE) and NGRAM; 0.5.18 has the
     * same block in each built-in handler of {@code arg_groups/speculative_hook.py}.
     */
    @Test
    void sglangWithSpeculationAndNoRunningCapIsCappedAt48() {
        assertThat(EngineLimits.of(server(EngineKinds.SGLANG, "--speculative-algorithm=NGRAM"), REAL, H100))
                .containsExactly("engine default: at most 48 running requests (SGLang's cap with speculative decoding"
                        + " when --max-running-requests is not given)");
        assertThat(EngineLimits.of(server(EngineKinds.SGLANG, "--speculative-algorithm=EAGLE",
                "--max-running-requests=128"), REAL, H100)).isEmpty();
        assertThat(EngineLimits.of(server(EngineKinds.SGLANG), REAL, H100)).isEmpty();
    }

    /**
     * vLLM's {@code get_batch_defaults} ({@code vllm/engine/arg_utils.py}): for the API server, 1024 sequences and 8192
     * batched tokens on a GPU of 70 GiB or more that is not an A100, else 256 and 2048.
     */
    @Test
    void vllmsBatchLimitsFollowTheGpu() {
        assertThat(EngineLimits.of(server(EngineKinds.VLLM), REAL, H100)).containsExactly("engine default: at most 1024"
                + " running requests and 8192 tokens a step (vLLM's --max-num-seqs and --max-num-batched-tokens for an API"
                + " server on NVIDIA H100 80GB HBM3)");
        assertThat(EngineLimits.of(server(EngineKinds.VLLM, "--max-num-batched-tokens=4096"), REAL,
                List.of("NVIDIA A100-SXM4-80GB, 81920 MiB, 550.54"))).containsExactly("engine default: at most 256"
                + " running requests (vLLM's --max-num-seqs for an API server on NVIDIA A100-SXM4-80GB)");
        assertThat(EngineLimits.of(server(EngineKinds.VLLM, "--max-num-seqs=64", "--max-num-batched-tokens=4096"), REAL,
                H100)).isEmpty();
        assertThat(EngineLimits.of(server(EngineKinds.VLLM), REAL, List.of())).singleElement().asString()
                .contains("no GPU was found here to say which");
        assertThat(EngineLimits.of(server(EngineKinds.COMMAND), REAL, H100)).isEmpty();
    }
}
