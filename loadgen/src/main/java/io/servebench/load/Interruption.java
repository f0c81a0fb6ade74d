package io.servebench.load;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A run's request to stop now, with what asked (Ctrl-C's {@code SIGINT}, {@code SIGTERM}, a program's own reason):
 * set once, from any thread, and seen by every part that waits or sends. A load in flight stops sending and calls off
 * its requests in flight, an engine still starting is given up, and no further load starts, so that what was measured
 * is kept and written and the run ends in seconds, not at the end of its plan.
 */
public final class Interruption {

    private volatile String cause;
    private final List<Runnable> wakeUps = new CopyOnWriteArrayList<>();

    /**
     * Asks the run to stop: the first cause is kept, later ones change nothing. Each registered wake-up runs on the
     * calling thread, so they must be quick.
     */
    public void interrupt(String why) {
        synchronized (this) {
            if (cause != null) {
                return;
            }
            cause = why;
        }
        wakeUps.forEach(Runnable::run);
    }

    /** Whether the run was asked to stop. */
    public boolean interrupted() {
        return cause != null;
    }

    /** What asked the run to stop ({@code SIGINT}); empty while nothing has. */
    public Optional<String> cause() {
        return Optional.ofNullable(cause);
    }

    /**
     * Runs {@code wakeUp} when the run is asked to stop, at once when it already was, until the returned registration
     * is closed: what sleeps or blocks registers the call that wakes it.
     */
    public Registration onInterrupt(Runnable wakeUp) {
        wakeUps.add(wakeUp);
        if (interrupted()) {
            wakeUp.run();
        }
        return () -> wakeUps.remove(wakeUp);
    }

    /** A registered wake-up, removed on close. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
