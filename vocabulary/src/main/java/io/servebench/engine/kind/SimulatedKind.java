package io.servebench.engine.kind;

import java.util.Optional;

/**
 * ServeBench's simulated engine, run in the harness's JVM: it reads vLLM's flags (plus its own
 * {@code --sim-acceptance-rate}), so its hand-run command is vLLM's.
 *
 * @param name    the kind's name
 * @param flags   the dialect it reads, vLLM's
 * @param resetPath the {@code POST} path that empties its prefix cache, vLLM's
 */
public record SimulatedKind(String name, FlagDialect flags, String resetPath) implements EngineKind {

    @Override
    public Optional<FlagDialect> dialect() {
        return Optional.of(flags);
    }

    @Override
    public boolean continuousUsage() {
        return true;
    }

    @Override
    public Optional<String> cacheResetPath() {
        return Optional.of(resetPath);
    }

    @Override
    public Optional<String> tokenizePath() {
        return Optional.of("/tokenize");
    }
}
