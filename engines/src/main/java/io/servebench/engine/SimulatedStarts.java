package io.servebench.engine;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.sim.GpuProfile;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimParams;
import io.servebench.sim.SimServer;
import io.servebench.sim.SimulatedEngine;
import io.servebench.sim.VirtualEngine;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.Optional;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Starts the simulated engine for a server configuration, reading its flags in a {@link SimDialect}: in the
 * harness's JVM, or as a process of its own ({@link SimServer}) started and stopped exactly like a real engine.
 */
final class SimulatedStarts {

    private SimulatedStarts() {
    }

    /** The simulated engine as a child process, started and stopped like a real engine. */
    static RunningEngine asProcess(ServerConfig server, EngineParams engines, Path log, Consumer<String> waiting)
            throws EngineStartException {
        SimDialect dialect = KindStarts.simDialect(server.kind());
        int port = ProcessEngine.freePort(engines.listenAddress());
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> argv = new ArrayList<>(List.of(javaBin, "-cp", System.getProperty("java.class.path"),
                SimServer.class.getName(), server.model(), "--host", engines.listenAddress(),
                "--port", Integer.toString(port),
                "--dialect", dialect.toString(), "--seed", Long.toString(engines.seed()),
                "--gpu", engines.simulatedGpu()));
        argv.addAll(simulatedArgs(server, engines));
        return ProcessEngine.start(new LaunchCommand(argv, Map.of(), null, port), server.servedModel(),
                dialect.adapterAfterBase(), log,
                engines.readyTimeout(), engines.grace(), engines.apiKey(), waiting);
    }

    static RunningEngine inProcess(ServerConfig server, EngineParams engines, Path log)
            throws EngineStartException {
        SimParams settings = params(server, engines);
        SimDialect dialect = settings.dialect();
        // The in-process engine logs through java.util.logging: into this server's log, not onto the console.
        Logger simLog = Logger.getLogger(SimulatedEngine.class.getPackageName());
        FileHandler handler;
        try {
            Files.writeString(log, "simulated engine on " + settings.gpu().name() + ", " + server.kind().name()
                    + " dialect: " + server.label() + System.lineSeparator());
            handler = new FileHandler(log.toString(), true);
        } catch (IOException e) {
            throw new EngineStartException("cannot write the engine log " + log + ": " + e.getMessage(), e);
        }
        handler.setFormatter(new OneLineFormatter());
        simLog.setUseParentHandlers(false);
        simLog.addHandler(handler);
        Runnable detachLog = () -> {
            simLog.removeHandler(handler);
            handler.close();
        };
        SimulatedEngine engine;
        try {
            engine = SimulatedEngine.start(settings, new java.net.InetSocketAddress(engines.listenAddress(), 0),
                    engines.seed());
        } catch (IOException e) {
            detachLog.run();
            throw new EngineStartException("simulated " + server.kind().name() + " could not open its port: " + e.getMessage(), e);
        }
        Endpoint endpoint = new Endpoint(engine.baseUri(), engine.model(), engine.metricsUri(), dialect.adapterAfterBase());
        return new RunningEngine() {
            @Override
            public Endpoint endpoint() {
                return endpoint;
            }

            @Override
            public Optional<io.servebench.sim.PowerMeter> power() {
                return Optional.of(engine.power());
            }

            @Override
            public String commandLine() {
                return "simulated engine in the harness's JVM: " + server.label();
            }

            @Override
            public void close() {
                engine.close();
                detachLog.run();
            }
        };
    }

    /**
     * The simulated engine in virtual time: the same flags read the same way, no port. Its log holds the
     * lines the real-time engine would write at start.
     */
    static RunningEngine virtual(ServerConfig server, EngineParams engines, Path log)
            throws EngineStartException {
        SimParams settings = params(server, engines);
        SimDialect dialect = settings.dialect();
        List<String> lines = new ArrayList<>();
        lines.add("simulated engine in virtual time on " + settings.gpu().name() + ", " + server.kind().name()
                + " dialect: " + server.label());
        lines.addAll(settings.startLog());
        try {
            Files.write(log, lines);
        } catch (IOException e) {
            throw new EngineStartException("cannot write the engine log " + log + ": " + e.getMessage(), e);
        }
        VirtualEngine engine = VirtualEngine.of(settings, engines.seed());
        Endpoint none = new Endpoint(URI.create("virtual:" + settings.servedModel()), settings.servedModel(), null,
                dialect.adapterAfterBase());
        return new RunningEngine() {
            @Override
            public Endpoint endpoint() {
                return none;
            }

            @Override
            public Optional<VirtualEngine> virtual() {
                return Optional.of(engine);
            }

            @Override
            public String commandLine() {
                return "simulated engine in virtual time: " + server.label();
            }

            @Override
            public void close() {
                // nothing runs between loads: the virtual engine only moves when a load advances it
            }
        };
    }

    /** Why the simulated engine cannot serve {@code server}, empty when it can. */
    static Optional<String> problem(ServerConfig server, EngineParams engines) {
        try {
            params(server, engines);
            return Optional.empty();
        } catch (EngineStartException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * What the simulated engine serving {@code server} is told: the model's config and where it was found, the engine it
     * stands for; empty when it cannot start.
     */
    static Optional<SimParams> settings(ServerConfig server, EngineParams engines) {
        try {
            return Optional.of(params(server, engines));
        } catch (EngineStartException e) {
            return Optional.empty();
        }
    }

    /**
     * The server's flags for the simulated engine, with the model's config when the command line names one, else when
     * the study's {@code @ServerOptions(simulatedModelConfig)} does (from the run's working directory), the draft
     * acceptance the command line gives ({@code --sim-acceptance-rate}), and what the engine would read from its
     * environment ({@link SimParams#flagsFromEnvironment}).
     */
    private static List<String> simulatedArgs(ServerConfig server, EngineParams engines) {
        List<String> args = new ArrayList<>(server.args());
        args.addAll(SimParams.flagsFromEnvironment(KindStarts.simDialect(server.kind()), server.setup().env()));
        if (engines.simulatedModelConfig() != null) {
            args.add(SimParams.SIM_MODEL_CONFIG + "=" + engines.simulatedModelConfig());
        } else if (!server.simulatedModelConfig().isEmpty()) {
            args.add(SimParams.SIM_MODEL_CONFIG + "=" + Path.of(server.simulatedModelConfig()).toAbsolutePath());
        }
        if (!engines.simulatedAcceptance().isEmpty()) {
            args.add(SimParams.SIM_ACCEPTANCE_RATE + "=" + engines.simulatedAcceptance().stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(",")));
        }
        return args;
    }

    private static SimParams params(ServerConfig server, EngineParams engines)
            throws EngineStartException {
        try {
            return SimParams.fromFlags(KindStarts.simDialect(server.kind()), server.model(), simulatedArgs(server, engines),
                    GpuProfile.named(engines.simulatedGpu()));
        } catch (IllegalArgumentException e) {
            // "the simulated engine cannot start" for itself, "simulated vllm cannot stand in" for an engine it plays
            throw new EngineStartException((server.kind() == EngineKinds.SIM ? "the simulated engine cannot start: "
                    : "simulated " + server.kind().name() + " cannot stand in: ") + e.getMessage(), e);
        }
    }

    /** {@code 2026-11-30T03:21:04.123Z INFO message}: one line per record, as engine logs read. */
    private static final class OneLineFormatter extends Formatter {
        @Override
        public String format(LogRecord record) {
            StringBuilder line = new StringBuilder().append(record.getInstant()).append(' ').append(record.getLevel())
                    .append(' ').append(formatMessage(record)).append(System.lineSeparator());
            if (record.getThrown() != null) {
                java.io.StringWriter trace = new java.io.StringWriter();
                record.getThrown().printStackTrace(new java.io.PrintWriter(trace));
                line.append(trace);
            }
            return line.toString();
        }
    }
}
