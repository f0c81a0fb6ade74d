package io.servebench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A kind started as a child process, on this machine or, when the study names an image, in a container. Every
 * server listens on 127.0.0.1 (0.0.0.0 inside a container, published on 127.0.0.1 only) on a port ServeBench chose.
 */
interface ProcessKind extends EngineKind {

    /**
     * The engine's argument list listening on {@code host}:{@code port}, its flags last.
     */
    List<String> serve(ServerConfig server, String host, int port);

    /** The version command of the engine installed on this machine, empty when there is none. */
    List<String> programVersion(ServerConfig server);

    /**
     * Environment variables a benchmark needs the engine to have (vLLM's cache-reset route, say); the study's own
     * {@code env} is laid over them, so it can still set them otherwise.
     */
    default Map<String, String> benchmarkEnvironment() {
        return Map.of();
    }

    /**
     * Flags a benchmark needs the engine to run with (SGLang's metrics, say), added after {@code --port} unless the
     * study gives them itself. Not part of {@link #serve}, the command a study recommends for deployment.
     */
    default List<String> benchmarkFlags() {
        return List.of();
    }

    @Override
    default LaunchCommand launch(ServerConfig server, int port, String containerRuntime, Path hostHfCache) {
        EngineSetup setup = server.setup();
        Map<String, String> env = new LinkedHashMap<>(benchmarkEnvironment());
        for (String entry : setup.env()) {
            int eq = entry.indexOf('=');
            env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
        Path workdir = setup.workdir().isEmpty() ? null : Path.of(setup.workdir());
        if (setup.image().isEmpty()) {
            return new LaunchCommand(withBenchmarkFlags(server, serve(server, "127.0.0.1", port)), env, workdir, port);
        }
        return Container.launch(server, port, containerRuntime, hostHfCache,
                withBenchmarkFlags(server, serve(server, Container.HOST, port)), env, workdir);
    }

    /** {@code argv} with the {@link #benchmarkFlags} the server's own flags do not already give. */
    private List<String> withBenchmarkFlags(ServerConfig server, List<String> argv) {
        List<String> missing = benchmarkFlags().stream().filter(f -> !argv.contains(f)).toList();
        return missing.isEmpty() ? argv : concat(argv, missing);
    }

    @Override
    default List<String> versionCommand(ServerConfig server) {
        return server.setup().image().isEmpty() ? programVersion(server) : List.of();
    }

    @Override
    default RunningEngine start(ServerConfig server, EngineOptions options, Path log) throws EngineStartException {
        if (!server.setup().image().isEmpty()) {
            // Podman refuses to mount a folder that does not exist (Docker makes it, owned by root): a machine that
            // never downloaded a model has none yet.
            try {
                Files.createDirectories(options.hfCache());
            } catch (IOException e) {
                throw new EngineStartException("cannot create the Hugging Face cache " + options.hfCache()
                        + " to mount into the container: " + e.getMessage() + "; set HF_HOME to a writable folder", e);
            }
        }
        LaunchCommand launch = launch(server, ProcessEngine.freePort(), options.containerRuntime(), options.hfCache());
        // the admin key from the harness's environment, where the study's flags give none: never in a report's command
        if (adminKeyFlag().isPresent() && options.adminApiKey() != null
                && server.flags().stream().noneMatch(f -> f.name().equals(adminKeyFlag().get()))) {
            launch = launch.plus(List.of(adminKeyFlag().get(), options.adminApiKey()));
        }
        boolean adapterAfterBase = simDialect().adapterAfterBase() && dialect().isPresent();
        return ProcessEngine.start(launch, server.servedModel(), adapterAfterBase, log, options.readyTimeout(),
                options.grace(), options.apiKey());
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
