package io.servebench.engine;

/** An engine started for a run; closing it stops it and frees what it held. */
public interface RunningEngine extends AutoCloseable {

    Endpoint endpoint();

    /**
     * Every address the engine serves at, {@link #endpoint()} first: more than one for an endpoint given as several URLs
     * (replicas of one engine), between which the load generator spreads its requests.
     */
    default java.util.List<Endpoint> endpoints() {
        return java.util.List.of(endpoint());
    }

    /**
     * Why the engine stopped serving while it should be running (it crashed: exit code and log tail),
     * empty while it is healthy. Checked after every trial: a trial during which the engine died failed.
     */
    default java.util.Optional<String> failure() {
        return java.util.Optional.empty();
    }

    /**
     * The simulated engine in virtual time, when this is one: it has no socket, and loads are run against it
     * by {@link io.servebench.load.VirtualLoad} instead of the load generator.
     */
    default java.util.Optional<io.servebench.sim.VirtualEngine> virtual() {
        return java.util.Optional.empty();
    }

    /**
     * The simulated engine's power model, when this is one (in virtual time or in this JVM): its GPU telemetry, on the
     * same clock as its requests' records.
     */
    default java.util.Optional<io.servebench.sim.PowerMeter> power() {
        return virtual().map(io.servebench.sim.VirtualEngine::power);
    }

    /** How the engine was started, for the environment record: its command line with secrets masked. */
    default String commandLine() {
        return "";
    }

    /** Stops the engine; idempotent, never throws. */
    @Override
    void close();

    /**
     * An engine that is not a child process of ours (in this JVM, or started elsewhere): it never crashes apart from
     * the harness.
     *
     * @param commandLine how it was started, for the environment record
     * @param stop        what closing it does
     */
    static RunningEngine of(Endpoint endpoint, String commandLine, Runnable stop) {
        return of(java.util.List.of(endpoint), commandLine, stop);
    }

    /** As {@link #of(Endpoint, String, Runnable)}, serving at every one of {@code endpoints}. */
    static RunningEngine of(java.util.List<Endpoint> endpoints, String commandLine, Runnable stop) {
        java.util.List<Endpoint> all = java.util.List.copyOf(endpoints);
        return new RunningEngine() {
            @Override
            public Endpoint endpoint() {
                return all.get(0);
            }

            @Override
            public java.util.List<Endpoint> endpoints() {
                return all;
            }

            @Override
            public String commandLine() {
                return commandLine;
            }

            @Override
            public void close() {
                stop.run();
            }
        };
    }
}
