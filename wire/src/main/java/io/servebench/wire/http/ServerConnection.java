package io.servebench.wire.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * One client connection: requests are answered one at a time, in the order they came (a request pipelined behind
 * one whose response is still streaming waits for it). Lives on the connection's event loop.
 */
final class ServerConnection extends ChannelInboundHandlerAdapter {

    private static final System.Logger LOG = System.getLogger(ServerConnection.class.getName());

    private final RequestHandler handler;
    private final Timeline timeline;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    /**
     * The HTTP codec's context: a chunk written from it skips the codec's encoder, since it is framed here already
     * (the encoder framed each chunk in a buffer of its own, a third of the loop's time per token event).
     */
    private ChannelHandlerContext codec;
    /** The exchange whose response has not ended yet, {@code null} between requests. */
    private Exchange active;

    ServerConnection(RequestHandler handler, Timeline timeline) {
        this.handler = handler;
        this.timeline = timeline;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.codec = ctx.pipeline().context(HttpServerCodec.class);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (active != null) {
            waiting.add(request);
        } else {
            dispatch(request);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        FullHttpRequest r;
        while ((r = waiting.poll()) != null) {
            r.release();
        }
        if (active != null) {
            Exchange abandoned = active;
            active = null;
            abandoned.discardQueued();
            abandoned.abandoned("the connection closed before the response ended");
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // a reset by the client, typically: the connection is done; its response, if any, is abandoned
        ctx.close();
    }

    private void dispatch(FullHttpRequest request) {
        long receivedNs = System.nanoTime();
        try {
            DecoderResult result = request.decoderResult();
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            if (result.isFailure()) {
                active = new Exchange(false);
                String why = result.cause() instanceof io.netty.handler.codec.TooLongFrameException
                        ? "request too large: " + result.cause().getMessage()
                        : "malformed request: " + result.cause().getMessage();
                int status = result.cause() instanceof io.netty.handler.codec.TooLongFrameException ? 413 : 400;
                active.send(status, Map.of("Content-Type", "application/json"),
                        ("{\"object\":\"error\",\"message\":\"" + why.replace("\"", "'") + "\"}")
                                .getBytes(StandardCharsets.UTF_8));
                return;
            }
            String uri = request.uri();
            int query = uri.indexOf('?');
            String path = query < 0 ? uri : uri.substring(0, query);
            Map<String, String> headers = new HashMap<>();
            for (Map.Entry<String, String> h : request.headers()) {
                headers.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue());
            }
            byte[] body = ByteBufUtil.getBytes(request.content());
            Exchange exchange = new Exchange(keepAlive);
            active = exchange;
            ServerRequest served = new ServerRequest(request.method().name(), path, headers, body, receivedNs);
            try {
                handler.handle(served, exchange);
            } catch (RuntimeException e) {
                // one request's bug: logged and answered, and the connection serves on
                LOG.log(System.Logger.Level.ERROR, "the handler failed on " + request.method() + " " + path, e);
                if (!exchange.answered) {
                    exchange.send(500, Map.of("Content-Type", "application/json"),
                            ("{\"object\":\"error\",\"message\":\"internal error: " + String.valueOf(e.getMessage())
                                    .replace("\"", "'") + "\"}").getBytes(StandardCharsets.UTF_8));
                }
            }
        } finally {
            request.release();
        }
    }

    /** The current response has ended: the next waiting request, if any, is answered. */
    private void ended(Exchange exchange, boolean keepAlive) {
        if (active != exchange) {
            return;
        }
        active = null;
        if (!keepAlive) {
            ctx.close();
            return;
        }
        FullHttpRequest next = waiting.poll();
        if (next != null) {
            dispatch(next);
        }
    }

    /** One request's way back: a {@link Responder} and, once streaming, its {@link ResponseStream}. */
    private final class Exchange implements Responder, ResponseStream {
        private final boolean keepAlive;
        /** Whether send or stream was called; on the loop. */
        private boolean answered;
        private boolean ended;
        private Consumer<String> abandonListener;
        private boolean abandonedAlready;
        private String abandonReason;
        /** Tasks scheduled and not yet run, in the order they were scheduled. */
        private final ConcurrentLinkedQueue<Timed> timed = new ConcurrentLinkedQueue<>();
        /** The last write queued on the stream: its completion is the flush's. */
        private ChannelFuture lastWrite;
        /** Chunks queued since the last flush, framed ({@code SIZE CRLF bytes CRLF} each); {@code null} when none. */
        private ByteBuf queued;

        Exchange(boolean keepAlive) {
            this.keepAlive = keepAlive;
        }

        @Override
        public void send(int status, Map<String, String> headers, byte[] body) {
            onLoop(() -> {
                claim();
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.valueOf(status), Unpooled.wrappedBuffer(body));
                HttpHeaders h = response.headers();
                headers.forEach((name, value) -> h.set(name.toLowerCase(Locale.ROOT), value));
                HttpUtil.setContentLength(response, body.length);
                if (!keepAlive) {
                    h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                }
                ended = true;
                ctx.writeAndFlush(response).addListener((ChannelFutureListener) f -> ended(this, keepAlive && f.isSuccess()));
            });
        }

        @Override
        public ResponseStream stream(int status, Map<String, String> headers) {
            onLoop(() -> {
                claim();
                HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
                headers.forEach((name, value) -> response.headers().set(name.toLowerCase(Locale.ROOT), value));
                HttpUtil.setTransferEncodingChunked(response, true);
                if (!keepAlive) {
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                }
                lastWrite = ctx.write(response);
            });
            return this;
        }

        @Override
        public void execute(Runnable task) {
            ctx.executor().execute(task);
        }

        @Override
        public void schedule(long atNs, Runnable task) {
            Timed timed = new Timed(task);
            this.timed.add(timed);
            timeline.schedule(atNs, () -> runThrough(timed));
        }

        /**
         * Runs this exchange's timed tasks in the order they were scheduled, up to {@code target}. The loop's
         * timers may fire two close deadlines out of order (each deadline is read off the clock again when
         * queued): the earlier task then runs just before the later.
         */
        private void runThrough(Timed target) {
            while (!target.ran) {
                Timed next = timed.poll();
                next.ran = true;
                next.task.run();
            }
        }

        @Override
        public void onAbandoned(Consumer<String> listener) {
            onLoop(() -> {
                abandonListener = listener;
                if (abandonedAlready) {
                    listener.accept(abandonReason);
                }
            });
        }

        void abandoned(String reason) {
            if (ended || abandonedAlready) {
                return;
            }
            abandonedAlready = true;
            abandonReason = reason;
            if (abandonListener != null) {
                abandonListener.accept(reason);
            }
        }

        // ---- ResponseStream, on the loop ----

        @Override
        public void chunk(byte[] bytes) {
            chunk(bytes, 0, bytes.length);
        }

        @Override
        public void chunk(byte[] bytes, int offset, int length) {
            if (length == 0) {
                return; // an empty chunk would end the body
            }
            if (queued == null) {
                queued = ctx.alloc().buffer(length + 16);
            }
            for (int shift = (31 - Integer.numberOfLeadingZeros(length)) / 4 * 4; shift >= 0; shift -= 4) {
                queued.writeByte(HEX[(length >>> shift) & 0xf]);
            }
            queued.writeShort(CRLF).writeBytes(bytes, offset, length).writeShort(CRLF);
        }

        @Override
        public void flush(LongConsumer written) {
            writeQueued();
            ChannelFuture last = lastWrite;
            ctx.flush();
            if (last.isDone()) {
                // the socket took it all in the flush: no listener to allocate and call
                if (last.isSuccess()) {
                    written.accept(System.nanoTime());
                }
                return;
            }
            last.addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    written.accept(System.nanoTime());
                }
            });
        }

        /** Hands the queued chunks to the channel, past the encoder (they are framed), as one buffer. */
        private void writeQueued() {
            if (queued != null) {
                ByteBuf out = queued;
                queued = null;
                lastWrite = codec.write(out);
            }
        }

        void discardQueued() {
            if (queued != null) {
                queued.release();
                queued = null;
            }
        }

        @Override
        public void end(LongConsumer written) {
            ended = true;
            writeQueued();
            ChannelFuture last = ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            last.addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    written.accept(System.nanoTime());
                }
                ended(this, keepAlive && f.isSuccess());
            });
        }

        @Override
        public void abort() {
            discardQueued();
            ctx.close();
        }

        @Override
        public boolean isOpen() {
            return ctx.channel().isActive();
        }

        private void claim() {
            if (answered) {
                throw new IllegalStateException("this request was answered already");
            }
            answered = true;
        }

        private void onLoop(Runnable task) {
            if (ctx.executor().inEventLoop()) {
                task.run();
            } else {
                ctx.executor().execute(task);
            }
        }
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final short CRLF = ('\r' << 8) | '\n';

    /** A task of {@link Responder#schedule}; {@code ran} is the loop's. */
    private static final class Timed {
        final Runnable task;
        boolean ran;

        Timed(Runnable task) {
            this.task = task;
        }
    }
}
