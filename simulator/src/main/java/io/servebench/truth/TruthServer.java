package io.servebench.truth;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A ground-truth OpenAI-compatible streaming server: it answers every completion request by following a
 * {@link Script} and records when each token event's write returned, so that a client's measurements can
 * be checked against what really happened ({@link #truth(String)}).
 *
 * <p>Built for scale: each of a few event-loop threads runs a selector over its share of the
 * non-blocking sockets (HTTP/1.1 keep-alive, chunked SSE) and a priority queue of their due writes, so
 * thousands of open streams cost no thread each; on a large machine more loops carry more events per
 * second (a write costs the kernel 5 to 10 us, so one loop tops out near 100,000 events/s). Serves {@code GET /health}, {@code GET /v1/models}, {@code POST /v1/chat/completions}
 * and {@code POST /v1/completions} (always streamed) on 127.0.0.1.
 */
public final class TruthServer implements AutoCloseable {

    /** The model id it serves. */
    public static final String MODEL = "truth-model";

    private static final int BACKLOG = 4096;
    /**
     * Writes due this soon are made at once, with the ones due now: waking up for each of tens of thousands
     * of writes a second would cost more CPU than the writes. The truth records when each write was made,
     * so this moves the script's timing a little, never the truth.
     */
    static final long WRITE_AHEAD_NS = 100_000;
    /** Requests kept as received (headers and body): enough for a test, bounded for a long check. */
    public static final int RECORDED_REQUESTS = 100;

    private final Script script;
    private final ServerSocketChannel serverChannel;
    private final URI baseUri;
    private final ServerLoop[] loops;
    private final AtomicInteger nextLoop = new AtomicInteger();
    private final Map<String, RequestTruth> truths = new ConcurrentHashMap<>();
    private final AtomicLong arrivals = new AtomicLong();
    private final AtomicInteger openStreams = new AtomicInteger();
    private final AtomicInteger peakStreams = new AtomicInteger();
    private final AtomicLong acceptFailures = new AtomicLong();
    private final List<ReceivedRequest> received = new CopyOnWriteArrayList<>();
    private volatile String firstAcceptFailure;

    private TruthServer(Script script, int port, int loopCount) throws IOException {
        this.script = Objects.requireNonNull(script, "script");
        if (loopCount < 1) {
            throw new IllegalArgumentException("a truth server needs at least one event loop, got " + loopCount);
        }
        this.serverChannel = ServerSocketChannel.open();
        this.loops = new ServerLoop[loopCount];
        try {
            serverChannel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), BACKLOG);
            serverChannel.configureBlocking(false);
            for (int i = 0; i < loopCount; i++) {
                loops[i] = new ServerLoop(this, script, loopCount == 1 ? "truth-server" : "truth-server-" + i);
            }
            loops[0].accepting(serverChannel);
        } catch (IOException e) {
            serverChannel.close();
            throw new IOException("cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
        int bound = ((InetSocketAddress) serverChannel.getLocalAddress()).getPort();
        this.baseUri = URI.create("http://127.0.0.1:" + bound);
    }

    /**
     * Starts a server following {@code script} on one event loop.
     *
     * @param port the port on 127.0.0.1, 0 for a free one
     * @throws IOException when the port cannot be bound
     */
    public static TruthServer start(Script script, int port) throws IOException {
        return start(script, port, 1);
    }

    /**
     * Starts a server following {@code script} on {@code loops} event-loop threads.
     *
     * @param port the port on 127.0.0.1, 0 for a free one
     * @throws IOException when the port cannot be bound
     */
    public static TruthServer start(Script script, int port, int loops) throws IOException {
        TruthServer server = new TruthServer(script, port, loops);
        for (ServerLoop loop : server.loops) {
            loop.start();
        }
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

    /**
     * As {@link #awaitTruth}, and lets go of it: a long check keeps only the truths of requests in flight.
     */
    public Optional<TruthRecord> takeTruth(String requestId, java.time.Duration timeout) {
        Optional<TruthRecord> truth = awaitTruth(requestId, timeout);
        truths.remove(requestId);
        return truth;
    }

    /** The first {@value #RECORDED_REQUESTS} requests as received, in order: what the client sent, for tests. */
    public List<ReceivedRequest> requests() {
        return List.copyOf(received);
    }

    boolean recordsRequests() {
        return received.size() < RECORDED_REQUESTS;
    }

    void record(ReceivedRequest request) {
        if (recordsRequests()) {
            received.add(request);
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

    /** Connections it could not accept (out of file descriptors, say); they waited in the backlog. */
    public long acceptFailures() {
        return acceptFailures.get();
    }

    /** The first accept failure's message, empty when there was none. */
    public Optional<String> firstAcceptFailure() {
        return Optional.ofNullable(firstAcceptFailure);
    }

    /** The CPU time of the server's event-loop threads so far, nanoseconds, e.g. to tell it apart from a client's. */
    public long cpuNs() {
        long sum = 0;
        for (ServerLoop loop : loops) {
            sum += loop.cpuNs();
        }
        return sum;
    }

    /** Stops the loops and closes every connection; streams in flight end abruptly. */
    @Override
    public void close() {
        Throwable failure = null;
        for (ServerLoop loop : loops) {
            Throwable f = loop.stop();
            failure = failure == null ? f : failure;
        }
        try {
            serverChannel.close();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        if (failure != null) {
            throw new IllegalStateException("the truth server's event loop failed", failure);
        }
    }

    // ---- called by Connection on a loop thread ----

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

    void acceptFailed(IOException e) {
        if (acceptFailures.incrementAndGet() == 1) {
            firstAcceptFailure = e.getMessage();
        }
    }

    /** The loop that takes the next accepted connection. */
    ServerLoop nextLoop() {
        return loops[Math.floorMod(nextLoop.getAndIncrement(), loops.length)];
    }
}
