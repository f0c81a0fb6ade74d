package io.servebench.engine;

import io.servebench.engine.sim.SimSettings;
import io.servebench.engine.sim.SimTokenizer;
import io.servebench.engine.sim.SimulatedEngine;
import io.servebench.runner.plan.ServerConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.function.ToIntFunction;

/** Starts the engine a server configuration names. */
public final class Engines {

    /** Engine kinds ServeBench can start itself on this version, without {@code --simulate}. */
    public static final List<String> STARTABLE = List.of("sim");

    private Engines() {
    }

    /**
     * Starts the engine for {@code server}, writing its log to {@code log}.
     *
     * @param simulate run the simulated engine whatever kind the configuration names; it reads the
     *                 flags in that kind's dialect
     */
    public static RunningEngine start(ServerConfig server, boolean simulate, Path log, long seed) throws EngineStartException {
        if (!simulate && !STARTABLE.contains(server.engine())) {
            throw new EngineStartException("engine " + server.engine() + " cannot be started by this ServeBench version;"
                    + " run with --simulate to use the simulated engine");
        }
        SimSettings settings;
        try {
            settings = SimSettings.fromFlags(server.engine(), server.model(), server.args());
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
        return new RunningEngine() {
            @Override
            public Endpoint endpoint() {
                return engine.endpoint();
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

    /** The token counter of datasets: the simulated engine's, until a real tokenizer is configured. */
    public static ToIntFunction<String> tokenCounter() {
        return new SimTokenizer()::count;
    }
}
