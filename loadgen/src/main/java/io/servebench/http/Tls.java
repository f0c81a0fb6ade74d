package io.servebench.http;

import io.servebench.wire.http.Origin;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * The TLS layer of one connection, over {@link SSLEngine}. The I/O thread drives the handshake and
 * unwraps what it reads; the sender wraps a request. {@link SSLEngine} allows a wrap and an unwrap to
 * run at once, and wraps are serialised here, so the two threads never need more.
 */
final class Tls {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    /** Encrypted bytes read and not yet unwrapped; in write mode between reads. I/O thread only. */
    private ByteBuffer netIn;
    /** Handshake bytes wrapped and not yet written; in read mode. I/O thread only. */
    private ByteBuffer handshakeOut = EMPTY;
    private boolean started;

    Tls(SSLContext context, Origin origin) {
        engine = context.createSSLEngine(origin.host(), origin.port());
        engine.setUseClientMode(true);
        SSLParameters p = engine.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        if (!isIpLiteral(origin.host())) {
            p.setServerNames(List.of(new SNIHostName(origin.host())));
        }
        p.setApplicationProtocols(new String[]{"http/1.1"});
        engine.setSSLParameters(p);
        netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    }

    /**
     * Advances the handshake as far as the socket allows.
     *
     * @return 0 when the handshake is done, else the interest ({@code OP_READ} or {@code OP_WRITE}) to wait on
     */
    int handshake(SocketChannel channel, ByteBuffer app) throws IOException {
        if (!started) {
            started = true;
            engine.beginHandshake();
        }
        while (true) {
            if (handshakeOut.hasRemaining()) {
                channel.write(handshakeOut);
                if (handshakeOut.hasRemaining()) {
                    return SelectionKey.OP_WRITE;
                }
            }
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> handshakeOut = wrap(EMPTY);
                case NEED_TASK -> runTasks();
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    netIn.flip();
                    app.clear();
                    SSLEngineResult r = engine.unwrap(netIn, app);
                    netIn.compact();
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        growNetInIfFull();
                        int n = channel.read(netIn);
                        if (n < 0) {
                            throw new SSLException("the server closed the connection during the TLS handshake");
                        }
                        if (n == 0) {
                            return SelectionKey.OP_READ;
                        }
                    } else if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                        throw new SSLException("the server ended TLS during the handshake");
                    }
                }
                case FINISHED, NOT_HANDSHAKING -> {
                    return 0;
                }
            }
        }
    }

    /**
     * Reads once from the socket into the encrypted buffer.
     *
     * @return the bytes read, -1 at the end of the stream
     */
    int readNet(SocketChannel channel) throws IOException {
        growNetInIfFull();
        return channel.read(netIn);
    }

    /**
     * Unwraps the next record of what {@link #readNet} read into {@code app} (cleared first).
     *
     * @return false when no whole record is buffered (or TLS was closed: see {@link #isInboundDone})
     */
    boolean unwrapNext(ByteBuffer app, SocketChannel channel) throws IOException {
        netIn.flip();
        try {
            app.clear();
            SSLEngineResult r = engine.unwrap(netIn, app);
            if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                runTasks();
            }
            if (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                // a post-handshake message (e.g. a key update) that needs an answer; it is tiny
                ByteBuffer out = wrap(EMPTY);
                while (out.hasRemaining()) {
                    if (channel.write(out) == 0) {
                        Thread.onSpinWait();
                    }
                }
            }
            return switch (r.getStatus()) {
                case OK -> true;
                case BUFFER_UNDERFLOW, CLOSED -> false;
                case BUFFER_OVERFLOW -> throw new SSLException("a TLS record larger than the application buffer");
            };
        } finally {
            netIn.compact();
        }
    }

    boolean isInboundDone() {
        return engine.isInboundDone();
    }

    /** The records of {@code plain} (all of it), ready to write; safe to call from any thread. */
    ByteBuffer wrap(ByteBuffer plain) throws SSLException {
        synchronized (engine) {
            int packet = engine.getSession().getPacketBufferSize();
            ByteBuffer out = ByteBuffer.allocate(packet * (1 + plain.remaining() / 16_384 + 1));
            boolean overflowed;
            do {
                SSLEngineResult r = engine.wrap(plain, out);
                overflowed = r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW;
                if (overflowed) {
                    ByteBuffer bigger = ByteBuffer.allocate(out.capacity() * 2);
                    out.flip();
                    out = bigger.put(out);
                } else if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new SSLException("TLS is closed on this connection");
                }
                if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                    runTasks();
                }
            } while (plain.hasRemaining() || overflowed);
            return out.flip();
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    private void growNetInIfFull() {
        if (!netIn.hasRemaining()) {
            ByteBuffer bigger = ByteBuffer.allocate(netIn.capacity() * 2);
            netIn.flip();
            netIn = bigger.put(netIn);
        }
    }

    private static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }
}
