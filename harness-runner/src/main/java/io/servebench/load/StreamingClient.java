package io.servebench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.workload.RequestSpec;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * Sends streaming completion requests over HTTP/1.1 (Apache HttpClient 5, async) and measures each one.
 *
 * <p>The connection pool holds {@link LoadParams#maxInFlight()} connections, total and per route;
 * automatic retries, redirects, cookies and response compression are off, so every request is sent
 * exactly once and its bytes are timed as they arrive. The response body is consumed at byte level: the
 * time of each network read is taken before anything in it is read or parsed (by {@link ReadClock}, an
 * I/O session listener called when the socket becomes readable), and every event parsed from that read
 * carries that time, even when the read holds several HTTP chunks and so reaches the consumer in several
 * calls.
 *
 * <p>{@link #send} never fails: whatever goes wrong (HTTP errors, refused or reset connections,
 * timeouts, malformed streams) comes back as a {@link RequestRecord} with an {@code error}.
 */
public final class StreamingClient implements AutoCloseable {

    /** Longest part of an error response body kept in the record, in characters. */
    static final int ERROR_BODY_CHARS = 300;
    // Up to 4 bytes per character in UTF-8: enough bytes for ERROR_BODY_CHARS characters.
    private static final int ERROR_BODY_BYTES = ERROR_BODY_CHARS * 4;
    private static final Timeout NO_LEASE_TIMEOUT = Timeout.DISABLED;
    private static final long SELECT_INTERVAL_MS = 50;

    private final Target target;
    private final LoadParams params;
    private final DeltaTokenCounter counter;
    private final URI uri;
    private final CloseableHttpAsyncClient client;
    private final ObjectNode extraBody;

    /** A client that counts one token per event when the server sends no continuous usage. */
    public StreamingClient(Target target, LoadParams params) {
        this(target, params, DeltaTokenCounter.ONE_PER_EVENT);
    }

    /**
     * @param target   where to send requests
     * @param params   API, timeouts, pool size, API key
     * @param counter  counts an event's tokens when the server sends no continuous usage
     */
    public StreamingClient(Target target, LoadParams params, DeltaTokenCounter counter) {
        this.target = Objects.requireNonNull(target, "target");
        this.params = Objects.requireNonNull(params, "params");
        this.counter = Objects.requireNonNull(counter, "counter");
        // parsed once; RequestBodies only reads it, so one node serves every request
        this.extraBody = params.extraBody() == null ? null : RequestBodies.parseExtraBody(params.extraBody());
        String base = target.baseUri().toString();
        this.uri = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + params.api().path());

        int pool = params.maxInFlight();
        PoolingAsyncClientConnectionManager connections = PoolingAsyncClientConnectionManagerBuilder.create()
                .setMaxConnTotal(pool)
                .setMaxConnPerRoute(pool)
                .setDefaultTlsConfig(TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(params.connectTimeout()))
                        .setSocketTimeout(Timeout.of(params.requestTimeout()))
                        // without retries, a pooled connection the server has closed must not be handed out
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .build();
        this.client = HttpAsyncClients.custom()
                .setConnectionManager(connections)
                .setIOReactorConfig(IOReactorConfig.custom()
                        .setTcpNoDelay(true)
                        // timeouts are checked once per select interval (1 s by default): keep them prompt
                        .setSelectInterval(TimeValue.ofMilliseconds(SELECT_INTERVAL_MS))
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setResponseTimeout(Timeout.of(params.requestTimeout()))
                        // a request waiting for a free connection is client-side queueing, measured as schedule
                        // lag; it must not be failed by a lease deadline
                        .setConnectionRequestTimeout(NO_LEASE_TIMEOUT)
                        .build())
                // stamps each read before its bytes are parsed, see ReadClock
                .setIOSessionListener(new ReadClock())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .build();
        client.start();
    }

    /** The URI requests go to: the target's base URI plus the API's path. */
    public URI uri() {
        return uri;
    }

    /**
     * Sends {@code spec} now. The returned future completes, never exceptionally, when the response has
     * ended or the request has failed.
     *
     * @param spec       the request; its {@link RequestSpec#index()} becomes the record's id and the
     *                   {@code X-Request-Id} header
     * @param intendedNs the request's intended send time ({@link System#nanoTime()} time), recorded as is
     */
    public CompletableFuture<RequestRecord> send(RequestSpec spec, long intendedNs) {
        return send(prepare(spec), intendedNs);
    }

    /**
     * A request built ahead of its send time: building the head and serialising the body cost more
     * (about a millisecond while the code is still cold) than handing them to the connection, and that
     * time must not land between the intended and the actual send.
     */
    public static final class Prepared {
        private final RequestSpec spec;
        private final BasicHttpRequest request;
        private final byte[] body;
        private final RuntimeException failure;

        private Prepared(RequestSpec spec, BasicHttpRequest request, byte[] body, RuntimeException failure) {
            this.spec = spec;
            this.request = request;
            this.body = body;
            this.failure = failure;
        }

        public RequestSpec spec() {
            return spec;
        }
    }

    /** Builds {@code spec}'s request; a spec that cannot be built fails when it is sent, as a record. */
    public Prepared prepare(RequestSpec spec) {
        try {
            BasicHttpRequest request = new BasicHttpRequest(Method.POST, uri);
            request.addHeader("X-Request-Id", Integer.toString(spec.index()));
            request.addHeader("Accept", "text/event-stream");
            if (params.apiKey() != null) {
                request.addHeader("Authorization", "Bearer " + params.apiKey());
            }
            byte[] body = RequestBodies.build(params.api(), target.model(), spec, params.continuousUsageStats(), extraBody);
            return new Prepared(spec, request, body, null);
        } catch (RuntimeException e) {
            return new Prepared(spec, null, null, e);
        }
    }

    /** Sends a prepared request now; see {@link #send(RequestSpec, long)}. */
    public CompletableFuture<RequestRecord> send(Prepared prepared, long intendedNs) {
        Exchange exchange = new Exchange(prepared.spec, intendedNs);
        if (prepared.failure != null) {
            exchange.failed(prepared.failure);
            return exchange.result;
        }
        try {
            AsyncEntityProducer entity = new SendStampingProducer(
                    AsyncEntityProducers.create(prepared.body, ContentType.APPLICATION_JSON), exchange);
            client.execute(new BasicRequestProducer(prepared.request, entity), exchange, null, HttpClientContext.create(),
                    exchange);
        } catch (RuntimeException e) {
            // e.g. the client was already closed: still a record, never an exception out of the run
            exchange.failed(e);
        }
        return exchange.result;
    }

    /**
     * Closes all connections; requests still in flight fail. Graceful, because httpcore5's immediate
     * close races its own selector shutdown and logs a spurious ClosedSelectorException.
     */
    @Override
    public void close() {
        client.close(CloseMode.GRACEFUL);
    }

    /** The state of one request: consumes its response and completes its future exactly once. */
    private final class Exchange implements AsyncResponseConsumer<RequestRecord>, FutureCallback<RequestRecord> {

        private enum Mode { STREAM, ERROR_BODY, NOT_AN_EVENT_STREAM }

        final CompletableFuture<RequestRecord> result = new CompletableFuture<>();
        private final RequestSpec spec;
        private final long intendedNs;
        private final SseParser parser = new SseParser();
        private final StreamAccumulator accumulator = new StreamAccumulator(counter);
        private final ByteArrayOutputStream bodyHead = new ByteArrayOutputStream();
        private volatile long sentNs = RequestRecord.NONE;
        private Mode mode;
        private int status;
        private String contentType;
        private long doneNs = RequestRecord.NONE;
        private long readNs = RequestRecord.NONE;
        private FutureCallback<RequestRecord> resultCallback;

        Exchange(RequestSpec spec, long intendedNs) {
            this.spec = spec;
            this.intendedNs = intendedNs;
        }

        void markSent(long nowNs) {
            if (sentNs == RequestRecord.NONE) {
                sentNs = nowNs;
            }
        }

        @Override
        public synchronized void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context,
                                                 FutureCallback<RequestRecord> callback) {
            resultCallback = callback;
            status = response.getCode();
            contentType = entity == null ? null : entity.getContentType();
            if (status >= 400) {
                mode = Mode.ERROR_BODY;
            } else if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
                mode = Mode.NOT_AN_EVENT_STREAM;
            } else {
                mode = Mode.STREAM;
            }
            if (entity == null) {
                streamEnd(List.of());
            }
        }

        @Override
        public void informationResponse(HttpResponse response, HttpContext context) {
            // 1xx responses carry no body and no timing the metrics use
        }

        @Override
        public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
            // every read is processed in full as it arrives, so the server is never throttled by this side
            capacityChannel.update(Integer.MAX_VALUE);
        }

        @Override
        public synchronized void consume(ByteBuffer src) throws IOException {
            long nowNs = ReadClock.readStartNs();
            if (mode != Mode.STREAM) {
                keepBodyHead(src);
                return;
            }
            if (accumulator.isFinished()) {
                src.position(src.limit());
                return;
            }
            if (nowNs != readNs) {
                // a new read; further consume calls from the same read (one per HTTP chunk) share its time
                readNs = nowNs;
                accumulator.beginRead(nowNs);
            }
            try {
                parser.feed(src, accumulator);
            } catch (MalformedStreamException e) {
                accumulator.fail("malformed: " + e.getMessage());
            }
            if (accumulator.isFinished() && doneNs == RequestRecord.NONE) {
                doneNs = nowNs;
            }
            if (accumulator.error() != null) {
                // abort the exchange: a broken stream may never end on its own
                throw new IOException("stream aborted by the client: " + accumulator.error());
            }
        }

        @Override
        public synchronized void streamEnd(List<? extends Header> trailers) {
            long nowNs = System.nanoTime();
            String error = switch (mode) {
                case ERROR_BODY -> "http_" + status + ": " + bodyHeadText();
                case NOT_AN_EVENT_STREAM -> "malformed: status " + status + " with Content-Type " + contentType
                        + " instead of text/event-stream: " + bodyHeadText();
                case STREAM -> streamOutcome();
            };
            if (doneNs == RequestRecord.NONE) {
                doneNs = nowNs;
            }
            RequestRecord record = accumulator.toRecord(spec.index(), spec.warmup(), intendedNs, sentNs, doneNs,
                    spec.promptTokens(), status, error);
            if (resultCallback != null) {
                resultCallback.completed(record);
            }
            result.complete(record);
        }

        private String streamOutcome() {
            if (accumulator.error() != null) {
                return accumulator.error();
            }
            if (accumulator.tokenEvents() == 0) {
                return accumulator.sawDone()
                        ? "empty_stream: data: [DONE] arrived before any token event"
                        : "empty_stream: the stream ended without any token event or data: [DONE]";
            }
            if (!accumulator.sawDone()) {
                return "incomplete: the stream ended without data: [DONE] after " + accumulator.tokenEvents()
                        + " token events" + (parser.hasPartialEvent() ? ", in the middle of an event" : "");
            }
            return null;
        }

        /** The consumer's and the client's failure hooks both land here; the first one wins. */
        @Override
        public synchronized void failed(Exception cause) {
            if (result.isDone()) {
                return;
            }
            long nowNs = System.nanoTime();
            String error;
            if (accumulator.error() != null) {
                error = accumulator.error();
            } else if (status >= 400) {
                error = "http_" + status + ": " + bodyHeadText();
            } else if (accumulator.sawDone() && accumulator.tokenEvents() > 0) {
                // the stream was complete; only the end of the response (e.g. the last chunk) went missing
                error = null;
            } else {
                error = Failures.describe(cause, params.requestTimeout());
            }
            if (doneNs == RequestRecord.NONE) {
                doneNs = nowNs;
            }
            result.complete(accumulator.toRecord(spec.index(), spec.warmup(), intendedNs, sentNs, doneNs,
                    spec.promptTokens(), status, error));
        }

        /** The client's completion hook: the record was already delivered by {@link #streamEnd}. */
        @Override
        public void completed(RequestRecord record) {
            result.complete(record);
        }

        @Override
        public void cancelled() {
            failed(new CancellationException("request cancelled"));
        }

        @Override
        public void releaseResources() {
            // nothing held beyond this object's own memory
        }

        private void keepBodyHead(ByteBuffer src) {
            int keep = Math.min(src.remaining(), ERROR_BODY_BYTES - bodyHead.size());
            for (int i = 0; i < keep; i++) {
                bodyHead.write(src.get());
            }
            src.position(src.limit());
        }

        private String bodyHeadText() {
            String text = bodyHead.toString(StandardCharsets.UTF_8).strip();
            return text.length() <= ERROR_BODY_CHARS ? text : text.substring(0, ERROR_BODY_CHARS);
        }
    }

    /** Delegates to the request body and stamps the send time when its bytes first go to the connection. */
    private static final class SendStampingProducer implements AsyncEntityProducer {
        private final AsyncEntityProducer body;
        private final Exchange exchange;

        SendStampingProducer(AsyncEntityProducer body, Exchange exchange) {
            this.body = body;
            this.exchange = exchange;
        }

        /**
         * Called on the I/O thread once the connection is ready and the request head has been written
         * to it. (AsyncRequestProducer.sendRequest would be too early: the async client calls it on the
         * caller's thread, before a connection is even leased.)
         */
        @Override
        public void produce(DataStreamChannel channel) throws IOException {
            exchange.markSent(System.nanoTime());
            body.produce(channel);
        }

        @Override
        public boolean isRepeatable() {
            return body.isRepeatable();
        }

        @Override
        public void failed(Exception cause) {
            body.failed(cause);
        }

        @Override
        public int available() {
            return body.available();
        }

        @Override
        public void releaseResources() {
            body.releaseResources();
        }

        @Override
        public long getContentLength() {
            return body.getContentLength();
        }

        @Override
        public String getContentType() {
            return body.getContentType();
        }

        @Override
        public String getContentEncoding() {
            return body.getContentEncoding();
        }

        @Override
        public boolean isChunked() {
            return body.isChunked();
        }

        @Override
        public Set<String> getTrailerNames() {
            return body.getTrailerNames();
        }
    }
}
