package io.servebench.http;

import io.servebench.wire.nio.SelectorLoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;

/**
 * One selector thread of the client (a {@link SelectorLoop}): it finishes connections, reads their responses,
 * writes what a sender could not write at once, and checks timeouts. Other threads hand it work with
 * {@link #execute}.
 */
final class IoLoop {

    /** How often connect and idle timeouts are checked. */
    static final long TICK_MS = 20;
    private static final long TICK_NS = TICK_MS * 1_000_000;
    /**
     * Above this many socket reads per second a polling loop stops sleeping in the selector between reads and
     * polls it every {@link #POLL_INTERVAL_NS} instead: a read found by a poll is stamped sooner after its arrival than
     * one that has to wake a sleeping thread (with {@code loadcheck}, TTFT error P99 0.17 against 0.85 ms at
     * 100,000 events/s on 16 cores; event delay P50 0.17 against 0.30 ms at 10,000 events/s on 2 cores, where the
     * polls cost the client some 7 us more CPU per event: docs/measurement-truth.md). A poll delays a read's stamp by
     * at most the interval.
     */
    static final long POLL_ABOVE_READS_PER_S = 10_000;
    /** The polling interval, which bounds how late a read is stamped while polling. */
    static final long POLL_INTERVAL_NS = 100_000;
    /** One read's buffer: large enough for many events of a busy stream, and for any TLS record. */
    static final int READ_BUFFER_BYTES = 64 * 1024;

    private final SelectorLoop loop;
    private final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    private final List<Connection> connections = new ArrayList<>();
    private long nextTickNs = System.nanoTime() + TICK_NS;
    private long readsThisTick;

    private final boolean polling;

    /** A loop named {@code name}, which polls above {@link #POLL_ABOVE_READS_PER_S} when {@code polling}. */
    IoLoop(String name, boolean polling) {
        this.polling = polling;
        try {
            loop = new SelectorLoop(name, new Owner());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for the HTTP client", e);
        }
        loop.start();
    }

    Selector selector() {
        return loop.selector();
    }

    /** The buffer every read of this loop goes into; valid until the next read. */
    ByteBuffer buffer() {
        return readBuffer;
    }

    /** Runs {@code task} on this loop's thread, soon. */
    void execute(Runnable task) {
        loop.execute(task);
    }

    /** A connection read its socket once. */
    void countRead() {
        readsThisTick++;
    }

    /** This loop's thread's CPU time so far; read it before {@link #shutdown}. */
    CpuTime cpu() {
        return CpuTime.of(loop.thread());
    }

    boolean inLoop() {
        return loop.inLoop();
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
        loop.stop();
    }

    /** The client's timed work: every tick, whether to poll, and each connection's timeouts. */
    private final class Owner implements SelectorLoop.Owner {

        @Override
        public long due(long nowNs) {
            if (nowNs - nextTickNs >= 0) {
                long tickNs = nowNs - nextTickNs + TICK_NS;
                boolean poll = polling && readsThisTick * 1_000_000_000L >= POLL_ABOVE_READS_PER_S * tickNs;
                loop.pollEvery(poll ? POLL_INTERVAL_NS : 0);
                readsThisTick = 0;
                nextTickNs = nowNs + TICK_NS;
                // backwards: a connection that times out removes itself, behind the index
                for (int i = connections.size() - 1; i >= 0; i--) {
                    connections.get(i).tick(nowNs);
                }
            }
            return nextTickNs - nowNs;
        }

        @Override
        public void closing(Throwable failure) {
            String detail = failure == null ? "the client was closed while the request was in flight"
                    : "the HTTP client's selector failed: " + failure;
            for (Connection c : connections.toArray(Connection[]::new)) {
                c.close(HttpFailure.CANCELLED, detail);
            }
        }
    }
}
