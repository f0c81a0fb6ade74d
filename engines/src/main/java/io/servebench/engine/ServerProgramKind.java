package io.servebench.engine;

import io.servebench.sim.SimDialect;

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
 * @param simDialect      the flags the simulated engine reads in its place
 * @param benchmarkEnvironment environment variables a benchmark needs it to have
 * @param benchmarkFlags  flags a benchmark needs it to run with
 * @param adminKeyName    the flag of the key its admin routes (the cache reset among them) want, {@code null} where the
 *                        API key opens them all
 */
record ServerProgramKind(String name, FlagDialect flags, List<String> versionArgs, String resetPath, boolean continuousUsage,
                         SimDialect simDialect, Map<String, String> benchmarkEnvironment, List<String> benchmarkFlags,
                         String adminKeyName)
        implements ProcessKind {

    ServerProgramKind {
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

    @Override
    public List<String> serve(ServerConfig server, String host, int port) {
        return ProcessKind.concat(ProcessKind.concat(flags.serve(server.setup().executable(), server.model()),
                List.of("--host", host, "--port", Integer.toString(port))), args(server));
    }

    /**
     * The server's flags as this engine's parser reads them: a list-valued flag (vLLM's {@code --lora-modules},
     * SGLang's {@code --lora-paths}) as its name and then each item, which argparse needs apart. By the newest
     * catalogue's arities: the versions read agree on every list-valued flag.
     */
    List<String> args(ServerConfig server) {
        io.servebench.flags.FlagCatalog catalog = io.servebench.flags.FlagCatalog.forStudy(name, "");
        return server.flags().stream().flatMap(f -> catalog.args(f).stream()).toList();
    }

    @Override
    public List<String> programVersion(ServerConfig server) {
        return ProcessKind.concat(List.of(flags.serve(server.setup().executable(), server.model()).get(0)), versionArgs);
    }
}
