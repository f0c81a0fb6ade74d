package io.servebench.execution;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A step the run waits on that is usually quick and now and then long (reading a large dataset): a line is printed
 * only once it has taken {@code after}, and, when one was, another when it ends; a quick step prints nothing.
 */
final class SlowStep implements AutoCloseable {

    private final PrintWriter out;
    private final long startNs = System.nanoTime();
    private final ScheduledExecutorService timer;
    private volatile boolean noticed;

    private SlowStep(PrintWriter out, Duration after, String notice) {
        this.out = out;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "servebench-slow-step");
            t.setDaemon(true);
            return t;
        });
        timer.schedule(() -> {
            noticed = true;
            out.println(notice);
        }, after.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Prints {@code notice} if the step is still going after {@code after}. */
    static SlowStep after(Duration after, PrintWriter out, String notice) {
        return new SlowStep(out, after, notice);
    }

    /** Nanoseconds since the step began. */
    long elapsedNs() {
        return System.nanoTime() - startNs;
    }

    /** The step ended: {@code line} is printed when the notice was. */
    void ended(String line) {
        timer.shutdownNow();
        try {
            // a notice being printed as the step ends is let finish, so that its ending line follows it
            timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (noticed) {
            out.println(line);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
