package io.servebench.execution;

/** Shutdown hooks that report or clean up when Ctrl-C or SIGTERM stops a run, removed again once not needed. */
public final class ShutdownHooks {

    private ShutdownHooks() {
    }

    /** Removes a shutdown hook, unless it is already running (then there is nothing left to remove). */
    public static void remove(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing to remove
        }
    }
}
