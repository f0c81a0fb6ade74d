package io.servebench.http;

import io.servebench.wire.nio.SelectorLoop;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;

/**
 * One keep-alive connection and the exchange it carries. Its I/O thread connects it, reads it and
 * closes it; a sender writes a request on it only after taking it idle from the {@link Pool}, whose
 * lock guards every change of {@link #state} and {@link #exchange}.
 */
final class Connection implements SelectorLoop.Ready {

    static final int CONNECTING = 0;
    static final int IDLE = 1;
    static final int BUSY = 2;
    static final int CLOSED = 3;
    /** Taken out of the pool to be closed (the server closed it idle, or it is stale): no sender may take it. */
    static final int CLOSING = 4;

    private final IoLoop loop;
    private final Pool pool;
    private final InetSocketAddress address;
    private final Tls tls;
    private final long connectTimeoutNs;
    private final long idleTimeoutNs;
    private final CountDownLatch warmed;
    private final ResponseDecoder decoder = new ResponseDecoder();

    /** Changed under the pool's lock only. */
    volatile int state = CONNECTING;
    /** The exchange in flight, attached under the pool's lock before {@link #state} becomes {@link #BUSY}. */
    volatile Exchange exchange;
    /** The last time bytes moved for the exchange in flight. */
    volatile long lastActivityNs;
    /** When the connection last became idle; under the pool's lock. */
    long idleSinceNs;
    /** Whether it ever carried a response, or lived long: then its close may be replaced (see Pool). */
    boolean served;

    private SocketChannel channel;
    private SelectionKey key;
    private long connectDeadlineNs;
    private long establishedNs;
    private Exchange decoding;
    private ByteBuffer pendingOut;

    /**
     * @param first  the exchange to send once connected, or {@code null} for a spare connection
     * @param warmed counted down once the connection is established or has failed; may be {@code null}
     */
    Connection(IoLoop loop, Pool pool, InetSocketAddress address, Tls tls, ClientParams params, Exchange first,
               CountDownLatch warmed) {
        this.loop = loop;
        this.pool = pool;
        this.address = address;
        this.tls = tls;
        this.connectTimeoutNs = params.connectTimeout().toNanos();
        this.idleTimeoutNs = params.idleTimeout().toNanos();
        this.exchange = first;
        this.warmed = warmed;
    }

    /** Starts connecting, on the I/O thread. */
    void start() {
        loop.execute(this::connect);
    }

    private void connect() {
        loop.added(this);
        connectDeadlineNs = System.nanoTime() + connectTimeoutNs;
        if (pool.isClosed()) {
            close(HttpFailure.CANCELLED, "the client was closed before the request was sent");
            return;
        }
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            key = channel.register(loop.selector(), 0, this);
            if (address.isUnresolved()) {
                throw new java.net.UnknownHostException("unknown host " + address.getHostString());
            }
            if (channel.connect(address)) {
                connected();
            } else {
                key.interestOps(SelectionKey.OP_CONNECT);
            }
        } catch (IOException | RuntimeException e) {
            connectFailed(HttpFailure.of(e, true), HttpFailure.detail(e) + " (" + address + ")");
        }
    }

    /** Readiness from the selector. */
    @Override
    public void ready(int ops) {
        ByteBuffer buffer = loop.buffer();
        try {
            if ((ops & SelectionKey.OP_CONNECT) != 0) {
                if (channel.finishConnect()) {
                    connected();
                }
                return;
            }
            if (state == CONNECTING) {
                handshake();
                return;
            }
            if ((ops & SelectionKey.OP_WRITE) != 0) {
                writePending();
            }
            if ((ops & SelectionKey.OP_READ) != 0 && state != CLOSED) {
                read(buffer);
            }
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            // out of memory too: the request fails and the loop lives on, rather than every request on it hanging
            boolean connecting = state == CONNECTING;
            HttpFailure kind = HttpFailure.of(e, connecting);
            String detail = HttpFailure.detail(e);
            if (connecting) {
                connectFailed(kind, detail + " (" + address + ")");
            } else {
                close(kind, detail);
            }
        }
    }

    private void connected() throws IOException {
        key.interestOps(SelectionKey.OP_READ);
        if (tls != null) {
            handshake();
        } else {
            established();
        }
    }

    private void handshake() throws IOException {
        int waitFor = tls.handshake(channel, loop.buffer());
        if (waitFor == 0) {
            key.interestOps(SelectionKey.OP_READ);
            established();
        } else {
            key.interestOps(waitFor);
        }
    }

    private void established() {
        establishedNs = System.nanoTime();
        Exchange next = pool.connected(this);
        // after the pool counted it, so that a warm-up waiting on the latch sees it
        if (warmed != null) {
            warmed.countDown();
        }
        if (next != null) {
            writeFromLoop(next);
        }
    }

    private void connectFailed(HttpFailure kind, String detail) {
        pool.connectFailed(kind.describe(detail));
        if (warmed != null) {
            warmed.countDown();
        }
        close(kind == HttpFailure.IO ? HttpFailure.CONNECT : kind, detail);
    }

    /**
     * Writes {@code x}'s request from the sending thread, on a connection just taken idle from the pool.
     *
     * @return false when the write failed before any byte left and {@code x} was withdrawn, so that the
     *         caller sends the request again on another connection
     */
    boolean writeFromSender(Exchange x) {
        ByteBuffer out;
        try {
            out = tls != null ? tls.wrap(x.request.bytes()) : x.request.bytes();
            long sentNs = System.nanoTime();
            lastActivityNs = sentNs;
            // told before the write: the response can be read on the I/O thread before the write returns
            x.handler.sent(sentNs);
            channel.write(out);
        } catch (IOException | RuntimeException e) {
            // no byte reached the server: a connection it had just closed. The request is taken back
            // unless the I/O thread has already failed it
            boolean withdrawn = x.withdraw();
            loop.execute(() -> close(HttpFailure.of(e, false), HttpFailure.detail(e)));
            return !withdrawn;
        }
        if (out.hasRemaining()) {
            loop.execute(() -> queueWrite(out));
        }
        return true;
    }

    /** Writes {@code x}'s request from the I/O thread: on connecting, or when a busy connection freed up. */
    void writeFromLoop(Exchange x) {
        try {
            ByteBuffer out = tls != null ? tls.wrap(x.request.bytes()) : x.request.bytes();
            long sentNs = System.nanoTime();
            lastActivityNs = sentNs;
            x.handler.sent(sentNs);
            channel.write(out);
            if (out.hasRemaining()) {
                queueWrite(out);
            }
        } catch (IOException | RuntimeException e) {
            close(HttpFailure.of(e, false), HttpFailure.detail(e));
        }
    }

    private void queueWrite(ByteBuffer out) {
        if (state == CLOSED) {
            return;
        }
        pendingOut = out;
        key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }

    private void writePending() throws IOException {
        if (pendingOut != null) {
            channel.write(pendingOut);
            lastActivityNs = System.nanoTime();
            if (pendingOut.hasRemaining()) {
                return;
            }
            pendingOut = null;
        }
        key.interestOps(SelectionKey.OP_READ);
    }

    private void read(ByteBuffer buffer) throws IOException {
        if (tls == null) {
            while (true) {
                buffer.clear();
                long readNs = System.nanoTime();
                int n = channel.read(buffer);
                loop.countRead();
                if (n == 0 || closedWhileIdle()) {
                    return;
                }
                Exchange x = exchange;
                if (n < 0) {
                    endOfStream(x, readNs);
                    return;
                }
                lastActivityNs = readNs;
                if (!deliver(x, buffer.array(), n, readNs) || n < buffer.capacity()) {
                    return;
                }
            }
        }
        long readNs = System.nanoTime();
        int n = tls.readNet(channel);
        loop.countRead();
        if (n == 0) {
            return;
        }
        if (n > 0) {
            while (tls.unwrapNext(buffer, channel)) {
                // records without application data (a TLS 1.3 session ticket) may arrive while idle
                if (buffer.position() == 0) {
                    continue;
                }
                if (closedWhileIdle()) {
                    return;
                }
                lastActivityNs = readNs;
                if (!deliver(exchange, buffer.array(), buffer.position(), readNs)) {
                    return;
                }
            }
        }
        if ((n < 0 || tls.isInboundDone()) && !closedWhileIdle()) {
            endOfStream(exchange, readNs);
        }
    }

    /**
     * Bytes or the end of the stream on an idle connection: the server closed it (its keep-alive timeout)
     * or broke the protocol, so it is closed. A connection a sender took in the meantime reads on.
     *
     * @return whether it was idle and is now closed
     */
    private boolean closedWhileIdle() {
        if (state == IDLE && pool.closedWhileIdle(this)) {
            close(null, null);
            return true;
        }
        return false;
    }

    /** @return whether to read on: false once the response has ended or the connection was closed */
    private boolean deliver(Exchange x, byte[] bytes, int length, long readNs) {
        if (decoding != x) {
            decoder.reset(x.handler);
            decoding = x;
        }
        ResponseDecoder.Outcome outcome;
        try {
            outcome = decoder.feed(bytes, 0, length, readNs);
        } catch (HttpProtocolException e) {
            close(HttpFailure.MALFORMED, e.getMessage());
            return false;
        }
        switch (outcome) {
            case MORE -> {
                return true;
            }
            case ABORTED -> {
                x.withdraw();
                close(null, null);
                return false;
            }
            default -> {
                served = true;
                if (decoder.keepAlive()) {
                    // freed before the handler hears of the end, so that a send it triggers finds it idle
                    Exchange next = pool.release(this);
                    x.end(readNs);
                    if (next != null) {
                        writeFromLoop(next);
                    }
                } else {
                    x.end(readNs);
                    close(null, null);
                }
                return false;
            }
        }
    }

    private void endOfStream(Exchange x, long nowNs) {
        if (decoding != x) {
            decoder.reset(x.handler);
            decoding = x;
        }
        if (decoder.endsAtClose()) {
            served = true;
            x.end(nowNs);
            close(null, null);
        } else {
            close(HttpFailure.CLOSED, "the server closed the connection " + decoder.position());
        }
    }

    /** The loop's periodic check of timeouts and of idle connections to retire. */
    void tick(long nowNs) {
        switch (state) {
            case CONNECTING -> {
                if (nowNs - connectDeadlineNs > 0) {
                    connectFailed(HttpFailure.CONNECT_TIMEOUT, "no connection to " + address + " within "
                            + connectTimeoutNs / 1_000_000 + " ms");
                }
            }
            case BUSY -> {
                Exchange x = exchange;
                if (x != null && !x.isFinished() && nowNs - lastActivityNs > idleTimeoutNs) {
                    // where the response stood: a server silent from the start, or one that fell silent mid-stream
                    close(HttpFailure.TIMEOUT, "the server sent nothing for " + idleTimeoutNs / 1_000_000 + " ms "
                            + (decoding == x ? decoder.position() : "before any byte of the response"));
                }
            }
            case IDLE -> {
                if (pool.retireIfStale(this, nowNs)) {
                    close(null, null);
                }
            }
            default -> { }
        }
    }

    /** How long ago the connection was established, in nanoseconds; 0 while it is not. */
    long ageNs(long nowNs) {
        return establishedNs == 0 ? 0 : nowNs - establishedNs;
    }

    /** Closes the connection for {@code x}, on the I/O thread, if it still carries {@code x} unfinished. */
    void abort(Exchange x, HttpFailure failure, String detail) {
        loop.execute(() -> {
            if (exchange == x && !x.isFinished() && state != CLOSED) {
                close(failure, detail);
            }
        });
    }

    /**
     * Closes the connection on its I/O thread; the exchange in flight, if any and not yet finished, fails
     * with {@code failure} ({@code null}: it has finished, or is withdrawn).
     */
    void close(HttpFailure failure, String detail) {
        Exchange x = exchange;
        pool.closed(this);
        loop.removed(this);
        if (key != null) {
            key.cancel();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // closed either way
            }
        }
        if (x != null && failure != null) {
            x.fail(failure, detail, System.nanoTime());
        }
    }
}
