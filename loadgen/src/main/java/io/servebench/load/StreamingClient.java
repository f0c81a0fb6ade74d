package io.servebench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.http.Call;
import io.servebench.http.ClientParams;
import io.servebench.http.Http1Client;
import io.servebench.http.HttpFailure;
import io.servebench.wire.http.Origin;
import io.servebench.http.CpuTime;
import io.servebench.http.PoolStats;
import io.servebench.http.PreparedRequest;
import io.servebench.http.ResponseHandler;
import io.servebench.workload.RequestSpec;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Sends streaming completion requests over HTTP/1.1 ({@link Http1Client}) and measures each one.
 *
 * <p>The send is stamped on the sending thread just before the request's bytes are written to a pooled
 * keep-alive connection; every socket read is stamped before its bytes are looked at, and every event
 * parsed from that read carries that time, even when the read holds several HTTP chunks. The pool holds
 * up to {@link LoadParams#maxInFlight()} connections and is opened ahead with {@link #warm}. Every
 * request is sent exactly once, with no retries, redirects, cookies or compression.
 *
 * <p>{@link #send} never fails: whatever goes wrong (HTTP errors, refused or reset connections,
 * timeouts, malformed streams) comes back as a {@link RequestRecord} with an {@code error}.
 */
final class StreamingClient implements AutoCloseable {

    /** Longest part of an error response body kept in the record, in characters. */
    static final int ERROR_BODY_CHARS = 300;
    // Up to 4 bytes per character in UTF-8: enough bytes for ERROR_BODY_CHARS characters.
    private static final int ERROR_BODY_BYTES = ERROR_BODY_CHARS * 4;

    /** The system property that sets the number of I/O threads. */
    public static final String IO_THREADS_PROPERTY = "servebench.ioThreads";
    /**
     * The system property that, set to {@code false}, keeps the I/O threads sleeping in the selector at any rate of
     * reads: less of the client's CPU per event, read stamps a little later ({@code ClientParams#polling}).
     */
    public static final String POLLING_PROPERTY = "servebench.clientPolling";

    private final Target target;
    private final LoadParams params;
    private final DeltaTokenCounter counter;
    /** Each replica's address, request path and client, in the engine's order; one for most engines. */
    private final Origin[] origins;
    private final String[] paths;
    private final Http1Client[] clients;
    private final Spread spread;
    private final ObjectNode extraBody;
    /** Calls requests off at their time ({@link Cancellation}); null when the load cancels none. */
    private final ScheduledExecutorService canceller;
    /** The requests sent whose response has not ended, to call off when the run is interrupted. */
    private final java.util.Set<Exchange> inFlight = java.util.concurrent.ConcurrentHashMap.newKeySet();

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
        this(List.of(target), Spread.roundRobin(1), params, counter);
    }

    /**
     * A client of several replicas of one engine, the requests spread over them by {@code spread}; each replica has
     * its own connections (up to the pool's size each).
     *
     * @param targets the replicas, serving the same model
     */
    public StreamingClient(List<Target> targets, Spread spread, LoadParams params, DeltaTokenCounter counter) {
        if (targets.isEmpty() || targets.size() != spread.replicas()) {
            throw new IllegalArgumentException("expected one weight per replica, got " + targets.size() + " replicas and "
                    + spread.weights());
        }
        this.target = Objects.requireNonNull(targets.get(0), "target");
        this.params = Objects.requireNonNull(params, "params");
        this.counter = Objects.requireNonNull(counter, "counter");
        this.spread = spread;
        // parsed once; RequestBodies only reads it, so one node serves every request
        this.extraBody = params.extraBody() == null ? null : io.servebench.workload.BodyFields.parse(params.extraBody());
        int n = targets.size();
        origins = new Origin[n];
        paths = new String[n];
        clients = new Http1Client[n];
        for (int i = 0; i < n; i++) {
            String base = targets.get(i).baseUri().toString();
            URI uri = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + params.api().path());
            origins[i] = Origin.of(uri);
            paths[i] = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            clients[i] = new Http1Client(origins[i], new ClientParams(params.connectTimeout(), params.requestTimeout(),
                    params.maxInFlight(), ioThreads(), !"false".equals(System.getProperty(POLLING_PROPERTY)), null));
        }
        this.canceller = !params.cancellation().any() ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "request canceller");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Selector threads reading responses: {@value #IO_THREADS_PROPERTY} when set, else one per two cores
     * (at least one, at most eight). Measured with {@code loadcheck} at 5,000 requests/s x 100 tokens on 16
     * cores (see docs/measurement-truth.md): four threads, each some 80% busy, left a TTFT error P99 of 9.6 ms, eight
     * threads 0.47 ms.
     */
    static int ioThreads() {
        int cores = Runtime.getRuntime().availableProcessors();
        return Math.max(1, Integer.getInteger(IO_THREADS_PROPERTY, Math.min(8, cores / 2)));
    }

    /**
     * Opens {@code connections} connections (at most the pool's size) before the first send, so that no
     * send waits for a TCP connect or TLS handshake, and waits for them at most the connect timeout; from
     * then on keeps {@code spare} idle ones on hand, opening more as sends take them.
     *
     * @return how many were established
     */
    public int warm(int connections, int spare) {
        int total = spread.weights().stream().mapToInt(Integer::intValue).sum();
        int warmed = 0;
        for (int i = 0; i < clients.length; i++) {
            // each replica its share, rounded up
            int share = spread.weights().get(i);
            warmed += clients[i].warm((connections * share + total - 1) / total, (spare * share + total - 1) / total,
                    params.connectTimeout());
        }
        return warmed;
    }

    /** What the connection pools did so far: sends that waited for a connection, connect failures. */
    public PoolStats poolStats() {
        PoolStats stats = clients[0].stats();
        for (int i = 1; i < clients.length; i++) {
            stats = stats.plus(clients[i].stats());
        }
        return stats;
    }

    /** The CPU time of the client's I/O threads so far. */
    public CpuTime ioCpu() {
        CpuTime cpu = CpuTime.ZERO;
        for (Http1Client c : clients) {
            cpu = cpu.plus(c.ioCpu());
        }
        return cpu;
    }

    /**
     * Sends {@code spec} now. The returned future completes, never exceptionally, when the response has
     * ended or the request has failed.
     *
     * @param spec       the request; its {@link RequestSpec#index()} becomes the record's id and, after
     *                   {@link LoadParams#requestIdPrefix()}, the {@code X-Request-Id} header
     * @param intendedNs the request's intended send time ({@link System#nanoTime()} time), recorded as is
     */
    public CompletableFuture<RequestRecord> send(RequestSpec spec, long intendedNs) {
        return send(prepare(spec), intendedNs);
    }

    /**
     * A request built ahead of its send time: building the head and serialising the body cost more
     * (about a millisecond while the code is still cold) than writing them to the socket, and that time
     * must not land between the intended and the actual send.
     */
    public static final class Prepared {
        private final RequestSpec spec;
        private final PreparedRequest request;
        private final RuntimeException failure;
        /** The response's state, made ahead too: its buffers are allocated before the send, not at it. */
        private final Exchange exchange;
        /** The replica it goes to. */
        private final int replica;

        private Prepared(RequestSpec spec, PreparedRequest request, RuntimeException failure, Exchange exchange,
                         int replica) {
            this.spec = spec;
            this.request = request;
            this.failure = failure;
            this.exchange = exchange;
            this.replica = replica;
        }

        public RequestSpec spec() {
            return spec;
        }
    }

    /** Builds {@code spec}'s request; a spec that cannot be built fails when it is sent, as a record. */
    public Prepared prepare(RequestSpec spec) {
        int replica = spread.replica(spec.index() - spec.turn());
        try {
            PreparedRequest.Builder request = PreparedRequest.post(origins[replica], paths[replica])
                    .header("X-Request-Id", params.requestId(spec.index()))
                    .header("Accept", "text/event-stream");
            if (params.apiKey() != null) {
                request.header("Authorization", "Bearer " + params.apiKey());
            }
            RequestBodies.Body body = RequestBodies.build(params.api(), target, spec, params.continuousUsageStats(),
                    extraBody);
            return new Prepared(spec, request.body("application/json", body.json()), null,
                    new Exchange(spec, body.maxTokens()), replica);
        } catch (RuntimeException e) {
            return new Prepared(spec, null, e, new Exchange(spec, spec.maxTokens()), replica);
        }
    }

    /**
     * Sends a prepared request now; see {@link #send(RequestSpec, long)}.
     *
     * @throws IllegalStateException when {@code prepared} was sent before
     */
    public CompletableFuture<RequestRecord> send(Prepared prepared, long intendedNs) {
        Exchange exchange = prepared.exchange;
        exchange.start(intendedNs);
        inFlight.add(exchange);
        if (prepared.failure != null) {
            exchange.fail("client: " + prepared.failure.getClass().getName() + ": " + prepared.failure.getMessage(),
                    System.nanoTime());
        } else {
            exchange.call = clients[prepared.replica].send(prepared.request, exchange);
        }
        return exchange.result;
    }

    private static String seconds(java.time.Duration d) {
        return String.format(Locale.ROOT, "%.3f s", d.toNanos() / 1e9);
    }

    /**
     * Calls off every request in flight now, as {@link Cancellation} calls one off (its connection closed, the request
     * recorded as cancelled with {@code why}): the run was interrupted. A request whose send has not returned yet is
     * left to the next call. Any thread.
     */
    public void abortAll(String why) {
        for (Exchange x : inFlight) {
            Call c = x.call;
            if (c != null) {
                c.abort(HttpFailure.CLIENT_CANCEL, "called off: the run was interrupted (" + why + ")");
            }
        }
    }

    /** Closes all connections; requests still in flight fail as cancelled. */
    @Override
    public void close() {
        if (canceller != null) {
            canceller.shutdownNow();
        }
        for (Http1Client c : clients) {
            c.close();
        }
    }

    /**
     * The state of one request: reads its response and completes its future exactly once. Package-private
     * for {@code EventPath} (a test fixture of this module), which drives it without a socket.
     */
    final class Exchange implements ResponseHandler {

        private enum Mode { STREAM, ERROR_BODY, NOT_AN_EVENT_STREAM }

        final CompletableFuture<RequestRecord> result = new CompletableFuture<>();
        /** The request on the wire, to call off; set once it is handed to the client. */
        volatile Call call;
        /** Whether the call-off after the first token is scheduled; on the I/O thread. */
        private boolean cancelScheduled;
        private final RequestSpec spec;
        private final int askedTokens;
        private long intendedNs = RequestRecord.NONE;
        private final SseParser parser = new SseParser();
        private final StreamAccumulator accumulator;
        private volatile long sentNs = RequestRecord.NONE;
        private byte[] bodyHead;
        private int bodyHeadLength;
        private Mode mode;
        private int status;
        private String contentType;
        private long doneNs = RequestRecord.NONE;
        private long readNs = RequestRecord.NONE;

        /** @param askedTokens the output tokens the request asks for: its {@code max_tokens} as sent */
        Exchange(RequestSpec spec, int askedTokens) {
            this.spec = spec;
            this.askedTokens = askedTokens;
            // one event per token at most, so max_tokens is room enough unless events are empty of text
            this.accumulator = new StreamAccumulator(counter, spec.maxTokens());
        }

        /** Set before the request goes to the client; the I/O thread sees it through the client's hand-off. */
        void start(long intended) {
            if (intendedNs != RequestRecord.NONE) {
                throw new IllegalStateException("request " + spec.index() + " was prepared once and sent twice");
            }
            intendedNs = intended;
        }

        @Override
        public void sent(long nowNs) {
            boolean first = sentNs == RequestRecord.NONE;
            sentNs = nowNs;
            Cancellation c = params.cancellation();
            // timed from the request's own send, which on a fresh connection comes once it has connected
            if (first && c.timeout() != null) {
                abortIn(c.timeout().toNanos() - (System.nanoTime() - nowNs), HttpFailure.DEADLINE, "it had not ended "
                        + seconds(c.timeout()) + " after its send (timeoutSeconds)");
            }
            if (first && !c.afterFirstToken() && c.cancels(spec.index())) {
                abortIn(c.delay().toNanos() - (System.nanoTime() - nowNs), HttpFailure.CLIENT_CANCEL, "called off "
                        + seconds(c.delay()) + " after its send (cancellationRate)");
            }
        }

        @Override
        public void head(int code, String type) {
            status = code;
            contentType = type;
            if (status >= 400) {
                mode = Mode.ERROR_BODY;
            } else if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
                mode = Mode.NOT_AN_EVENT_STREAM;
            } else {
                mode = Mode.STREAM;
            }
        }

        @Override
        public boolean body(byte[] bytes, int offset, int length, long nowNs) {
            if (mode != Mode.STREAM) {
                keepBodyHead(bytes, offset, length);
                return true;
            }
            if (accumulator.isFinished()) {
                return true;
            }
            if (nowNs != readNs) {
                // a new read; further calls from the same read (one per HTTP chunk) share its time
                readNs = nowNs;
                accumulator.beginRead(nowNs);
            }
            try {
                parser.feed(bytes, offset, length, accumulator);
            } catch (MalformedStreamException e) {
                accumulator.fail("malformed: " + e.getMessage());
            }
            Cancellation c = params.cancellation();
            if (!cancelScheduled && c.afterFirstToken() && accumulator.firstTokenNs() != RequestRecord.NONE
                    && c.cancels(spec.index())) {
                cancelScheduled = true;
                abortIn(c.delay().toNanos() - (System.nanoTime() - accumulator.firstTokenNs()), HttpFailure.CLIENT_CANCEL,
                        "called off " + seconds(c.delay()) + " after its first token (cancellationRate)");
            }
            if (accumulator.isFinished() && doneNs == RequestRecord.NONE) {
                doneNs = nowNs;
            }
            if (accumulator.error() != null) {
                // abort the exchange: a broken stream may never end on its own
                complete(accumulator.error(), nowNs);
                return false;
            }
            return true;
        }

        /** Calls the request off {@code delayNs} from now as {@code kind}, unless it has ended by then. */
        void abortIn(long delayNs, HttpFailure kind, String detail) {
            canceller.schedule(() -> {
                Call c = call;
                if (result.isDone()) {
                    return;
                }
                if (c == null) {
                    // due before the sender had the call back: a moment later
                    abortIn(TimeUnit.MILLISECONDS.toNanos(1), kind, detail);
                } else {
                    c.abort(kind, detail);
                }
            }, Math.max(0, delayNs), TimeUnit.NANOSECONDS);
        }

        @Override
        public void end(long nowNs) {
            String error = switch (mode) {
                case ERROR_BODY -> "http_" + status + ": " + bodyHeadText();
                case NOT_AN_EVENT_STREAM -> "malformed: status " + status + " with Content-Type " + contentType
                        + " instead of text/event-stream: " + bodyHeadText();
                case STREAM -> streamOutcome();
            };
            complete(error, nowNs);
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

        @Override
        public void failed(HttpFailure failure, String detail, long nowNs) {
            String error;
            if (accumulator.error() != null) {
                error = accumulator.error();
            } else if (status >= 400) {
                error = "http_" + status + ": " + bodyHeadText();
            } else if (accumulator.sawDone() && accumulator.tokenEvents() > 0) {
                // the stream was complete; only the end of the response (e.g. the last chunk) went missing
                error = null;
            } else {
                error = failure.describe(detail);
            }
            complete(error, nowNs);
        }

        void fail(String error, long nowNs) {
            complete(error, nowNs);
        }

        private void complete(String error, long nowNs) {
            if (doneNs == RequestRecord.NONE) {
                doneNs = nowNs;
            }
            inFlight.remove(this);
            RequestRecord record = accumulator.toRecord(spec.index(), spec.warmup(), intendedNs, sentNs, doneNs,
                    spec.promptTokens(), status, error);
            result.complete(record.succeeded() ? truncated(record) : record);
        }

        /**
         * A stream that ended with {@code finish_reason "length"} short of the tokens asked for was cut by the engine
         * (the model's context was full), not answered: a failure, so that its shorter output does not pass for a
         * whole one. Judged only on the server's own count: counted events may hold several tokens each.
         */
        private RequestRecord truncated(RequestRecord record) {
            if (accumulator.finishReason() != FinishReason.LENGTH || record.outputTokensSource() != TokenSource.USAGE
                    || record.outputTokens() >= askedTokens) {
                return record;
            }
            return record.withError("truncated: the engine stopped at " + record.outputTokens() + " of the "
                    + askedTokens + " tokens asked for (finish_reason \"length\"): the prompt and the output exceed"
                    + " its context");
        }

        private void keepBodyHead(byte[] bytes, int offset, int length) {
            if (bodyHead == null) {
                bodyHead = new byte[ERROR_BODY_BYTES];
            }
            int keep = Math.min(length, ERROR_BODY_BYTES - bodyHeadLength);
            System.arraycopy(bytes, offset, bodyHead, bodyHeadLength, keep);
            bodyHeadLength += keep;
        }

        private String bodyHeadText() {
            String text = bodyHead == null ? "" : new String(bodyHead, 0, bodyHeadLength, StandardCharsets.UTF_8).strip();
            return text.length() <= ERROR_BODY_CHARS ? text : text.substring(0, ERROR_BODY_CHARS);
        }
    }
}
