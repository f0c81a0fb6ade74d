package io.servebench.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * One selector thread: it finishes connections, reads their responses, writes what a sender could not
 * write at once, and checks timeouts. Other threads hand it work with {@link #execute}.
 */
final class IoLoop {

    /** How often connect and idle timeouts are checked. */
    static final long TICK_MS = 20;
    /**
     * Above this many socket reads per second the loop stops sleeping in the selector between reads and
     * polls it every {@link #POLL_INTERVAL_NS} instead. A read that wakes a sleeping thread costs both this
     * thread and the writer (on loopback, the server) several microseconds more than one found by a poll
     * (measured with {@code loadcheck}, see docs/measurement-truth.md); a poll delays a read's stamp by at most the interval.
     */
    static final long POLL_ABOVE_READS_PER_S = 10_000;
    /** The polling interval, which bounds how late a read is stamped while polling. */
    static final long POLL_INTERVAL_NS = 100_000;
    /** One read's buffer: large enough for many events of a busy stream, and for any TLS record. */
    static final int READ_BUFFER_BYTES = 64 * 1024;

    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    private final List<Connection> connections = new ArrayList<>();
    private volatile boolean stopping;
    private long nextTickNs;
    private long readsThisTick;
    private volatile boolean polling;

    IoLoop(String name) {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for the HTTP client", e);
        }
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    Selector selector() {
        return selector;
    }

    /** The buffer every read of this loop goes into; valid until the next read. */
    ByteBuffer buffer() {
        return readBuffer;
    }

    /** Runs {@code task} on this loop's thread, soon. */
    void execute(Runnable task) {
        tasks.add(task);
        if (polling) {
            LockSupport.unpark(thread);
        } else {
            selector.wakeup();
        }
    }

    /** A connection read its socket once. */
    void countRead() {
        readsThisTick++;
    }

    /** This loop's thread's CPU time so far; read it before {@link #shutdown}. */
    CpuTime cpu() {
        return CpuTime.of(thread);
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Called on the loop's thread by a connection that registered with it. */
    void added(Connection c) {
        connections.add(c);
    }

    /** Called on the loop's thread by a connection that closed. */
    void removed(Connection c) {
        connections.remove(c);
    }

    /** Stops the loop: connections still open are closed and their exchanges fail as cancelled. */
    void shutdown() {
        stopping = true;
        selector.wakeup();
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
    }

    private void run() {
        nextTickNs = System.nanoTime() + TICK_MS * 1_000_000;
        try {
            long lastPollNs = System.nanoTime();
            while (!stopping) {
                if (polling) {
                    long sleep = POLL_INTERVAL_NS - (System.nanoTime() - lastPollNs);
                    if (sleep > 0) {
                        LockSupport.parkNanos(sleep);
                    }
                    lastPollNs = System.nanoTime();
                    selector.selectNow(this::ready);
                } else {
                    selector.select(this::ready, TICK_MS);
                }
                runTasks();
                long now = System.nanoTime();
                if (now - nextTickNs >= 0) {
                    long tickNs = now - nextTickNs + TICK_MS * 1_000_000;
                    polling = readsThisTick * 1_000_000_000L >= POLL_ABOVE_READS_PER_S * tickNs;
                    readsThisTick = 0;
                    nextTickNs = now + TICK_MS * 1_000_000;
                    // backwards: a connection that times out removes itself, behind the index
                    for (int i = connections.size() - 1; i >= 0; i--) {
                        connections.get(i).tick(now);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the HTTP client's selector failed", e);
        } finally {
            runTasks();
            for (Connection c : connections.toArray(Connection[]::new)) {
                c.close(HttpFailure.CANCELLED, "the client was closed while the request was in flight");
            }
            try {
                selector.close();
            } catch (IOException e) {
                // the loop is gone either way
            }
        }
    }

    private void ready(SelectionKey key) {
        Connection c = (Connection) key.attachment();
        if (!key.isValid()) {
            return;
        }
        c.ready(key.readyOps());
    }

    private void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            task.run();
        }
    }
}
