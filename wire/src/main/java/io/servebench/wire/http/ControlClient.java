package io.servebench.wire.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Deque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A small blocking HTTP/1.1 client for the control plane: readiness polls, metrics scrapes, cache resets, version
 * and tokenizer queries, a few requests a second of a few kilobytes each. It is not the load generator's client
 * (which stamps every read of a stream); it reuses a kept-alive connection per origin, speaks TLS for
 * {@code https} URIs (the JVM's trust store unless given a context), and runs on one shared event loop.
 *
 * <p>Thread-safe: any number of threads may call it at once, each on a connection of its own.
 */
public final class ControlClient {

    /** The largest answer read: a Prometheus page of an engine with many series stays far below. */
    private static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;
    private static final AttributeKey<CompletableFuture<Reply>> ANSWER = AttributeKey.valueOf("servebench.answer");

    private final Duration connectTimeout;
    private final JdkSslContext tls;
    /** Connections kept alive after an answer, by origin ({@link Origin#toString()}). */
    private final Map<String, Deque<Channel>> idle = new ConcurrentHashMap<>();

    /**
     * @param connectTimeout how long a connection may take to open
     * @param sslContext     for {@code https}: the trust to use; {@code null} for the JVM's default
     */
    public ControlClient(Duration connectTimeout, SSLContext sslContext) {
        this.connectTimeout = connectTimeout;
        try {
            this.tls = new JdkSslContext(sslContext != null ? sslContext : SSLContext.getDefault(), true, ClientAuth.NONE);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM offers no TLS context", e);
        }
    }

    /** A client trusting the JVM's default trust store. */
    public ControlClient(Duration connectTimeout) {
        this(connectTimeout, null);
    }

    /**
     * An answer.
     *
     * @param status  the status code
     * @param headers header names in lower case
     * @param body    the body, decoded from chunks if it came chunked
     */
    public record Reply(int status, Map<String, String> headers, byte[] body) {
        public Reply {
            headers = Map.copyOf(headers);
        }

        /** The body as UTF-8 text. */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** Whether the status is 2xx. */
        public boolean ok() {
            return status / 100 == 2;
        }
    }

    /**
     * {@code headers} with {@code Authorization: Bearer apiKey} added when {@code apiKey} is not {@code null}: an engine
     * started with {@code --api-key} refuses control calls without it (SGLang exempts only {@code /health} and
     * {@code /metrics}).
     */
    public static Map<String, String> withBearer(Map<String, String> headers, String apiKey) {
        if (apiKey == null) {
            return headers;
        }
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.put("Authorization", "Bearer " + apiKey);
        return all;
    }

    /**
     * {@code GET uri}.
     *
     * @param headers sent as given (a bearer token, typically); {@code Host} is added
     * @param timeout for the whole exchange, connecting included
     * @throws IOException when it cannot connect or the connection fails; {@link HttpTimeoutException} when no answer
     *                     comes within the timeout
     */
    public Reply get(URI uri, Map<String, String> headers, Duration timeout) throws IOException, InterruptedException {
        return exchange(HttpMethod.GET, uri, headers, new byte[0], timeout);
    }

    /** {@code POST uri} with {@code body} (its {@code Content-Type} among the headers); as {@link #get}. */
    public Reply post(URI uri, Map<String, String> headers, byte[] body, Duration timeout)
            throws IOException, InterruptedException {
        return exchange(HttpMethod.POST, uri, headers, body, timeout);
    }

    private Reply exchange(HttpMethod method, URI uri, Map<String, String> headers, byte[] body, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Origin origin = Origin.of(uri);
        Channel channel = idleConnection(origin);
        if (channel == null) {
            channel = connect(origin, deadline);
        }
        CompletableFuture<Reply> answer = new CompletableFuture<>();
        channel.attr(ANSWER).set(answer);
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, target,
                Unpooled.wrappedBuffer(body));
        request.headers().set(HttpHeaderNames.HOST, origin.hostHeader());
        headers.forEach((name, value) -> request.headers().set(name, value));
        if (method == HttpMethod.POST || body.length > 0) {
            HttpUtil.setContentLength(request, body.length);
        }
        channel.writeAndFlush(request).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                answer.completeExceptionally(f.cause());
            }
        });
        try {
            Reply reply = answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if ("close".equalsIgnoreCase(reply.headers().get("connection")) || !channel.isActive()) {
                channel.close();
            } else {
                idle.computeIfAbsent(origin.toString(), k -> new ConcurrentLinkedDeque<>()).push(channel);
            }
            return reply;
        } catch (TimeoutException e) {
            channel.close();
            throw new HttpTimeoutException(method + " " + uri + ": no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            channel.close();
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? io : new IOException(method + " " + uri + " failed: " + cause, cause);
        } catch (InterruptedException e) {
            channel.close();
            throw e;
        }
    }

    private Channel idleConnection(Origin origin) {
        Deque<Channel> kept = idle.get(origin.toString());
        Channel c;
        while (kept != null && (c = kept.poll()) != null) {
            if (c.isActive()) {
                return c;
            }
        }
        return null;
    }

    private Channel connect(Origin origin, long deadline) throws IOException, InterruptedException {
        long left = Math.max(1, Math.min(connectTimeout.toMillis(), (deadline - System.nanoTime()) / 1_000_000));
        Bootstrap bootstrap = new Bootstrap()
                .group(Loop.LOOPS.group())
                .channel(EventLoops.channel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, left))
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (origin.tls()) {
                            SSLEngine engine = tls.newEngine(ch.alloc(), origin.host(), origin.port());
                            SSLParameters params = engine.getSSLParameters();
                            // the certificate must name the host, as a browser checks
                            params.setEndpointIdentificationAlgorithm("HTTPS");
                            engine.setSSLParameters(params);
                            ch.pipeline().addLast(new SslHandler(engine));
                        }
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_ANSWER_BYTES),
                                new Answers());
                    }
                });
        io.netty.channel.ChannelFuture connected = bootstrap.connect(new InetSocketAddress(origin.host(), origin.port()));
        if (!connected.await(left + 1000)) {
            connected.channel().close();
            throw new IOException("cannot connect to " + origin + " within " + left + " ms");
        }
        if (!connected.isSuccess()) {
            Throwable cause = connected.cause();
            throw cause instanceof IOException io ? io
                    : new IOException("cannot connect to " + origin + ": " + cause, cause);
        }
        return connected.channel();
    }

    /** Completes the connection's pending answer. */
    private static final class Answers extends SimpleChannelInboundHandler<FullHttpResponse> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
            Map<String, String> headers = new HashMap<>();
            response.headers().forEach(h -> headers.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
            if (!HttpUtil.isKeepAlive(response)) {
                headers.put("connection", "close");
            }
            CompletableFuture<Reply> answer = ctx.channel().attr(ANSWER).getAndSet(null);
            if (answer != null) {
                answer.complete(new Reply(response.status().code(), headers, ByteBufUtil.getBytes(response.content())));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(ctx, new IOException("the server closed the connection before it answered"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(ctx, cause instanceof IOException io ? io : new IOException(cause.toString(), cause));
            ctx.close();
        }

        private static void fail(ChannelHandlerContext ctx, IOException e) {
            CompletableFuture<Reply> answer = ctx.channel().attr(ANSWER).getAndSet(null);
            if (answer != null) {
                answer.completeExceptionally(e);
            }
        }
    }

    /** The control plane's one event loop, started on first use; daemon, so it never keeps a JVM alive. */
    private static final class Loop {
        static final EventLoops LOOPS = new EventLoops("servebench-control", 1);
    }
}
