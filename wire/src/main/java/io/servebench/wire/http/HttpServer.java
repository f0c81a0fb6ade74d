package io.servebench.wire.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An HTTP/1.1 server, on 127.0.0.1 unless told otherwise: a few event-loop threads, each serving its share of the keep-alive
 * connections, and a {@link RequestHandler} that answers every request. Thousands of open streams cost no thread
 * each; a response's chunks are written by the loop of its connection at the instants the handler schedules.
 */
public final class HttpServer implements AutoCloseable {

    /** Connections waiting to be accepted: a burst of clients connecting at once must not be refused. */
    private static final int BACKLOG = 4096;
    /** The largest request body read; a larger one is answered 413 and the connection closed. */
    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    private static final long STOP_TIMEOUT_MS = 2000;

    private final EventLoops loops;
    private final Channel serverChannel;
    /** Each loop's timed tasks, shared by the connections it serves. */
    private final Map<EventLoop, Timeline> timelines = new ConcurrentHashMap<>();
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final URI baseUri;
    private final AtomicLong acceptFailures = new AtomicLong();
    private final AtomicReference<String> firstAcceptFailure = new AtomicReference<>();

    private HttpServer(String name, InetSocketAddress address, int loopCount, RequestHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (loopCount < 1) {
            throw new IllegalArgumentException("an HTTP server needs at least one event loop, got " + loopCount);
        }
        this.loops = new EventLoops(name, loopCount);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loops.group())
                .channel(EventLoops.serverChannel())
                .option(ChannelOption.SO_BACKLOG, BACKLOG)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .handler(new AcceptFailures())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY_BYTES),
                                new ServerConnection(handler, timelines.computeIfAbsent(ch.eventLoop(), Timeline::new)));
                    }
                });
        try {
            this.serverChannel = bootstrap.bind(address).syncUninterruptibly().channel();
        } catch (Exception e) {
            // Netty's native transport throws its IOException unchecked
            loops.shutdown(STOP_TIMEOUT_MS);
            String host = address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress();
            throw new IOException("cannot listen on " + host + ":" + address.getPort() + ": " + e.getMessage(), e);
        }
        int bound = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        this.baseUri = URI.create("http://127.0.0.1:" + bound);
    }

    /**
     * Starts a server.
     *
     * @param name    its event-loop threads' name ({@code name-1}, {@code name-2}, ... when several)
     * @param port    the port on 127.0.0.1, 0 for a free one
     * @param loops   event-loop threads, {@code >= 1}
     * @param handler answers every request
     * @throws IOException when the port cannot be bound
     */
    public static HttpServer start(String name, int port, int loops, RequestHandler handler) throws IOException {
        return new HttpServer(name, new InetSocketAddress(InetAddress.getLoopbackAddress(), port), loops, handler);
    }

    /**
     * Starts a server on another address than 127.0.0.1: {@code 0.0.0.0} inside a container, whose published port
     * reaches the container's own interface, not its loopback.
     *
     * @param address the address and port to listen on, port 0 for a free one
     * @see #start(String, int, int, RequestHandler)
     */
    public static HttpServer start(String name, InetSocketAddress address, int loops, RequestHandler handler)
            throws IOException {
        return new HttpServer(name, address, loops, handler);
    }

    /** {@code http://127.0.0.1:PORT}, the address a client on this host reaches it at, whichever address it listens on. */
    public URI baseUri() {
        return baseUri;
    }

    /** The event loops' CPU time so far, nanoseconds. */
    public long cpuNs() {
        return loops.cpuNs();
    }

    /** Connections the operating system refused to hand over (out of file descriptors, typically). */
    public long acceptFailures() {
        return acceptFailures.get();
    }

    /** The first accept failure's message, {@code null} when none. */
    public String firstAcceptFailure() {
        return firstAcceptFailure.get();
    }

    /** Stops accepting, closes every connection (responses in flight are abandoned) and stops the loops. */
    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly(STOP_TIMEOUT_MS);
        connections.close().awaitUninterruptibly(STOP_TIMEOUT_MS);
        loops.shutdown(STOP_TIMEOUT_MS);
    }

    /** Counts what the listening socket's accepts failed with; Netty pauses accepting for a second after one. */
    private final class AcceptFailures extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            acceptFailures.incrementAndGet();
            firstAcceptFailure.compareAndSet(null, String.valueOf(cause.getMessage()));
            // on to the acceptor, which pauses accepting so that the waiting connection does not spin the loop
            ctx.fireExceptionCaught(cause);
        }
    }
}
