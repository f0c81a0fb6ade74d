package io.servebench.results;

/** What served a run's trials: the engines its studies declare, or the simulated engine in one of its three modes. */
public enum EngineMode {
    /** The engines the studies declare (which may be the simulated engine's own kind, {@code sim}). */
    DECLARED,
    /** The simulated engine in real time, in the harness's JVM, over loopback sockets ({@code --simulate}). */
    SIMULATED,
    /** The simulated engine in real time, as a process of its own started like a real engine ({@code --simulate=process}). */
    SIMULATED_PROCESS,
    /** The simulated engine's model run as a discrete-event simulation: no sockets, every time virtual ({@code --simulate=virtual}). */
    VIRTUAL;

    /** Whether the simulated engine stood in for the declared ones. */
    public boolean simulated() {
        return this != DECLARED;
    }
}
