package io.servebench.execution;

import io.servebench.load.Interruption;
import sun.misc.Signal;

import java.io.PrintWriter;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Ctrl-C ({@code SIGINT}) and {@code SIGTERM} (a plain {@code kill}, SLURM's {@code scancel} and time limit, a container
 * stopped) as a run's {@link Interruption} instead of the JVM's immediate exit: the first stops the load in flight,
 * keeps what was measured and lets the run write its reports and exit with the signal's code (128 + its number, as a
 * shell reports a process the signal ended); a second exits at once, the engines stopped and the reports written by the
 * shutdown hooks from what was measured so far. Only a program's entry point installs this, never a library call.
 */
public final class Signals {

    /** The exit code of a run interrupted by Ctrl-C, and of one stopped by a caller's own reason. */
    public static final int SIGINT_EXIT = 130;

    /** The signals handled, with the exit code each gives: 128 + the signal's number. */
    private static final Map<String, Integer> HANDLED = Map.of("INT", SIGINT_EXIT, "TERM", 143);

    private Signals() {
    }

    /** Handlers installed by {@link #stopOn}; closing them puts the JVM's own back. */
    public interface Handlers extends AutoCloseable {
        /** No handler installed: nothing to put back. */
        Handlers NONE = () -> { };

        @Override
        void close();
    }

    /** Turns {@code SIGINT} and {@code SIGTERM} into {@code interruption}, saying so on {@code out}. */
    public static Handlers stopOn(Interruption interruption, PrintWriter out) {
        return stopOn(interruption::interrupt, out);
    }

    /**
     * Turns {@code SIGINT} and {@code SIGTERM} into a call of {@code stop} with the signal's name ({@code SIGINT}), saying
     * so on {@code out}; a second signal exits at once.
     */
    public static Handlers stopOn(Consumer<String> stop, PrintWriter out) {
        AtomicBoolean stopping = new AtomicBoolean();
        Map<Signal, sun.misc.SignalHandler> before = new java.util.HashMap<>();
        HANDLED.forEach((name, code) -> {
            Signal signal = new Signal(name);
            try {
                before.put(signal, Signal.handle(signal, s -> handle("SIG" + s.getName(), code, stopping, stop, out)));
            } catch (IllegalArgumentException taken) {
                // the JVM keeps this signal for itself (-Xrs): it ends the run as it always does, the reports written by
                // the shutdown hook
            }
        });
        return () -> before.forEach(Signal::handle);
    }

    /** The first signal asks the run to stop; a second exits at once with the signal's code. */
    private static void handle(String cause, int code, AtomicBoolean stopping, Consumer<String> stop, PrintWriter out) {
        if (!stopping.compareAndSet(false, true)) {
            out.printf("%n%s again: stopping at once (engines stopped, reports written from what was measured)%n", cause);
            out.flush();
            System.exit(code);
        }
        out.printf("%n%s: stopping; the load in flight is cut short, and what was measured is kept and reported"
                + " (%s again stops at once)%n", cause, "SIGINT".equals(cause) ? "Ctrl-C" : cause);
        out.flush();
        stop.accept(cause);
    }

    /** The exit code of a run stopped by {@code cause} ({@code SIGINT}: 130, {@code SIGTERM}: 143); empty for another cause. */
    public static OptionalInt exitCode(String cause) {
        if (cause.startsWith("SIG")) {
            Integer code = HANDLED.get(cause.substring(3));
            if (code != null) {
                return OptionalInt.of(code);
            }
        }
        return OptionalInt.empty();
    }
}
