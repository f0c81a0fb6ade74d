package io.servebench.engine;

import io.servebench.sim.EngineDefaults;
import io.servebench.sim.GpuProfile;
import io.servebench.sim.SimDialect;
import io.servebench.flags.EngineFlags;
import io.servebench.flags.Flag;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The limits an engine sets itself where a study's flags leave them open, stated in every block of the server as
 * "engine default: ...", since a comparison of two engines otherwise carries a cap no report mentions. Each rule is the
 * engine's own source, as the simulated engine applies it ({@link EngineDefaults}).
 */
final class EngineLimits {

    /** {@code nvidia-smi --query-gpu=name,memory.total,...}'s line: {@code NVIDIA H100 80GB HBM3, 81559 MiB, 570.86}. */
    private static final Pattern GPU_LINE = Pattern.compile("([^,]+),\\s*([0-9]+) MiB.*");

    private EngineLimits() {
    }

    /**
     * What the engine serving {@code server} sets itself.
     *
     * @param gpus the machine's GPUs as {@link EnvironmentCapture#gpus()} lists them; for the simulated engine, the
     *             GPU it imitates is used instead
     * @return one sentence per limit, each starting "engine default: "; empty for a kind whose defaults ServeBench does
     * not know ({@code command}, {@code endpoint})
     */
    static List<String> of(ServerConfig server, EngineParams engines, List<String> gpus) {
        if (server.kind().dialect().isEmpty()) {
            return List.of();
        }
        List<String> limits = new ArrayList<>();
        if (KindStarts.simDialect(server.kind()) == SimDialect.SGLANG) {
            // python/sglang/srt/server_args.py (0.5.9, _handle_speculative_decoding) and
            // arg_groups/speculative_hook.py (0.5.18): "Max running requests is reset to 48 for speculative decoding"
            if (given(server, EngineFlags.SGLANG_SPECULATIVE_ALGORITHM) && !given(server, EngineFlags.SGLANG.maxNumSeqs())) {
                limits.add("engine default: at most " + EngineDefaults.SGLANG_SPECULATIVE_MAX_RUNNING_REQUESTS
                        + " running requests (SGLang's cap with speculative decoding when "
                        + EngineFlags.SGLANG.maxNumSeqs() + " is not given)");
            }
            return limits;
        }
        boolean seqs = !given(server, EngineFlags.VLLM.maxNumSeqs());
        boolean tokens = !given(server, EngineFlags.VLLM.maxNumBatchedTokens());
        if (!seqs && !tokens) {
            return limits;
        }
        Optional<Gpu> gpu = engines.simulate() != EngineParams.Simulate.OFF
                ? Optional.of(GpuProfile.named(engines.simulatedGpu())).map(g -> new Gpu(g.name(), g.memoryBytes()))
                : gpus.stream().map(EngineLimits::gpu).flatMap(Optional::stream).findFirst();
        if (gpu.isEmpty()) {
            limits.add("engine default: vLLM sets " + (seqs ? "max_num_seqs" : "") + (seqs && tokens ? " and " : "")
                    + (tokens ? "max_num_batched_tokens" : "") + " by the GPU (1024 and 8192 on one of 70 GiB or more"
                    + " but an A100, else 256 and 2048); no GPU was found here to say which");
            return limits;
        }
        Gpu g = gpu.get();
        List<String> parts = new ArrayList<>();
        if (seqs) {
            parts.add("at most " + EngineDefaults.vllmMaxNumSeqs(g.name(), g.memoryBytes()) + " running requests");
        }
        if (tokens) {
            parts.add(EngineDefaults.vllmMaxNumBatchedTokens(g.name(), g.memoryBytes()) + " tokens a step");
        }
        limits.add("engine default: " + String.join(" and ", parts) + " (vLLM's "
                + (seqs ? EngineFlags.VLLM.maxNumSeqs() : "") + (seqs && tokens ? " and " : "")
                + (tokens ? EngineFlags.VLLM.maxNumBatchedTokens() : "") + " for an API server on " + g.name() + ")");
        return limits;
    }

    private static boolean given(ServerConfig server, String flag) {
        return server.flags().stream().map(Flag::name).anyMatch(flag::equals);
    }

    private record Gpu(String name, double memoryBytes) {
    }

    private static Optional<Gpu> gpu(String line) {
        Matcher m = GPU_LINE.matcher(line.strip());
        return m.matches() ? Optional.of(new Gpu(m.group(1).strip(), Double.parseDouble(m.group(2)) * 1024 * 1024))
                : Optional.empty();
    }
}
