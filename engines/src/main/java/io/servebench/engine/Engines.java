package io.servebench.engine;

import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.Redaction;
import io.servebench.results.PrefixCacheReset;
import io.servebench.results.TwinBar;
import io.servebench.sim.SimDialect;
import io.servebench.results.ServerEnvironment;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Starts the engine a server configuration names, or the simulated engine in its place, and says how the
 * engine that served is named, asked for its version and has its cache reset. Whether the simulated engine
 * stands in ({@code --simulate}) is decided here and nowhere else.
 */
public final class Engines {

    /** Prefix of the engine's name in results when the simulated engine stood in for it: {@code sim:vllm}. */
    private static final String SIMULATED = EngineKinds.SIM.name() + ":";

    private Engines() {
    }

    /**
     * Starts the engine for {@code server}, writing its log to {@code log}, and returns when it is ready.
     *
     * @throws EngineStartException when it cannot start or does not become ready; the message names the log
     */
    public static RunningEngine start(ServerConfig server, EngineParams engines, Path log) throws EngineStartException {
        return start(server, engines, log, notice -> { });
    }

    /**
     * {@link #start(ServerConfig, EngineParams, Path)}, telling {@code waiting} what a start that takes long waits for
     * (10 s after it began, then every 30 s), e.g. "not ready after 40 s of at most 1200 s (--ready-timeout): waiting
     * for its health check (connection refused: nothing listens at 127.0.0.1:8000 yet)".
     */
    public static RunningEngine start(ServerConfig server, EngineParams engines, Path log, Consumer<String> waiting)
            throws EngineStartException {
        return switch (engines.simulate()) {
            case IN_PROCESS -> SimulatedStarts.inProcess(server, engines, log);
            case PROCESS -> SimulatedStarts.asProcess(server, engines, log, waiting);
            case VIRTUAL -> SimulatedStarts.virtual(server, engines, log);
            case OFF -> {
                try {
                    yield KindStarts.start(server, engines, log, waiting);
                } catch (EngineStartException e) {
                    throw refusedFlags(server, e);
                }
            }
        };
    }

    /** How vLLM's and SGLang's argparse refuse a flag: {@code error: unrecognized arguments: ...}, an invalid choice. */
    private static final java.util.regex.Pattern ARGPARSE_REFUSAL = java.util.regex.Pattern.compile(
            "error: (unrecognized arguments|argument \\S+: invalid)");

    /** A version as {@code vllm --version} or {@code sglang.__version__} prints it: {@code 0.17.1}, {@code 0.5.4.post2}. */
    private static final java.util.regex.Pattern VERSION = java.util.regex.Pattern.compile("\\d+\\.\\d+\\.\\d+(\\.post\\d+)?");

    /**
     * {@code failure}, and where the engine's own parser refused a flag (its log says so), which version the installed
     * engine reports and what ServeBench knows of its flags: a study's flags are checked against the version it names,
     * or the newest ServeBench has, so an older engine on the machine refuses what the check let through.
     */
    private static EngineStartException refusedFlags(ServerConfig server, EngineStartException failure) {
        String kind = server.kind().name();
        if (failure.getMessage() == null || !ARGPARSE_REFUSAL.matcher(failure.getMessage()).find()
                || !io.servebench.flags.FlagCatalog.covers(kind)) {
            return failure;
        }
        List<String> versionCommand = KindStarts.versionCommand(server);
        java.util.regex.Matcher m = VERSION.matcher(versionCommand.isEmpty() ? "" : EnvironmentCapture.run(versionCommand));
        if (!m.find()) {
            return failure;
        }
        String version = m.group();
        Optional<io.servebench.flags.FlagCatalog> catalog = io.servebench.flags.FlagCatalog.of(kind, version);
        String known = String.join(", ", io.servebench.flags.FlagCatalog.versions(kind));
        String said;
        if (catalog.isEmpty()) {
            said = "the engine here reports version " + version + ", whose flags ServeBench has no list of (it has "
                    + known + "): the study's were checked against the version it names, else the newest of those";
        } else {
            List<String> refused = server.flags().stream().map(f -> catalog.get().problem(catalog.get().resolved(f)))
                    .flatMap(Optional::stream).toList();
            said = "the engine here reports version " + version + (refused.isEmpty() ? ""
                    : ", whose parser ServeBench knows: " + String.join("; ", refused))
                    + "; name it, @Engine(version = \"" + version + "\") or @Variant(engineVersion), to have the compiler"
                    + " check the study's flags against it";
        }
        EngineStartException told = new EngineStartException(failure.getMessage() + " (" + said + ")");
        told.setStackTrace(failure.getStackTrace());
        return told;
    }

    /** The flags the simulated engine reads when it stands in for {@code kind} ({@code --simulate}), and whose replies it gives. */
    public static SimDialect simDialect(EngineKind kind) {
        return KindStarts.simDialect(kind);
    }

    /** Whether the simulated engine serves {@code server}: it stands in for the kind, or it is the kind. */
    public static boolean simulated(ServerConfig server, EngineParams engines) {
        return engines.simulate() != EngineParams.Simulate.OFF || server.kind() == EngineKinds.SIM;
    }

    /**
     * Why the simulated engine cannot serve {@code server} (a model it does not know, flags it cannot read), in one line;
     * empty when it can.
     */
    public static Optional<String> simulationProblem(ServerConfig server, EngineParams engines) {
        return SimulatedStarts.problem(server, engines);
    }

    /** The engine as results and reports name it: the kind, {@code sim:vllm} when the simulated engine stood in for vLLM. */
    public static String reportedName(ServerConfig server, EngineParams engines) {
        return standsIn(server, engines) ? SIMULATED + server.kind().name() : server.kind().name();
    }

    /** The server as plans and logs show it: its label, {@code sim(label)} when the simulated engine stands in. */
    public static String label(ServerConfig server, EngineParams engines) {
        return standsIn(server, engines) ? "sim(" + server.label() + ")" : server.label();
    }

    private static boolean standsIn(ServerConfig server, EngineParams engines) {
        return engines.simulate() != EngineParams.Simulate.OFF && server.kind() != EngineKinds.SIM;
    }

    /**
     * How a person starts {@code server} by hand on the engine whose flags it uses, for the reports: the serve
     * command, that engine's name and whether the numbers came from the simulated engine instead; empty for a
     * kind whose command ServeBench does not know.
     */
    public static Optional<io.servebench.results.ServeCommand> serveCommand(ServerConfig server, EngineParams engines) {
        List<String> args = KindStarts.args(server);
        return server.kind().dialect().map(d -> new io.servebench.results.ServeCommand(d.handRun(server.model(), args),
                d.engineName(), simulated(server, engines)));
    }

    /**
     * Records what the started engine is and where it runs: its version from the kind's version command (or, when
     * that gives nothing, the server's {@code GET /version}), the simulated engine's own version, or the image.
     */
    public static ServerEnvironment capture(String serverId, ServerConfig server, EngineParams engines, RunningEngine engine,
                                            String servebenchVersion) {
        boolean stoodIn = engines.simulate() != EngineParams.Simulate.OFF;
        ServerEnvironment captured = EnvironmentCapture.capture(serverId, reportedName(server, engines), server.model(),
                engine.commandLine(), stoodIn ? List.of() : KindStarts.versionCommand(server),
                stoodIn ? null : engine.endpoint(), engines.apiKey(), servebenchVersion);
        ServerEnvironment environment = captured.withEngineLimits(EngineLimits.of(server, engines, captured.gpus()));
        if (simulated(server, engines)) {
            String mode = engines.simulate() == EngineParams.Simulate.VIRTUAL ? " in virtual time " : " ";
            Optional<io.servebench.sim.SimParams> settings = SimulatedStarts.settings(server, engines);
            // which model the twin's figures are of, and from where (ModelLookup): never another model's; how far
            // to trust them for this engine, GPU and architecture (TwinEvidence); and which of the study's flags they
            // leave out, which the engine's log alone said: a comparison with and without one shows no difference
            // the GPUs are the ones it imitates, one entry each as nvidia-smi lists a real engine's: not the host's
            return environment.withEngineVersion("ServeBench simulated engine" + mode + servebenchVersion
                    + settings.map(s -> "; model config " + s.modelSource()).orElse(""))
                    .withGpus(settings.map(s -> java.util.Collections.nCopies(s.tensorParallelSize(),
                            s.gpu().name() + " (simulated)")).orElse(List.of()))
                    .withTwin(settings.map(s -> twinBars(s, engines.simulatedGpu().toLowerCase(java.util.Locale.ROOT)))
                                    .orElse(List.of()),
                            settings.map(s -> Redaction.args(s.ignoredFlags())).orElse(List.of()));
        }
        if (!server.setup().image().isEmpty()) {
            return environment.withEngineVersion("image " + server.setup().image());
        }
        return environment;
    }

    /** The twin's error bars for a block of these settings on the GPU of id {@code gpu}, one per load regime. */
    static List<TwinBar> twinBars(io.servebench.sim.SimParams settings, String gpu) {
        return io.servebench.sim.TwinEvidence.bars(settings, gpu).stream().map(bar -> {
            TwinBar.Gpus gpus = settings.tensorParallelSize() <= 1 ? TwinBar.Gpus.ONE
                    : io.servebench.sim.TwinEvidence.expertParallel(settings) ? TwinBar.Gpus.EXPERT_PARALLEL
                    : TwinBar.Gpus.SEVERAL;
            TwinBar.Regime regime = TwinBar.Regime.valueOf(bar.regime().name());
            TwinBar.HeldOut heldOut = bar.calibration().map(c -> new TwinBar.HeldOut(c.model(), c.fitRate(), c.blocks(),
                    c.figures(), c.maxError(), c.meanError())).orElse(null);
            return bar.published().map(e -> new TwinBar(e.engine(), e.architecture(), e.gpu(), gpus, regime, e.cases(),
                            e.figures(), e.maxError(), e.meanError(), e.fasterFigures(), e.medianSpeedRatio(), heldOut))
                    .orElseGet(() -> new TwinBar(settings.dialect().toString(),
                            io.servebench.sim.TwinEvidence.architecture(settings.model()), gpu, gpus, regime, 0, 0, 0, 0,
                            0, 0, heldOut));
        }).toList();
    }

    /**
     * Empties the prefix cache of the engine serving {@code server}, once, where it offers a way.
     *
     * @return whether it was emptied, and how or why not ("POST /flush_cache answered 400")
     */
    public static PrefixCacheReset resetCache(ServerConfig server, EngineParams engines, RunningEngine engine) {
        if (engine.virtual().isPresent()) {
            engine.virtual().get().resetPrefixCache();
            return PrefixCacheReset.emptied("the virtual engine's cache cleared");
        }
        // replicas each hold a cache of their own: the reset is the first that is not an emptied one, else the last
        PrefixCacheReset reset = null;
        for (Endpoint endpoint : engine.endpoints()) {
            reset = CacheReset.reset(serving(server, engines), endpoint, resetKey(server, engines));
            if (reset.outcome() != PrefixCacheReset.Outcome.EMPTIED) {
                return reset;
            }
        }
        return reset;
    }

    /**
     * The bearer token of the cache reset: for a kind whose admin routes want a key of their own (SGLang), the harness's
     * admin key, which the engine was started with; else the API key, which SGLang's admin routes take when no admin
     * key is set (its {@code utils/auth.py}).
     */
    private static String resetKey(ServerConfig server, EngineParams engines) {
        EngineKind kind = serving(server, engines);
        return kind.adminKeyFlag().isPresent() && engines.adminApiKey() != null ? engines.adminApiKey() : engines.apiKey();
    }

    /** The kind that serves {@code server}: the simulated engine's under {@code --simulate}. */
    private static EngineKind serving(ServerConfig server, EngineParams engines) {
        return engines.simulate() != EngineParams.Simulate.OFF ? EngineKinds.SIM : server.kind();
    }
}
