package io.servebench.engine;

import io.servebench.engine.sim.SimSettings;
import io.servebench.engine.sim.SimTokenizer;
import io.servebench.engine.sim.SimulatedEngine;
import io.servebench.runner.plan.ServerConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        SimulatedEngine engine;
        try {
            engine = SimulatedEngine.start(settings, 0, seed);
        } catch (IOException e) {
            throw new EngineStartException("simulated " + server.engine() + " could not open its port: " + e.getMessage(), e);
        }
        try {
            Files.writeString(log, "simulated engine, " + server.engine() + " dialect: " + server.label() + System.lineSeparator()
                    + "listening on " + engine.endpoint().baseUri() + System.lineSeparator()
                    + (settings.ignoredFlags().isEmpty() ? "" : "flags without effect in the simulation: "
                    + String.join(" ", settings.ignoredFlags()) + System.lineSeparator()));
        } catch (IOException e) {
            engine.close();
            throw new EngineStartException("cannot write the engine log " + log + ": " + e.getMessage(), e);
        }
        return new RunningEngine() {
            @Override
            public Endpoint endpoint() {
                return engine.endpoint();
            }

            @Override
            public void close() {
                engine.close();
            }
        };
    }

    /** The token counter of datasets: the simulated engine's, until a real tokenizer is configured. */
    public static ToIntFunction<String> tokenCounter() {
        return new SimTokenizer()::count;
    }
}
