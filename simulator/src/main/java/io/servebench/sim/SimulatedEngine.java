package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.servebench.truth.SentEvent;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The simulated inference engine: an HTTP server on 127.0.0.1 that speaks vLLM's OpenAI-compatible API
 * ({@code GET /health}, {@code GET /v1/models}, {@code POST /v1/chat/completions}, {@code POST /v1/completions},
 * streaming or not) and times its tokens with a {@link Scheduler continuous-batching model} of the GPU.
 *
 * <p>Streams are shaped like vLLM's: the first chat chunk carries only {@code delta.role}; token chunks carry
 * {@code delta.content}, or {@code delta.reasoning_content} for the first part of the answer when a reasoning
 * parser is configured; the last token chunk carries {@code finish_reason}; {@code stream_options.include_usage}
 * adds a final chunk with {@code choices: []} and {@code usage}; {@code continuous_usage_stats} puts cumulative
 * usage on every chunk; the stream ends with {@code data: [DONE]}. Every generated token is one made-up word.
 *
 * <p>For each request (identified by its {@code X-Request-Id} header, or a made-up id) the engine keeps
 * {@link GroundTruth}: when it arrived and when each token event was written and flushed. It is available
 * before the stream's {@code [DONE]} (or, without streaming, before the response body ends) is sent, so a
 * client that has read the whole response always finds it. Only an engine {@link #startRecording started
 * recording} keeps it, for its lifetime (about 30 bytes per token event): tests and checks that compare with it
 * read a few thousand requests, while a served engine runs for hours (a 1-hour soak at 10,000 tokens/s would
 * grow it by a gigabyte).
 *
 * <p>One handler thread ({@code sim-http-N}, daemon) serves each open request: it parses the request, sends the
 * head and, at the end, the usage chunk and {@code [DONE]}; one scheduler thread runs the model and lays out each
 * stream's events before they are due; two to four {@link Delivery} threads write them when due. The engine is deterministic for a seed (request lengths, words, draft acceptances are drawn per
 * request id) apart from thread-scheduling jitter in the step timing.
 */
public final class SimulatedEngine implements AutoCloseable {

    static {
        // The JDK server leaves Nagle's algorithm on by default; with small SSE writes and the client's delayed
        // ACKs that would hold events back by up to 40 ms, so token times would not be what the model says.
        // The property is read once, when the JDK server's configuration class loads.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private static final System.Logger LOG = System.getLogger(SimulatedEngine.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Writer threads: one per two cores, from two (a busy machine still has both cores to write on) to four. */
    private static final int DELIVERY_THREADS = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors() / 2));
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private final SimParams settings;
    private final long seed;
    private final SimTokenizer tokenizer = new SimTokenizer();
    private final Scheduler scheduler;
    /** Writes every stream's token events at their due times; see {@link Delivery}. */
    private final Delivery delivery = new Delivery(DELIVERY_THREADS);
    /** The open streams, by their request: the scheduler's emissions for them go to their {@link Response}. */
    private final ConcurrentHashMap<SimRequest, Response> streams = new ConcurrentHashMap<>();
    private final SimMetrics metrics = new SimMetrics();
    private final ExecutorService handlers;
    private final HttpServer server;
    private final URI baseUri;
    /** Each finished request's ground truth, by request id; {@code null} when the engine does not record it. */
    private final ConcurrentHashMap<String, GroundTruth> truths;
    private final AtomicLong madeUpIds = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();

    private SimulatedEngine(SimParams settings, int port, long seed, boolean recording) throws IOException {
        this.settings = settings;
        this.seed = seed;
        this.truths = recording ? new ConcurrentHashMap<>() : null;
        AtomicInteger threads = new AtomicInteger();
        this.handlers = Executors.newCachedThreadPool(task -> {
            Thread t = new Thread(task, "sim-http-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1024);
        server.setExecutor(handlers);
        server.createContext("/", this::handle);
        this.scheduler = new Scheduler(settings, metrics, this::route);
        server.start();
        this.baseUri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /**
     * Starts an engine that keeps no ground truth: its memory does not grow with the requests it serves.
     *
     * @param settings what to imitate; its ignored flags are logged, one line each
     * @param port     the port on 127.0.0.1, 0 for any free one
     * @param seed     seeds every random choice
     * @throws IOException when the port cannot be bound
     */
    public static SimulatedEngine start(SimParams settings, int port, long seed) throws IOException {
        return start(settings, port, seed, false);
    }

    /**
     * Starts an engine that keeps every request's {@link #groundTruth ground truth} for its lifetime, for a test
     * or a check that compares a client's measurements with it.
     *
     * @see #start(SimParams, int, long)
     */
    public static SimulatedEngine startRecording(SimParams settings, int port, long seed) throws IOException {
        return start(settings, port, seed, true);
    }

    private static SimulatedEngine start(SimParams settings, int port, long seed, boolean recording) throws IOException {
        for (String line : settings.startLog()) {
            LOG.log(System.Logger.Level.INFO, line);
        }
        SimulatedEngine engine = new SimulatedEngine(settings, port, seed, recording);
        LOG.log(System.Logger.Level.INFO, "simulated engine serving {0} at {1}", settings.model().name(), engine.baseUri);
        return engine;
    }

    /** Where the OpenAI-compatible API is served: {@code http://127.0.0.1:PORT}, without {@code /v1}. */
    public URI baseUri() {
        return baseUri;
    }

    /** The model id the engine serves, as {@code /v1/models} lists it. */
    public String model() {
        return settings.model().name();
    }

    /** The Prometheus endpoint, {@code /metrics} under {@link #baseUri()}. */
    public URI metricsUri() {
        return baseUri.resolve("/metrics");
    }

    /** The settings the engine runs with. */
    public SimParams params() {
        return settings;
    }

    /**
     * What the engine recorded for a request, empty until its response is complete (or for an unknown id).
     *
     * @throws IllegalStateException when the engine was not {@link #startRecording started recording}
     */
    public Optional<GroundTruth> groundTruth(String requestId) {
        if (truths == null) {
            throw new IllegalStateException("this simulated engine keeps no ground truth: start it with startRecording");
        }
        return Optional.ofNullable(truths.get(requestId));
    }

    private void record(GroundTruth truth) {
        if (truths != null) {
            truths.put(truth.requestId(), truth);
        }
    }

    /** Stops the scheduler (open streams end with an error event) and the server. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        scheduler.close();
        delivery.close();
        server.stop(0);
        handlers.shutdown();
        try {
            if (!handlers.awaitTermination(2, TimeUnit.SECONDS)) {
                handlers.shutdownNow();
            }
        } catch (InterruptedException e) {
            handlers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Where the scheduler's emissions go: an open stream's layout and delivery, or a whole response's handler. */
    private void route(SimRequest request, SimRequest.Emission emission) {
        Response stream = streams.get(request);
        if (stream != null) {
            stream.onEmission(emission);
        } else {
            request.emissions.add(emission);
        }
    }

    private void handle(HttpExchange exchange) {
        long receivedNs = System.nanoTime();
        try (exchange) {
            route(exchange, receivedNs);
        } catch (IOException e) {
            // the client went away mid-response; its request was cancelled where the write failed
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "simulated engine failed on " + exchange.getRequestURI(), e);
        }
    }

    private void route(HttpExchange exchange, long receivedNs) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        String allowed = switch (path) {
            case "/health", "/v1/models", "/metrics" -> "GET";
            case "/v1/chat/completions", "/v1/completions", "/reset_prefix_cache", "/flush_cache", "/tokenize" -> "POST";
            default -> null;
        };
        if (allowed == null) {
            sendJson(exchange, 404, JSON.createObjectNode().put("detail", "Not Found"));
        } else if (settings.apiKey() != null && path.startsWith("/v1/")
                && !("Bearer " + settings.apiKey()).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            // as vLLM's --api-key: every /v1 route wants the bearer token, /health and /metrics do not
            sendJson(exchange, 401, JSON.createObjectNode().put("error", "Unauthorized"));
        } else if (!allowed.equals(method)) {
            exchange.getResponseHeaders().set("Allow", allowed);
            sendJson(exchange, 405, JSON.createObjectNode().put("detail", "Method Not Allowed"));
        } else if (path.equals("/health")) {
            exchange.sendResponseHeaders(200, -1);
        } else if (path.equals("/v1/models")) {
            sendJson(exchange, 200, models());
        } else if (path.equals("/reset_prefix_cache") || path.equals("/flush_cache")) {
            scheduler.resetPrefixCache();
            exchange.sendResponseHeaders(200, -1);
        } else if (path.equals("/tokenize")) {
            tokenize(exchange);
        } else if (path.equals("/metrics")) {
            byte[] text = metrics.render(settings.model().name()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, text.length);
            exchange.getResponseBody().write(text);
        } else {
            completion(exchange, path.equals("/v1/chat/completions"), receivedNs);
        }
    }

    /** {@code /tokenize} as vLLM answers it: the count, the context length, and token ids (made up, one per token). */
    private void tokenize(HttpExchange exchange) throws IOException {
        int count;
        try {
            count = ApiRequest.tokenize(exchange.getRequestBody().readAllBytes(), tokenizer, settings.model().name());
        } catch (ApiError e) {
            sendJson(exchange, e.status, e.body(JSON, settings.dialect()));
            return;
        }
        ObjectNode answer = JSON.createObjectNode().put("count", count).put("max_model_len", settings.maxModelLen());
        com.fasterxml.jackson.databind.node.ArrayNode ids = answer.putArray("tokens");
        for (int i = 0; i < count; i++) {
            ids.add(i);
        }
        sendJson(exchange, 200, answer);
    }

    private ObjectNode models() {
        ObjectNode root = JSON.createObjectNode().put("object", "list");
        root.putArray("data").addObject()
                .put("id", settings.model().name())
                .put("object", "model")
                .put("created", System.currentTimeMillis() / 1000)
                .put("owned_by", "servebench-sim")
                .put("root", settings.model().name())
                .putNull("parent")
                .put("max_model_len", settings.maxModelLen());
        return root;
    }

    private void completion(HttpExchange exchange, boolean chat, long receivedNs) throws IOException {
        String header = exchange.getRequestHeaders().getFirst("X-Request-Id");
        String id = header != null && !header.isBlank() ? header : "sim-" + madeUpIds.incrementAndGet();
        byte[] body = exchange.getRequestBody().readAllBytes();
        ApiRequest request;
        try {
            request = ApiRequest.parse(body, chat, tokenizer, settings.model().name(), settings.maxModelLen(),
                    settings.dialect());
        } catch (ApiError e) {
            record(new GroundTruth(id, receivedNs, e.status, false, 0, 0, 0, 0, List.of(), e.getMessage()));
            sendJson(exchange, e.status, e.body(JSON, settings.dialect()));
            return;
        }
        OutputPlan plan = OutputPlan.of(request, settings, seed, id);
        // the front end (parsing, chat template, tokenising) hands the request to the scheduler this much later
        SimRequest work = new SimRequest(id, receivedNs + settings.engine().frontendNanos(), request.promptTokens(),
                request.blockHashes(), plan.tokens(), Seeds.forRequest(seed, id, 3));
        Response response = new Response(id, chat, request, plan, work, receivedNs);
        try {
            if (request.stream()) {
                // the stream is open and routed before the scheduler can emit for it
                response.open(exchange);
                streams.put(work, response);
                scheduler.submit(work);
                response.stream();
            } else {
                scheduler.submit(work);
                response.whole(exchange);
            }
        } finally {
            streams.remove(work);
            // a no-op once the request finished; frees its place in the batch when the client left early
            work.cancelled = true;
        }
    }

    /** Writes one request's answer and records its ground truth. */
    private final class Response {
        private final String requestId;
        private final String responseId;
        private final boolean chat;
        private final ApiRequest request;
        private final OutputPlan plan;
        private final SimRequest work;
        private final long receivedNs;
        private final long created = System.currentTimeMillis() / 1000;
        private final OutputPlan.Words words;
        private final List<SentEvent> events = new ArrayList<>();
        /** Counted down by the delivery thread when the stream's last event was written or failed. */
        private final CountDownLatch finished = new CountDownLatch(1);
        private OutputStream out;
        private boolean firstEmission = true;
        private int sent;
        private boolean firstTokenSeen;
        private volatile String failure;
        private volatile IOException writeFailure;

        Response(String requestId, boolean chat, ApiRequest request, OutputPlan plan, SimRequest work, long receivedNs) {
            this.requestId = requestId;
            this.responseId = (chat ? "chatcmpl-" : "cmpl-") + requestId;
            this.chat = chat;
            this.request = request;
            this.plan = plan;
            this.work = work;
            this.receivedNs = receivedNs;
            this.words = new OutputPlan.Words(plan.wordSeed());
        }

        /** Sends the stream's head; its events follow from {@link #onEmission}. */
        void open(HttpExchange exchange) throws IOException {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            exchange.sendResponseHeaders(200, 0);
            out = exchange.getResponseBody();
        }

        /**
         * Lays out an emission's SSE events (on the scheduler's thread, before they are due) and hands them to the
         * delivery thread, which writes them when due.
         */
        void onEmission(SimRequest.Emission emission) {
            List<byte[]> frames = new ArrayList<>(3);
            // per frame: the tokens it carries, null for the role and error chunks
            List<TokenPart> tokenEvents = new ArrayList<>(3);
            try {
                if (emission.failure() != null) {
                    ObjectNode error = JSON.createObjectNode();
                    error.putObject("error").put("message", emission.failure()).put("type", "InternalServerError")
                            .put("code", 500);
                    frames.add(frame(error));
                    tokenEvents.add(null);
                } else {
                    if (firstEmission && chat) {
                        ObjectNode role = chunk();
                        ObjectNode choice = ((ArrayNode) role.get("choices")).addObject().put("index", 0);
                        choice.putObject("delta").put("role", "assistant").put("content", "");
                        choice.putNull("logprobs").putNull("finish_reason");
                        addContinuousUsage(role);
                        frames.add(frame(role));
                        tokenEvents.add(null);
                    }
                    int left = emission.tokens();
                    while (left > 0) {
                        // an emission that crosses from reasoning to content is sent as two events, as the parser would
                        boolean reasoning = plan.isReasoning(sent);
                        int part = reasoning ? Math.min(left, plan.reasoningTokens() - sent) : left;
                        left -= part;
                        sent += part;
                        frames.add(frame(tokenChunk(words.next(part), reasoning, emission.last() && left == 0)));
                        tokenEvents.add(new TokenPart(part, reasoning));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot lay out an SSE event", e);
            }
            firstEmission = false;
            delivery.offer(this, new EmissionWrite(emission, frames, tokenEvents));
        }

        /** One emission's events, written by the delivery thread at their due time. */
        private final class EmissionWrite implements Delivery.Write {
            private final SimRequest.Emission emission;
            private final List<byte[]> frames;
            private final List<TokenPart> tokenEvents;

            EmissionWrite(SimRequest.Emission emission, List<byte[]> frames, List<TokenPart> tokenEvents) {
                this.emission = emission;
                this.frames = frames;
                this.tokenEvents = tokenEvents;
            }

            @Override
            public long dueNs() {
                return emission.dueNs();
            }

            @Override
            public void write() {
                if (finished.getCount() == 0) {
                    return;
                }
                try {
                    for (int i = 0; i < frames.size(); i++) {
                        out.write(frames.get(i));
                        out.flush();
                        TokenPart part = tokenEvents.get(i);
                        if (part != null) {
                            long written = System.nanoTime();
                            events.add(new SentEvent(written, part.tokens(), part.reasoning(), emission.dueNs()));
                            metrics.observeLateness(written - emission.dueNs());
                            if (!firstTokenSeen) {
                                firstTokenSeen = true;
                                metrics.observeTtft((written - receivedNs) / 1e9);
                            }
                        }
                    }
                } catch (IOException e) {
                    writeFailure = e;
                    work.cancelled = true;
                    finished.countDown();
                    return;
                }
                if (emission.failure() != null) {
                    failure = emission.failure();
                    finished.countDown();
                } else if (emission.last()) {
                    finished.countDown();
                }
            }
        }

        /** Waits for the stream's last event, then ends it: usage, ground truth, {@code [DONE]}. */
        void stream() throws IOException {
            boolean interrupted = false;
            while (true) {
                try {
                    finished.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (writeFailure != null) {
                publish(200, "client disconnected: " + writeFailure.getMessage());
                throw writeFailure;
            }
            try {
                if (failure == null && request.includeUsage()) {
                    ObjectNode usage = chunk();
                    usage.set("usage", usage(sent));
                    writeEvent(out, usage);
                }
                publish(200, failure);
                out.write(DONE);
                out.flush();
            } catch (IOException e) {
                publish(200, "client disconnected: " + e.getMessage());
                throw e;
            }
        }

        void whole(HttpExchange exchange) throws IOException {
            SimRequest.Emission emission;
            do {
                emission = take();
                awaitDue(emission);
            } while (!emission.last());
            if (emission.failure() != null) {
                publish(500, emission.failure());
                ObjectNode error = JSON.createObjectNode();
                error.putObject("error").put("message", emission.failure()).put("type", "InternalServerError").put("code", 500);
                sendJson(exchange, 500, error);
                return;
            }
            String reasoning = words.next(plan.reasoningTokens());
            String content = words.next(plan.tokens() - plan.reasoningTokens());
            ObjectNode body = JSON.createObjectNode()
                    .put("id", responseId)
                    .put("object", chat ? "chat.completion" : "text_completion")
                    .put("created", created)
                    .put("model", settings.model().name());
            ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
            if (chat) {
                ObjectNode message = choice.putObject("message").put("role", "assistant").put("content", content);
                if (settings.reasoning().isPresent()) {
                    message.put("reasoning_content", plan.reasoningTokens() > 0 ? reasoning : null);
                }
            } else {
                choice.put("text", reasoning + content);
            }
            choice.putNull("logprobs").put("finish_reason", plan.finishReason()).putNull("stop_reason");
            body.set("usage", usage(plan.tokens()));
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            // chunked, so the body only ends at close(), after the ground truth is published
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            out.write(JSON.writeValueAsBytes(body));
            out.flush();
            long written = System.nanoTime();
            metrics.observeLateness(written - emission.dueNs());
            if (plan.reasoningTokens() > 0) {
                events.add(new SentEvent(written, plan.reasoningTokens(), true, emission.dueNs()));
            }
            if (plan.tokens() > plan.reasoningTokens()) {
                events.add(new SentEvent(written, plan.tokens() - plan.reasoningTokens(), false, emission.dueNs()));
            }
            sent = plan.tokens();
            publish(200, null);
        }

        /** The request's next emission, as soon as the scheduler made it (before it is due). */
        private SimRequest.Emission take() {
            try {
                return work.emissions.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return SimRequest.Emission.failed("engine is shut down");
            }
        }

        /** Waits for the instant the model says the emission's tokens leave. */
        private void awaitDue(SimRequest.Emission emission) {
            for (long wait = emission.dueNs() - System.nanoTime(); wait > 0; wait = emission.dueNs() - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            if (!firstTokenSeen && emission.tokens() > 0) {
                firstTokenSeen = true;
                metrics.observeTtft((System.nanoTime() - receivedNs) / 1e9);
            }
        }

        private ObjectNode chunk() {
            ObjectNode chunk = JSON.createObjectNode()
                    .put("id", responseId)
                    .put("object", chat ? "chat.completion.chunk" : "text_completion")
                    .put("created", created)
                    .put("model", settings.model().name());
            chunk.putArray("choices");
            return chunk;
        }

        private ObjectNode tokenChunk(String text, boolean reasoning, boolean last) {
            ObjectNode chunk = chunk();
            ObjectNode choice = ((ArrayNode) chunk.get("choices")).addObject().put("index", 0);
            if (chat) {
                choice.putObject("delta").put(reasoning ? "reasoning_content" : "content", text);
            } else {
                choice.put("text", text);
            }
            choice.putNull("logprobs");
            if (last) {
                choice.put("finish_reason", plan.finishReason()).putNull("stop_reason");
            } else {
                choice.putNull("finish_reason");
            }
            addContinuousUsage(chunk);
            return chunk;
        }

        private void addContinuousUsage(ObjectNode chunk) {
            if (request.continuousUsage()) {
                chunk.set("usage", usage(sent));
            }
        }

        private ObjectNode usage(int completionTokens) {
            return JSON.createObjectNode()
                    .put("prompt_tokens", request.promptTokens())
                    .put("total_tokens", request.promptTokens() + completionTokens)
                    .put("completion_tokens", completionTokens);
        }

        private void publish(int status, String error) {
            record(new GroundTruth(requestId, receivedNs, status, request.stream(), request.promptTokens(),
                    sent, work.cachedTokens, work.preemptions, events, error));
        }
    }

    private static void writeEvent(OutputStream out, ObjectNode event) throws IOException {
        out.write(frame(event));
        out.flush();
    }

    /** The tokens of one token event, before it is written. */
    private record TokenPart(int tokens, boolean reasoning) {
    }

    /** {@code event} as one SSE event: {@code data: JSON} and a blank line. */
    private static byte[] frame(ObjectNode event) throws IOException {
        byte[] json = toBytes(event);
        byte[] frame = new byte[json.length + 8];
        System.arraycopy("data: ".getBytes(StandardCharsets.US_ASCII), 0, frame, 0, 6);
        System.arraycopy(json, 0, frame, 6, json.length);
        frame[frame.length - 2] = '\n';
        frame[frame.length - 1] = '\n';
        return frame;
    }

    private static void sendJson(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        byte[] bytes = toBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static byte[] toBytes(ObjectNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot serialise a JSON tree", e);
        }
    }
}
