package io.servebench.engine;

import io.servebench.engine.kind.CommandKind;
import io.servebench.engine.kind.EndpointKind;
import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.kind.FlagDialect;
import io.servebench.engine.kind.ProcessKind;
import io.servebench.engine.kind.ServerProgramKind;
import io.servebench.engine.kind.SimulatedKind;
import io.servebench.flags.FlagCatalog;
import io.servebench.sim.SimDialect;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How each shape of {@link EngineKind} is started, asked its version and stood in for: the kinds themselves are data
 * (the vocabulary's {@code engine.kind}, which a study's checker reads without this layer); this is the one place that
 * turns them into processes, containers, endpoints waited for and simulated engines. A kind is one of the four shapes
 * its sealed interface permits, each handled here.
 */
final class KindStarts {

    /** The flags the simulated engine reads when it stands in for a kind: SGLang's for SGLang, its own for itself. */
    private static final Map<EngineKind, SimDialect> STANDS_IN_AS = Map.of(EngineKinds.VLLM, SimDialect.VLLM,
            EngineKinds.SGLANG, SimDialect.SGLANG, EngineKinds.SIM, SimDialect.SIM);

    private KindStarts() {
    }

    /** The dialect the simulated engine reads in {@code kind}'s place ({@code --simulate}); vLLM's for a kind without one. */
    static SimDialect simDialect(EngineKind kind) {
        return STANDS_IN_AS.getOrDefault(kind, SimDialect.VLLM);
    }

    /**
     * Starts the engine for {@code server} and returns once it is ready.
     *
     * @param waiting told what a long start waits for ({@link Engines#start(ServerConfig, EngineParams, Path, Consumer)})
     * @throws EngineStartException when it cannot start or does not become ready; the message names the log
     */
    static RunningEngine start(ServerConfig server, EngineParams engines, Path log, Consumer<String> waiting)
            throws EngineStartException {
        EngineKind kind = server.kind();
        if (kind instanceof ProcessKind process) {
            return startProcess(process, server, engines, log, waiting);
        }
        if (kind instanceof EndpointKind) {
            return awaitEndpoints(server, engines, log, waiting);
        }
        if (kind instanceof SimulatedKind) {
            return SimulatedStarts.inProcess(server, engines, log);
        }
        throw new IllegalStateException("no start for engine kind " + kind.name());
    }

    /** The command that prints the engine's version, empty when there is none (a container's version is its image). */
    static List<String> versionCommand(ServerConfig server) {
        if (server.kind() instanceof ServerProgramKind program && server.setup().image().isEmpty()) {
            return concat(List.of(program.flags().serve(server.setup().executable(), server.model()).get(0)),
                    program.versionArgs());
        }
        return List.of();
    }

    /**
     * The server's flags as its engine's parser reads them: for a serving program ServeBench knows, a list-valued flag
     * (vLLM's {@code --lora-modules}, SGLang's {@code --lora-paths}) as its name and then each item, which argparse
     * needs apart, by the newest catalogue's arities (the versions read agree on every list-valued flag); as written
     * for any other kind.
     */
    static List<String> args(ServerConfig server) {
        if (server.kind() instanceof ServerProgramKind program) {
            FlagCatalog catalog = FlagCatalog.forStudy(program.name(), "");
            return server.flags().stream().flatMap(f -> catalog.args(f).stream()).toList();
        }
        return server.args();
    }

    /**
     * The process to start for {@code server} on {@code port}, in a container when its setup names an image.
     *
     * @param containerRuntime {@code docker} or {@code podman}
     * @param hostHfCache      the host's Hugging Face cache, mounted into containers
     * @param listenAddress    the address the server listens on, or its container's port is published on
     * @throws IllegalArgumentException for a kind that is not started as a process
     */
    static LaunchCommand launch(ServerConfig server, int port, String containerRuntime, Path hostHfCache,
                                String listenAddress) {
        if (!(server.kind() instanceof ProcessKind process)) {
            throw new IllegalArgumentException("engine kind \"" + server.kind().name() + "\" is not started as a process");
        }
        EngineSetup setup = server.setup();
        boolean inContainer = !setup.image().isEmpty();
        Map<String, String> env = new LinkedHashMap<>(process.benchmarkEnvironment());
        for (String entry : setup.env()) {
            if (!EngineSetup.handedOn(entry)) {
                env.put(EngineSetup.variable(entry), entry.substring(entry.indexOf('=') + 1));
            } else if (inContainer) {
                // -e NAME: the runtime takes the value from its own environment, which is ServeBench's, so the
                // value is on no command line
                env.put(entry, null);
            }
            // a process inherits ServeBench's environment, the handed-on variable with it
        }
        Path workdir = setup.workdir().isEmpty() ? null : Path.of(setup.workdir());
        if (!inContainer) {
            return new LaunchCommand(withBenchmarkFlags(process, serve(server, listenAddress, port)), env, workdir, port);
        }
        return Container.launch(server, port, listenAddress, containerRuntime, hostHfCache,
                withBenchmarkFlags(process, serve(server, Container.HOST, port)), env, workdir);
    }

    /**
     * The process kind's argument list listening on {@code host}:{@code port}, its flags last: a known program's
     * serve command, or the study's command with its placeholders filled in.
     */
    private static List<String> serve(ServerConfig server, String host, int port) {
        if (server.kind() instanceof ServerProgramKind program) {
            return concat(concat(program.flags().serve(server.setup().executable(), server.model()),
                    List.of(FlagDialect.HOST, host, FlagDialect.PORT, Integer.toString(port))), args(server));
        }
        return concat(server.setup().command().stream().map(arg -> arg.replace(CommandKind.PORT, Integer.toString(port))
                .replace(CommandKind.HOST, host).replace(CommandKind.MODEL, server.model())).toList(), server.args());
    }

    /** {@code argv} with the kind's benchmark flags that the server's own flags do not already give. */
    private static List<String> withBenchmarkFlags(ProcessKind kind, List<String> argv) {
        List<String> missing = kind.benchmarkFlags().stream().filter(f -> !argv.contains(f)).toList();
        return missing.isEmpty() ? argv : concat(argv, missing);
    }

    private static RunningEngine startProcess(ProcessKind kind, ServerConfig server, EngineParams engines, Path log,
                                              Consumer<String> waiting) throws EngineStartException {
        for (String entry : server.setup().env()) {
            if (EngineSetup.handedOn(entry) && System.getenv(entry) == null) {
                throw new EngineStartException("environment entry " + entry + " hands the engine ServeBench's own "
                        + entry + ", and ServeBench's environment has none; export " + entry + " where the run starts");
            }
        }
        if (!server.setup().image().isEmpty()) {
            // Podman refuses to mount a folder that does not exist (Docker makes it, owned by root): a machine that
            // never downloaded a model has none yet.
            try {
                Files.createDirectories(engines.hfCache());
            } catch (IOException e) {
                throw new EngineStartException("cannot create the Hugging Face cache " + engines.hfCache()
                        + " to mount into the container: " + e.getMessage() + "; set HF_HOME to a writable folder", e);
            }
        }
        LaunchCommand launch = launch(server, ProcessEngine.freePort(engines.listenAddress()), engines.containerRuntime(),
                engines.hfCache(), engines.listenAddress());
        // the keys from the harness's environment (a study's flags never give one): never in a report's command
        if (engines.apiKey() != null && kind.dialect().isPresent()) {
            launch = launch.plus(List.of(kind.dialect().get().flags().apiKey(), engines.apiKey()));
        }
        if (kind.adminKeyFlag().isPresent() && engines.adminApiKey() != null) {
            launch = launch.plus(List.of(kind.adminKeyFlag().get(), engines.adminApiKey()));
        }
        boolean adapterAfterBase = simDialect(kind).adapterAfterBase() && kind.dialect().isPresent();
        return ProcessEngine.start(launch, server.servedModel(), adapterAfterBase, log, engines.readyTimeout(),
                engines.grace(), engines.apiKey(), waiting);
    }

    /** A server already running: waited for until it is ready, never started or stopped. */
    private static RunningEngine awaitEndpoints(ServerConfig server, EngineParams engines, Path log,
                                                Consumer<String> waiting) throws EngineStartException {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String url : server.setup().urls()) {
            // The API paths are appended to the base, so a URL given with its /v1 (as OpenAI clients take it), or pasted
            // whole with an API's path, is cut back to the server's base.
            URI base = URI.create(url.replaceAll("/+$", "").replaceAll("/v1(/chat/completions|/completions|/models)?$", "")
                    + "/");
            endpoints.add(new Endpoint(base, server.model(), base.resolve("metrics")));
        }
        String bases = String.join(" ", endpoints.stream().map(e -> e.baseUri().toString()).toList());
        try {
            Files.writeString(log, "endpoint " + bases + " (not started or stopped by ServeBench)" + System.lineSeparator());
        } catch (IOException e) {
            throw new EngineStartException("cannot write the engine log " + log + ": " + e.getMessage(), e);
        }
        for (Endpoint e : endpoints) {
            new Readiness(e.baseUri(), server.model(), engines.apiKey()).await(engines.readyTimeout(), () -> null,
                    notice -> waiting.accept(e.baseUri() + " " + notice));
        }
        // not ours to stop
        return RunningEngine.of(endpoints, "endpoint " + bases + " (started elsewhere)", () -> { });
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
