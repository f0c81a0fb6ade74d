package io.servebench.engine.kind;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An engine that is one program serving one model behind flags ServeBench knows (vLLM, SGLang): started as its
 * dialect's serve command with {@code --host} and {@code --port}, asked for its version by a command of its own.
 *
 * @param name            the kind's name
 * @param flags           its dialect; the first word of the serve command is the program, replaced by
 *                        {@code @Engine(executable)}
 * @param versionArgs     the arguments after the program that print its version
 * @param resetPath       the {@code POST} path that empties its prefix cache, {@code null} for none
 * @param continuousUsage whether it sends cumulative usage on every chunk when asked
 * @param benchmarkEnvironment environment variables a benchmark needs it to have
 * @param benchmarkFlags  flags a benchmark needs it to run with
 * @param adminKeyName    the flag of the key its admin routes (the cache reset among them) want, {@code null} where the
 *                        API key opens them all
 */
public record ServerProgramKind(String name, FlagDialect flags, List<String> versionArgs, String resetPath,
                                boolean continuousUsage, Map<String, String> benchmarkEnvironment,
                                List<String> benchmarkFlags, String adminKeyName)
        implements ProcessKind {

    public ServerProgramKind {
        benchmarkEnvironment = Map.copyOf(benchmarkEnvironment);
        benchmarkFlags = List.copyOf(benchmarkFlags);
    }

    @Override
    public Optional<FlagDialect> dialect() {
        return Optional.of(flags);
    }

    @Override
    public Optional<String> adminKeyFlag() {
        return Optional.ofNullable(adminKeyName);
    }

    @Override
    public Optional<String> cacheResetPath() {
        return Optional.ofNullable(resetPath);
    }

    @Override
    public Optional<String> tokenizePath() {
        return Optional.of("/tokenize");
    }
}
