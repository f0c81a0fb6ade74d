package io.servebench.engine;

import io.servebench.sim.SimDialect;
import io.servebench.sim.SimServer;
import io.servebench.sim.SimSettings;
import io.servebench.sim.SimulatedEngine;
import io.servebench.engine.ServerConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Starts the engine a server configuration names, or the simulated engine in its place. */
public final class Engines {

    private Engines() {
    }

    /**
     * Starts the engine for {@code server}, writing its log to {@code log}, and returns when it is ready.
     *
     * @throws EngineStartException when it cannot start or does not become ready; the message names the log
     */
    public static RunningEngine start(ServerConfig server, EngineOptions options, Path log) throws EngineStartException {
        return switch (options.simulate()) {
            case IN_PROCESS -> inProcess(server, options.seed(), log);
            case PROCESS -> simProcess(server, options, log);
            case OFF -> switch (server.engine()) {
                case "sim" -> inProcess(server, options.seed(), log);
                case "endpoint" -> endpoint(server, options, log);
                default -> ProcessEngine.start(EngineCommands.of(server, ProcessEngine.freePort(), options.containerRuntime(),
                        options.hfCache()), server.model(), log, options.readyTimeout(), options.grace(), options.apiKey());
            };
        };
    }

    /** The simulated engine as a child process ({@code sim serve}), started and stopped like a real engine. */
    private static RunningEngine simProcess(ServerConfig server, EngineOptions options, Path log) throws EngineStartException {
        int port = ProcessEngine.freePort();
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> argv = new ArrayList<>(List.of(javaBin, "-cp", System.getProperty("java.class.path"),
                SimServer.class.getName(), server.model(), "--port", Integer.toString(port),
                "--dialect", dialect(server).toString(), "--seed", Long.toString(options.seed())));
        argv.addAll(server.args());
        return ProcessEngine.start(new LaunchCommand(argv, Map.of(), null, port), server.model(), log,
                options.readyTimeout(), options.grace(), null);
    }

    /** An already running server: checked for readiness, never started or stopped. */
    private static RunningEngine endpoint(ServerConfig server, EngineOptions options, Path log) throws EngineStartException {
        // The API paths are appended to the base, so a URL given with its /v1 (as OpenAI clients take it) is cut back.
        URI base = URI.create(server.setup().url().replaceAll("/+$", "").replaceAll("/v1$", "") + "/");
        try {
            Files.writeString(log, "endpoint " + base + " (not started or stopped by ServeBench)" + System.lineSeparator());
        } catch (IOException e) {
            throw new EngineStartException("cannot write the engine log " + log + ": " + e.getMessage(), e);
        }
        new Readiness(base, server.model(), options.apiKey()).await(options.readyTimeout(), () -> null);
        Endpoint endpoint = new Endpoint(base, server.model(), base.resolve("metrics"));
        return new RunningEngine() {
            @Override
            public Endpoint endpoint() {
                return endpoint;
            }

            @Override
            public String commandLine() {
                return "endpoint " + base + " (started elsewhere)";
            }

            @Override
            public void close() {
                // not ours to stop
            }
        };
    }

    /** The flag dialect the simulated engine reads: the declared engine's, or vLLM's for kinds without one. */
    private static SimDialect dialect(ServerConfig server) {
        return switch (server.engine()) {
            case "sglang" -> SimDialect.SGLANG;
            case "sim" -> SimDialect.SIM;
            default -> SimDialect.VLLM;
        };
    }

    private static RunningEngine inProcess(ServerConfig server, long seed, Path log) throws EngineStartException {
        SimSettings settings;
        try {
            settings = SimSettings.fromFlags(dialect(server), server.model(), server.args());
        } catch (IllegalArgumentException e) {
            throw new EngineStartException("simulated " + server.engine() + " rejects its flags: " + e.getMessage(), e);
        }
        // The in-process engine logs through java.util.logging: into this server's log, not onto the console.
        Logger simLog = Logger.getLogger(SimulatedEngine.class.getPackageName());
        FileHandler handler;
        try {
            Files.writeString(log, "simulated engine, " + server.engine() + " dialect: " + server.label() + System.lineSeparator());
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
            engine = SimulatedEngine.start(settings, 0, seed);
        } catch (IOException e) {
            detachLog.run();
            throw new EngineStartException("simulated " + server.engine() + " could not open its port: " + e.getMessage(), e);
        }
        Endpoint endpoint = new Endpoint(engine.baseUri(), engine.model(), engine.metricsUri());
        return new RunningEngine() {
            @Override
            public Endpoint endpoint() {
                return endpoint;
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
