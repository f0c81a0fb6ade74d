package io.servebench.truth;

import io.servebench.wire.nio.SelectorLoop;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * One event loop of the {@link TruthServer} (a {@link SelectorLoop}): its share of the connections and a queue of
 * their due writes, each written {@link TruthServer#WRITE_AHEAD_NS} at most before it is due. One loop also accepts
 * connections and deals them out.
 */
final class ServerLoop implements SelectorLoop.Owner {

    /**
     * After a failed accept (out of file descriptors, typically) the loop stops accepting this long: the
     * waiting connection would otherwise make every select return at once.
     */
    private static final long ACCEPT_PAUSE_NS = 10_000_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final TruthServer server;
    private final Script script;
    private final SelectorLoop loop;
    private final DueQueue due = new DueQueue();
    private final AsciiBytes writeBuffer = new AsciiBytes();
    private final AsciiBytes scratchBuffer = new AsciiBytes();
    private SelectionKey acceptKey;
    private long acceptPausedUntilNs;
    private boolean acceptPaused;

    ServerLoop(TruthServer server, Script script, String name) throws IOException {
        this.server = server;
        this.script = script;
        this.loop = new SelectorLoop(name, this);
    }

    /** Makes this loop the one that accepts {@code channel}'s connections. */
    void accepting(ServerSocketChannel channel) throws IOException {
        acceptKey = channel.register(loop.selector(), SelectionKey.OP_ACCEPT, (SelectorLoop.Ready) ops -> accept(channel));
    }

    void start() {
        loop.start();
    }

    /** Takes over a connection accepted by another loop. */
    void handOver(SocketChannel channel) {
        loop.execute(() -> register(channel));
    }

    /** Stops the loop and waits for it; its connections are closed. Returns how it failed, {@code null} if not. */
    Throwable stop() {
        return loop.stop();
    }

    /** The loop thread's CPU time so far, nanoseconds; 0 once it ended or where the JVM cannot tell. */
    long cpuNs() {
        return Math.max(0, THREADS.getThreadCpuTime(loop.thread().getId()));
    }

    /** The loop's buffer for laying out one write. */
    AsciiBytes writeBuffer() {
        return writeBuffer;
    }

    /** The loop's working space while laying out a write. */
    AsciiBytes scratchBuffer() {
        return scratchBuffer;
    }

    void schedule(long atNs, Connection connection) {
        due.add(atNs, connection);
    }

    /** Writes what is due, resumes accepting after a pause, and waits until the next write is due. */
    @Override
    public long due(long nowNs) {
        if (acceptPaused && nowNs - acceptPausedUntilNs >= 0) {
            acceptPaused = false;
            acceptKey.interestOps(SelectionKey.OP_ACCEPT);
        }
        while (!due.isEmpty() && due.peekTime() - nowNs <= TruthServer.WRITE_AHEAD_NS) {
            due.poll().writeDue();
        }
        long wait = due.isEmpty() ? Long.MAX_VALUE : due.peekTime() - TruthServer.WRITE_AHEAD_NS - System.nanoTime();
        return acceptPaused ? Math.min(wait, acceptPausedUntilNs - System.nanoTime()) : wait;
    }

    @Override
    public void closing(Throwable failure) {
        for (SelectionKey key : loop.selector().keys()) {
            if (key.attachment() instanceof Connection c) {
                c.close("server_closed: the truth server stopped");
            }
        }
    }

    private void accept(ServerSocketChannel serverChannel) {
        while (true) {
            SocketChannel ch;
            try {
                ch = serverChannel.accept();
            } catch (IOException e) {
                // the listening socket is fine: this one connection waits in the backlog until files free up
                server.acceptFailed(e);
                acceptKey.interestOps(0);
                acceptPaused = true;
                acceptPausedUntilNs = System.nanoTime() + ACCEPT_PAUSE_NS;
                return;
            }
            if (ch == null) {
                return;
            }
            try {
                ch.configureBlocking(false);
                ch.socket().setTcpNoDelay(true);
            } catch (IOException e) {
                close(ch);
                continue;
            }
            ServerLoop owner = server.nextLoop();
            if (owner == this) {
                register(ch);
            } else {
                owner.handOver(ch);
            }
        }
    }

    /** Serves {@code ch} from this loop; a channel that cannot be registered is closed, the loop goes on. */
    private void register(SocketChannel ch) {
        try {
            if (loop.running()) {
                SelectionKey key = ch.register(loop.selector(), SelectionKey.OP_READ);
                key.attach(new Connection(server, this, script, ch, key));
                return;
            }
        } catch (IOException e) {
            // the client sees the connection close, and its request fails as such
        }
        close(ch);
    }

    private static void close(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // closed either way
        }
    }
}
