package io.servebench.wire.nio;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * One selector thread of ServeBench's own NIO transports, the load client's and the truth server's: each turn it
 * asks its {@link Owner} for the work due and how long it may wait, waits for I/O that long, hands every ready key to
 * its attachment (a {@link Ready}), then runs the tasks other threads handed it with {@link #execute}.
 *
 * <p>Waiting: without polling, in the selector, for the owner's wait ({@code select}'s timeout is in whole
 * milliseconds, so a wait under one is a non-blocking select and a park for the rest). With polling on
 * ({@link #pollEvery}), the thread parks between non-blocking selects instead: a read that wakes a thread sleeping in
 * the selector costs it and the writer several microseconds more than one a poll finds (docs/measurement-truth.md),
 * and a poll delays a read by at most the interval.
 */
public final class SelectorLoop {

    /** A selection key's attachment: told on the loop's thread when its channel is ready. */
    public interface Ready {
        /** The channel is ready for {@code readyOps}; a failure of one channel is its own to handle. */
        void ready(int readyOps);
    }

    /** What the loop works for: its timed work between waits, and what is left when it ends. */
    public interface Owner {
        /**
         * Does the work due at {@code nowNs} and returns how long the loop may wait for I/O before the next, ns
         * ({@link Long#MAX_VALUE}: nothing is due until I/O or a task comes). Runs on the loop's thread.
         */
        long due(long nowNs);

        /**
         * Closes what the owner still holds as the loop ends, on its thread; {@code failure} is why the loop ended,
         * {@code null} when it was stopped.
         */
        void closing(Throwable failure);
    }

    private static final long MILLISECOND_NS = 1_000_000;

    private final Selector selector;
    private final Thread thread;
    private final Owner owner;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;
    private volatile long pollIntervalNs;
    private volatile Throwable failure;
    private long lastPollNs;

    /** A loop named {@code name} for {@code owner}, not yet started. */
    public SelectorLoop(String name, Owner owner) throws IOException {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.selector = Selector.open();
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** The selector channels register with, {@link Ready} attached. */
    public Selector selector() {
        return selector;
    }

    /** The loop's thread, for its CPU time. */
    public Thread thread() {
        return thread;
    }

    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Whether the loop still runs: once stopped, a task that would register a channel closes it instead. */
    public boolean running() {
        return running;
    }

    /** Runs {@code task} on the loop's thread, after the current wait. */
    public void execute(Runnable task) {
        tasks.add(task);
        if (pollIntervalNs > 0) {
            LockSupport.unpark(thread);
        } else {
            selector.wakeup();
        }
    }

    /** Polls every {@code intervalNs} instead of sleeping in the selector; 0 to sleep in it again. */
    public void pollEvery(long intervalNs) {
        pollIntervalNs = intervalNs;
    }

    /**
     * Stops the loop and waits for it to end; its owner has closed what it held. Returns why the loop had failed,
     * {@code null} if it had not.
     */
    public Throwable stop() {
        running = false;
        selector.wakeup();
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return failure;
    }

    private void run() {
        lastPollNs = System.nanoTime();
        try {
            while (running) {
                waitForIo(owner.due(System.nanoTime()));
                runTasks();
            }
        } catch (IOException | RuntimeException | Error e) {
            // kept for stop() and the owner: a dead loop would otherwise leave every peer waiting silently
            failure = e;
        } finally {
            runTasks();
            owner.closing(failure);
            try {
                selector.close();
            } catch (IOException e) {
                // the loop is gone either way
            }
        }
    }

    /** Waits for I/O at most {@code waitNs} ({@link Long#MAX_VALUE}: until some comes) and hands out what is ready. */
    private void waitForIo(long waitNs) throws IOException {
        long interval = pollIntervalNs;
        if (interval > 0) {
            long sleep = Math.min(waitNs, interval - (System.nanoTime() - lastPollNs));
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
            lastPollNs = System.nanoTime();
            selector.selectNow(this::dispatch);
        } else if (waitNs == Long.MAX_VALUE) {
            selector.select(this::dispatch);
        } else if (waitNs <= 0) {
            selector.selectNow(this::dispatch);
        } else if (waitNs >= MILLISECOND_NS) {
            // select's timeout is in whole milliseconds: round down and let the next turn wait the rest
            selector.select(this::dispatch, waitNs / MILLISECOND_NS);
        } else if (selector.selectNow(this::dispatch) == 0) {
            LockSupport.parkNanos(waitNs);
        }
    }

    private void dispatch(SelectionKey key) {
        if (key.isValid() && key.attachment() instanceof Ready ready) {
            ready.ready(key.readyOps());
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            task.run();
        }
    }
}
