package io.servebench.http;

import io.servebench.wire.http.Origin;

import javax.net.ssl.SSLContext;
import java.net.InetSocketAddress;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 client for one origin, built to time streamed responses.
 *
 * <p>A request is sent by the thread that calls {@link #send}: it takes an idle keep-alive connection
 * from the pool and writes the prepared bytes to the socket itself, stamping the send just before the
 * write, so no hand-off to another thread sits between the decision to send and the bytes leaving.
 * Connections are opened ahead ({@link #warm}); a send that finds none idle opens one (or, at the limit,
 * waits for one to free up) and is written by the I/O thread when it can, which shows as schedule lag
 * and is counted in {@link #stats}. Responses are read by {@code ioThreads} selector threads. Every
 * request is sent once: there are no retries, except that a write refused before any byte left (a
 * connection the server had just closed) goes out on another connection.
 */
public final class Http1Client implements AutoCloseable {

    /** Tried connections for one send before its write failure stands. */
    private static final int MAX_WRITE_ATTEMPTS = 4;

    private final Origin origin;
    private final ClientParams params;
    private final InetSocketAddress address;
    private final SSLContext sslContext;
    private final IoLoop[] loops;
    private final AtomicInteger nextLoop = new AtomicInteger();
    private final Pool pool;

    /**
     * Starts the I/O threads; connects nothing yet.
     *
     * @throws IllegalStateException when {@code https} is asked for and the JVM has no default TLS context
     */
    public Http1Client(Origin origin, ClientParams params) {
        this.origin = Objects.requireNonNull(origin, "origin");
        this.params = Objects.requireNonNull(params, "params");
        // resolved once, here, so that no send waits for a name lookup
        this.address = new InetSocketAddress(origin.host(), origin.port());
        this.sslContext = origin.tls() ? context(params) : null;
        this.pool = new Pool(params.maxConnections(), this::newConnection);
        this.loops = new IoLoop[params.ioThreads()];
        for (int i = 0; i < loops.length; i++) {
            loops[i] = new IoLoop("servebench-http-" + i, params.polling());
        }
    }

    public Origin origin() {
        return origin;
    }

    /**
     * Opens connections until {@code connections} are open (at most the pool's limit) and waits until each
     * is established or has failed, at most {@code timeout}; the pool then keeps that many open, replacing
     * those the server closes, and keeps {@code spare} idle connections on hand as sends take them.
     *
     * @return how many of the connections opened now were established
     */
    public int warm(int connections, int spare, Duration timeout) {
        long before = pool.stats().opened();
        CountDownLatch latch = pool.warm(connections, spare);
        try {
            latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return (int) (pool.stats().opened() - before);
    }

    /**
     * Sends {@code request} now and tells {@code handler} about its response. Never throws for I/O
     * problems: they reach the handler as a failure.
     *
     * @return the request in flight, to call off before its response ends
     */
    public Call send(PreparedRequest request, ResponseHandler handler) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        Call call = new Call(pool);
        for (int attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
            Exchange x = new Exchange(request, handler);
            call.current = x;
            Connection c = pool.acquire(x);
            if (c == null || c.writeFromSender(x)) {
                return call;
            }
        }
        handler.failed(HttpFailure.CLOSED, "the server closed " + MAX_WRITE_ATTEMPTS
                + " connections in a row as the request was written to them", System.nanoTime());
        return call;
    }

    /** What the pool did so far. */
    public PoolStats stats() {
        return pool.stats();
    }

    /** The CPU time of the I/O threads so far (the senders' own time is their callers' to measure). */
    public CpuTime ioCpu() {
        CpuTime sum = CpuTime.ZERO;
        for (IoLoop loop : loops) {
            sum = sum.plus(loop.cpu());
        }
        return sum;
    }

    /** Closes every connection; exchanges in flight fail as cancelled. */
    @Override
    public void close() {
        pool.close();
        for (IoLoop loop : loops) {
            loop.shutdown();
        }
    }

    private Connection newConnection(Exchange first, CountDownLatch warmed) {
        IoLoop loop = loops[Math.floorMod(nextLoop.getAndIncrement(), loops.length)];
        Tls tls = sslContext == null ? null : new Tls(sslContext, origin);
        return new Connection(loop, pool, address, tls, params, first, warmed);
    }

    private static SSLContext context(ClientParams params) {
        if (params.sslContext() != null) {
            return params.sslContext();
        }
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no default TLS context for https", e);
        }
    }
}
