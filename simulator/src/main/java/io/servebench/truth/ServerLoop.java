package io.servebench.truth;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * One event loop of the {@link TruthServer}: a thread running a {@link Selector} over its share of the
 * connections and a queue of their due writes. One loop also accepts connections and deals them out.
 */
final class ServerLoop {

    private static final long PARK_BELOW_NS = 1_000_000;
    /**
     * After a failed accept (out of file descriptors, typically) the loop stops accepting this long: the
     * waiting connection would otherwise make every select return at once.
     */
    private static final long ACCEPT_PAUSE_NS = 10_000_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final TruthServer server;
    private final Script script;
    private final Selector selector;
    private final Thread thread;
    private final DueQueue due = new DueQueue();
    private final AsciiBytes writeBuffer = new AsciiBytes();
    private final AsciiBytes scratchBuffer = new AsciiBytes();
    private final ConcurrentLinkedQueue<SocketChannel> handedOver = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;
    private volatile Throwable failure;
    private SelectionKey acceptKey;
    private long acceptPausedUntilNs;
    private boolean acceptPaused;

    ServerLoop(TruthServer server, Script script, String name) throws IOException {
        this.server = server;
        this.script = script;
        this.selector = Selector.open();
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    /** Makes this loop the one that accepts {@code channel}'s connections. */
    void accepting(ServerSocketChannel channel) throws IOException {
        acceptKey = channel.register(selector, SelectionKey.OP_ACCEPT);
    }

    void start() {
        thread.start();
    }

    /** Takes over a connection accepted by another loop. */
    void handOver(SocketChannel channel) {
        handedOver.add(channel);
        selector.wakeup();
    }

    /** Stops the loop and waits for it; its connections are closed. Returns how it failed, {@code null} if not. */
    Throwable stop() {
        running = false;
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
        return failure;
    }

    /** The loop thread's CPU time so far, nanoseconds; 0 once it ended or where the JVM cannot tell. */
    long cpuNs() {
        return Math.max(0, THREADS.getThreadCpuTime(thread.getId()));
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

    private void run() {
        try {
            while (running) {
                long now = System.nanoTime();
                if (acceptPaused && now - acceptPausedUntilNs >= 0) {
                    acceptPaused = false;
                    acceptKey.interestOps(SelectionKey.OP_ACCEPT);
                }
                while (!due.isEmpty() && due.peekTime() - now <= TruthServer.WRITE_AHEAD_NS) {
                    due.poll().writeDue();
                }
                long wait = due.isEmpty() ? Long.MAX_VALUE : due.peekTime() - TruthServer.WRITE_AHEAD_NS - System.nanoTime();
                if (acceptPaused) {
                    wait = Math.min(wait, acceptPausedUntilNs - System.nanoTime());
                }
                waitForIo(wait);
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    handle(key);
                }
                SocketChannel ch;
                while ((ch = handedOver.poll()) != null) {
                    register(ch);
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            // kept for stop() to report: a dead loop would otherwise leave every client waiting silently
            failure = e;
        } finally {
            closeAll();
        }
    }

    /** Waits for I/O or until the next write is due, {@code waitNs == Long.MAX_VALUE} meaning no write is pending. */
    private void waitForIo(long waitNs) throws IOException {
        if (waitNs == Long.MAX_VALUE) {
            selector.select();
        } else if (waitNs <= 0) {
            selector.selectNow();
        } else if (waitNs >= PARK_BELOW_NS) {
            // select's timeout is in whole milliseconds: round down and let the next turn park the rest
            selector.select(waitNs / 1_000_000);
        } else if (selector.selectNow() == 0) {
            LockSupport.parkNanos(waitNs);
        }
    }

    private void handle(SelectionKey key) {
        try {
            if (!key.isValid()) {
                return;
            }
            if (key.isAcceptable()) {
                accept((ServerSocketChannel) key.channel());
                return;
            }
            Connection c = (Connection) key.attachment();
            if (key.isReadable()) {
                c.onReadable();
            }
            if (key.isValid() && key.isWritable()) {
                c.onWritable();
            }
        } catch (IOException e) {
            // one client's broken connection must not stop the others
            if (key.attachment() instanceof Connection c) {
                c.close("client_io: " + e.getMessage());
            }
        }
    }

    private void accept(ServerSocketChannel serverChannel) throws IOException {
        SocketChannel ch;
        while (true) {
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
            ch.configureBlocking(false);
            ch.socket().setTcpNoDelay(true);
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
            if (running) {
                SelectionKey key = ch.register(selector, SelectionKey.OP_READ);
                key.attach(new Connection(server, this, script, ch, key));
                return;
            }
        } catch (IOException e) {
            // the client sees the connection close, and its request fails as such
        }
        try {
            ch.close();
        } catch (IOException e) {
            // closed either way
        }
    }

    private void closeAll() {
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Connection c) {
                c.close("server_closed: the truth server stopped");
            }
        }
        SocketChannel ch;
        while ((ch = handedOver.poll()) != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        try {
            selector.close();
        } catch (IOException e) {
            // the loop is gone either way
        }
    }
}
