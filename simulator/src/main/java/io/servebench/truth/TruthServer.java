package io.servebench.truth;


import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A ground-truth OpenAI-compatible streaming server: it answers every completion request by following a
 * {@link Script} and records when each token event's write returned, so that a client's measurements can
 * be checked against what really happened ({@link #truth(String)}).
 *
 * <p>Built for scale on few cores: one thread runs a {@link Selector} over non-blocking sockets
 * (HTTP/1.1 keep-alive, chunked SSE) and a priority queue of due writes, so thousands of open streams
 * cost no thread each. Serves {@code GET /health}, {@code GET /v1/models}, {@code POST /v1/chat/completions}
 * and {@code POST /v1/completions} (always streamed) on 127.0.0.1.
 */
public final class TruthServer implements AutoCloseable {

    /** The model id it serves. */
    public static final String MODEL = "truth-model";

    private static final int BACKLOG = 4096;
    private static final long PARK_BELOW_NS = 1_000_000;
    /**
     * Writes due this soon are made at once, with the ones due now: waking up for each of tens of thousands
     * of writes a second would cost more CPU than the writes. The truth records when each write was made,
     * so this moves the script's timing a little, never the truth.
     */
    static final long WRITE_AHEAD_NS = 100_000;

    private final Script script;
    private final ServerSocketChannel serverChannel;
    private final Selector selector;
    private final URI baseUri;
    private final Thread loop;
    private final DueQueue due = new DueQueue();
    private final Map<String, RequestTruth> truths = new ConcurrentHashMap<>();
    private final AtomicLong arrivals = new AtomicLong();
    private final AtomicInteger openStreams = new AtomicInteger();
    private final AtomicInteger peakStreams = new AtomicInteger();
    private volatile boolean running = true;
    private volatile Throwable loopFailure;
    private final AsciiBytes writeBuffer = new AsciiBytes();
    private final AsciiBytes scratchBuffer = new AsciiBytes();

    private TruthServer(Script script, int port) throws IOException {
        this.script = Objects.requireNonNull(script, "script");
        this.selector = Selector.open();
        this.serverChannel = ServerSocketChannel.open();
        try {
            serverChannel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), BACKLOG);
            serverChannel.configureBlocking(false);
            serverChannel.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            serverChannel.close();
            selector.close();
            throw new IOException("cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
        int bound = ((InetSocketAddress) serverChannel.getLocalAddress()).getPort();
        this.baseUri = URI.create("http://127.0.0.1:" + bound);
        this.loop = new Thread(this::runLoop, "truth-server");
        loop.setDaemon(true);
    }

    /**
     * Starts a server following {@code script}.
     *
     * @param port the port on 127.0.0.1, 0 for a free one
     * @throws IOException when the port cannot be bound
     */
    public static TruthServer start(Script script, int port) throws IOException {
        TruthServer server = new TruthServer(script, port);
        server.loop.start();
        return server;
    }

    /** Where it serves the OpenAI-compatible API: {@code http://127.0.0.1:PORT}, without {@code /v1}; the model is {@link #MODEL}. */
    public URI baseUri() {
        return baseUri;
    }

    public Script script() {
        return script;
    }

    /** What the server did for the request with this {@code X-Request-Id}, once it has been received. */
    public Optional<TruthRecord> truth(String requestId) {
        RequestTruth t = truths.get(requestId);
        return t == null ? Optional.empty() : Optional.of(t.snapshot());
    }

    /**
     * What the server did for the request, waiting up to {@code timeout} for its response to end, so that a
     * client that has just read the last event compares against a record that holds that event's write.
     */
    public Optional<TruthRecord> awaitTruth(String requestId, java.time.Duration timeout) {
        RequestTruth t = truths.get(requestId);
        if (t == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(t.awaitFinished(timeout.toNanos()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of(t.snapshot());
        }
    }

    /** Completion requests received so far. */
    public long requestsReceived() {
        return arrivals.get();
    }

    /** The most streams that were open at once. */
    public int peakStreams() {
        return peakStreams.get();
    }

    /** The event loop's thread, e.g. to tell its CPU time apart from a client's. */
    public long threadId() {
        return loop.getId();
    }

    /** Stops the loop and closes every connection; streams in flight end abruptly. */
    @Override
    public void close() {
        running = false;
        selector.wakeup();
        boolean interrupted = false;
        while (loop.isAlive()) {
            try {
                loop.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (loopFailure != null) {
            throw new IllegalStateException("the truth server's event loop failed", loopFailure);
        }
    }

    // ---- called by Connection on the loop thread ----

    RequestTruth register(String requestId, long receivedNs) {
        RequestTruth t = new RequestTruth(requestId, receivedNs);
        truths.put(requestId, t);
        return t;
    }

    long nextArrival() {
        return arrivals.incrementAndGet();
    }

    void streamOpened() {
        peakStreams.accumulateAndGet(openStreams.incrementAndGet(), Math::max);
    }

    void streamClosed() {
        openStreams.decrementAndGet();
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

    // ---- the loop ----

    private void runLoop() {
        try {
            while (running) {
                long now = System.nanoTime();
                while (!due.isEmpty() && due.peekTime() - now <= WRITE_AHEAD_NS) {
                    due.poll().writeDue();
                }
                waitForIo(due.isEmpty() ? Long.MAX_VALUE : due.peekTime() - WRITE_AHEAD_NS - System.nanoTime());
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    handle(key);
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            // kept for close() to rethrow: a dead loop would otherwise leave every client waiting silently
            loopFailure = e;
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
                accept();
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

    private void accept() throws IOException {
        SocketChannel ch;
        while ((ch = serverChannel.accept()) != null) {
            ch.configureBlocking(false);
            ch.socket().setTcpNoDelay(true);
            SelectionKey key = ch.register(selector, SelectionKey.OP_READ);
            key.attach(new Connection(this, script, ch, key));
        }
    }

    private void closeAll() {
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Connection c) {
                c.close("server_closed: the truth server stopped");
            }
        }
        try {
            serverChannel.close();
            selector.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the truth server's sockets", e);
        }
    }
}
