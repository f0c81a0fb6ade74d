package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.truth.SentEvent;
import io.servebench.wire.http.HttpServer;
import io.servebench.wire.http.Responder;
import io.servebench.wire.http.ResponseStream;
import io.servebench.wire.http.ServerRequest;
import io.servebench.wire.openai.Routes;
import io.servebench.wire.openai.StreamChunks;
import io.servebench.workload.SimTokenizer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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
 * <p>It serves on {@link HttpServer}'s event loops ({@code sim-http}, daemon): a loop parses each request and
 * sends its head; one scheduler thread runs the model and lays out each stream's events before they are due, and
 * hands them to the stream's loop timed for their due instant, when the loop writes them (all of a step's streams
 * in one wake-up), then, at the end, the usage chunk and {@code [DONE]}. The engine is deterministic for a seed
 * (request lengths, words, draft acceptances are drawn per request id) apart from thread-scheduling jitter in the
 * step timing.
 */
public final class SimulatedEngine implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SimulatedEngine.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Event loops, and front-end threads: one per two cores, from two to four. A loop writes all of a step's
     * streams that it serves in one wake-up; with a single loop on 2 cores, a step's writes queue behind each other.
     */
    private static final int LOOPS = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors() / 2));
    /** How long {@link #close()} lets the streams' closing error events go out before it closes the connections. */
    private static final long CLOSE_DRAIN_NS = 1_000_000_000L;
    private static final byte[] DONE = StreamChunks.DONE.getBytes(StandardCharsets.US_ASCII);
    private static final Map<String, String> JSON_TYPE = Map.of("Content-Type", "application/json");
    private static final Map<String, String> SSE_HEAD = Map.of("Content-Type", "text/event-stream; charset=utf-8",
            "Cache-Control", "no-cache");

    private final SimParams settings;
    private final long seed;
    private final SimTokenizer tokenizer = new SimTokenizer();
    private final Scheduler scheduler;
    /** The requests being answered: the scheduler's emissions for them go to their {@link Response}. */
    private final ConcurrentHashMap<SimRequest, Response> open = new ConcurrentHashMap<>();
    private final SimMetrics metrics = new SimMetrics();
    private final HttpServer server;
    /**
     * Parses and tokenises requests off the event loops, so that a long prompt does not hold up the token writes
     * due on its loop; the model's own front-end time is added to the arrival, whatever this takes.
     */
    private final ExecutorService frontEnd = Executors.newFixedThreadPool(LOOPS, task -> {
        Thread t = new Thread(task, "sim-frontend");
        t.setDaemon(true);
        return t;
    });
    /** Each finished request's ground truth, by request id; {@code null} when the engine does not record it. */
    private final ConcurrentHashMap<String, GroundTruth> truths;
    private final AtomicLong madeUpIds = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();

    private SimulatedEngine(SimParams settings, InetSocketAddress address, long seed, boolean recording)
            throws IOException {
        this.settings = settings;
        this.seed = seed;
        this.truths = recording ? new ConcurrentHashMap<>() : null;
        this.scheduler = new Scheduler(settings, metrics, this::route);
        try {
            this.server = HttpServer.start("sim-http", address, LOOPS, this::handle);
        } catch (IOException e) {
            scheduler.close();
            frontEnd.shutdownNow();
            throw e;
        }
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
        return start(settings, loopback(port), seed, false);
    }

    /**
     * Starts an engine that keeps no ground truth on another address than 127.0.0.1 ({@code 0.0.0.0} in a container).
     *
     * @see #start(SimParams, int, long)
     */
    public static SimulatedEngine start(SimParams settings, InetSocketAddress address, long seed) throws IOException {
        return start(settings, address, seed, false);
    }

    /**
     * Starts an engine that keeps every request's {@link #groundTruth ground truth} for its lifetime, for a test
     * or a check that compares a client's measurements with it.
     *
     * @see #start(SimParams, int, long)
     */
    public static SimulatedEngine startRecording(SimParams settings, int port, long seed) throws IOException {
        return start(settings, loopback(port), seed, true);
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    private static SimulatedEngine start(SimParams settings, InetSocketAddress address, long seed, boolean recording)
            throws IOException {
        for (String line : settings.startLog()) {
            LOG.log(System.Logger.Level.INFO, line);
        }
        SimulatedEngine engine = new SimulatedEngine(settings, address, seed, recording);
        LOG.log(System.Logger.Level.INFO, "simulated engine serving {0} at {1}", settings.servedModel(), engine.baseUri());
        return engine;
    }

    /** Where the OpenAI-compatible API is served: {@code http://127.0.0.1:PORT}, without {@code /v1}. */
    public URI baseUri() {
        return server.baseUri();
    }

    /** The model id the engine serves, as {@code /v1/models} lists it. */
    public String model() {
        return settings.servedModel();
    }

    /** What the simulated GPUs drew, on the {@link System#nanoTime()} clock: the twin's GPU telemetry. */
    public PowerMeter power() {
        return scheduler.power();
    }

    /** The Prometheus endpoint, {@code /metrics} under {@link #baseUri()}. */
    public URI metricsUri() {
        return baseUri().resolve(Routes.METRICS);
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

    /**
     * Stops the scheduler (open streams end with an error event, given a second to go out) and the server.
     * Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        scheduler.close();
        long deadline = System.nanoTime() + CLOSE_DRAIN_NS;
        while (!open.isEmpty() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(1_000_000);
        }
        server.close();
        frontEnd.shutdownNow();
    }

    /** Where the scheduler's emissions go: the response of a request still being answered. */
    private void route(SimRequest request, SimRequest.Emission emission) {
        Response response = open.get(request);
        if (response != null) {
            response.onEmission(emission);
        }
    }

    private void handle(ServerRequest request, Responder responder) {
        String path = request.path();
        String method = request.method();
        String allowed = switch (path) {
            case Routes.HEALTH, Routes.MODELS, Routes.METRICS -> "GET";
            case Routes.CHAT_COMPLETIONS, Routes.COMPLETIONS, "/reset_prefix_cache", "/flush_cache", "/tokenize" -> "POST";
            default -> null;
        };
        if (allowed == null) {
            sendJson(responder, 404, JSON.createObjectNode().put("detail", "Not Found"));
        } else if (!authorized(path, request.header("Authorization"))) {
            sendJson(responder, 401, JSON.createObjectNode().put("error", "Unauthorized"));
        } else if (!allowed.equals(method)) {
            responder.send(405, Map.of("Allow", allowed, "Content-Type", "application/json"),
                    toBytes(JSON.createObjectNode().put("detail", "Method Not Allowed")));
        } else if (path.equals(Routes.HEALTH)) {
            responder.send(200, (String) null, new byte[0]);
        } else if (path.equals(Routes.MODELS)) {
            sendJson(responder, 200, models());
        } else if (path.equals("/reset_prefix_cache") || path.equals("/flush_cache")) {
            resetPrefixCache(responder);
        } else if (path.equals("/tokenize")) {
            onFrontEnd(responder, () -> tokenize(request, responder));
        } else if (path.equals(Routes.METRICS)) {
            responder.send(200, "text/plain; version=0.0.4; charset=utf-8",
                    metrics.render(settings.servedModel(), settings.dialect()).getBytes(StandardCharsets.UTF_8));
        } else {
            onFrontEnd(responder, () -> completion(request, responder, path.equals(Routes.CHAT_COMPLETIONS)));
        }
    }

    /**
     * Whether a request with this {@code Authorization} header may use {@code path}. vLLM's middleware guards only
     * {@code /v1} ({@code vllm/entrypoints/openai/server_utils.py}); SGLang's lets {@code /health*} and {@code /metrics*}
     * through, wants the admin key on {@code /flush_cache} when one is set (and then not the API key), else the API key
     * ({@code python/sglang/srt/utils/auth.py}, the same in 0.5.9 and 0.5.18).
     */
    private boolean authorized(String path, String authorization) {
        if (settings.dialect() != SimDialect.SGLANG) {
            return settings.apiKey() == null || !path.startsWith("/v1/") || bearer(authorization, settings.apiKey());
        }
        if (path.startsWith(Routes.HEALTH) || path.startsWith(Routes.METRICS)) {
            return true;
        }
        String key = path.equals("/flush_cache") && settings.adminApiKey() != null ? settings.adminApiKey()
                : settings.apiKey();
        return key == null || bearer(authorization, key);
    }

    private static boolean bearer(String authorization, String key) {
        if (authorization == null) {
            return false;
        }
        String[] parts = authorization.split(" ", 2);
        return parts.length == 2 && parts[0].equalsIgnoreCase("bearer") && java.security.MessageDigest.isEqual(
                parts[1].getBytes(StandardCharsets.UTF_8), key.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Empties the prefix cache when no request is in the engine, and answers as the engine does: SGLang 200 or 400 with
     * plain text ({@code http_server.py}'s {@code flush_cache}; the scheduler refuses while requests run or wait), vLLM
     * 200 with {@code {"success": bool}} (its newer dev cache router; the cache cannot be reset while blocks are held).
     */
    private void resetPrefixCache(Responder responder) {
        boolean idle = open.isEmpty();
        if (idle) {
            scheduler.resetPrefixCache();
        }
        if (settings.dialect() == SimDialect.SGLANG) {
            responder.send(idle ? 200 : 400, "text/plain; charset=utf-8", (idle ? "Cache flushed.\nPlease check backend"
                    + " logs for more details. (When there are running or waiting requests, the operation will not be"
                    + " performed.)\n" : "Flush cache failed.\n").getBytes(StandardCharsets.UTF_8));
        } else {
            sendJson(responder, 200, JSON.createObjectNode().put("success", idle));
        }
    }

    /** Runs a request's parsing on the front end; a bug there is logged and answered 500, as on the loop. */
    private void onFrontEnd(Responder responder, Runnable work) {
        frontEnd.execute(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "the simulated engine failed on a request", e);
                sendJson(responder, 500, JSON.createObjectNode().put("object", "error")
                        .put("message", "internal error: " + e.getMessage()));
            }
        });
    }

    /** {@code /tokenize} as vLLM answers it: the count, the context length, and token ids (made up, one per token). */
    private void tokenize(ServerRequest request, Responder responder) {
        int count;
        try {
            count = ApiRequest.tokenize(request.body(), tokenizer, settings);
        } catch (ApiError e) {
            sendJson(responder, e.status, e.body(JSON, settings.dialect()));
            return;
        }
        ObjectNode answer = JSON.createObjectNode().put("count", count).put("max_model_len", settings.maxModelLen());
        ArrayNode ids = answer.putArray("tokens");
        for (int i = 0; i < count; i++) {
            ids.add(i);
        }
        sendJson(responder, 200, answer);
    }

    private ObjectNode models() {
        ObjectNode root = JSON.createObjectNode().put("object", "list");
        ArrayNode data = root.putArray("data");
        // vLLM lists each of --served-model-name's names, its root the model's path
        for (String name : settings.servedNames().isEmpty() ? List.of(settings.model().name()) : settings.servedNames()) {
            data.addObject()
                    .put("id", name)
                    .put("object", "model")
                    .put("created", System.currentTimeMillis() / 1000)
                    .put("owned_by", "servebench-sim")
                    .put("root", settings.model().name())
                    .putNull("parent")
                    .put("max_model_len", settings.maxModelLen());
        }
        return root;
    }

    private void completion(ServerRequest http, Responder responder, boolean chat) {
        long receivedNs = http.receivedNs();
        String header = http.header("X-Request-Id");
        String id = header != null && !header.isBlank() ? header : "sim-" + madeUpIds.incrementAndGet();
        ApiRequest request;
        try {
            request = ApiRequest.parse(http.body(), chat, tokenizer, settings);
        } catch (ApiError e) {
            record(new GroundTruth(id, receivedNs, e.status, false, 0, 0, 0, 0, List.of(), e.getMessage()));
            sendJson(responder, e.status, e.body(JSON, settings.dialect()));
            return;
        }
        OutputPlan plan = OutputPlan.of(request, settings, seed, id);
        // the front end (parsing, chat template, tokenising) hands the request to the scheduler this much later
        SimRequest work = new SimRequest(id, receivedNs + settings.engine().frontendNanos(), request.promptTokens(),
                request.blockHashes(), plan.tokens(), Seeds.forRequest(seed, id, 3));
        work.adapter = request.adapter();
        work.maxNewTokens = plan.maxTokens();
        if (request.baseFallback()) {
            // what SGLang does without a word, and no metric shows: said here, in the engine's log
            LOG.log(System.Logger.Level.WARNING, "request {0} names model \"{1}\", which this server does not serve;"
                    + " SGLang runs the base model {2} for it without an error (an adapter is \"{2}:ADAPTER\")", id,
                    request.model(), settings.servedModel());
        }
        Response response = new Response(id, chat, request, plan, work, receivedNs, responder);
        // routed before the scheduler can emit for it
        open.put(work, response);
        responder.onAbandoned(response::abandoned);
        if (request.stream()) {
            response.open();
        }
        scheduler.submit(work);
    }

    /**
     * Writes one request's answer and records its ground truth. The scheduler's thread lays out each emission's
     * events ({@link #onEmission}); the connection's event loop writes them at their due time and ends the
     * response, and is the only thread that touches the stream and {@link #events}.
     */
    private final class Response {
        private final String requestId;
        private final String responseId;
        private final boolean chat;
        private final ApiRequest request;
        private final OutputPlan plan;
        private final SimRequest work;
        private final long receivedNs;
        private final Responder responder;
        private final long created = System.currentTimeMillis() / 1000;
        private final OutputPlan.Words words;
        private final StreamChunks chunks;
        // the scheduler's thread
        private boolean firstEmission = true;
        /** Tokens laid out so far; read on the loop after the last emission was handed over. */
        private int sent;
        // the event loop
        private final List<SentEvent> events = new ArrayList<>();
        private ResponseStream stream;
        private boolean firstTokenSeen;
        private boolean done;

        Response(String requestId, boolean chat, ApiRequest request, OutputPlan plan, SimRequest work, long receivedNs,
                 Responder responder) {
            this.requestId = requestId;
            this.responseId = (chat ? "chatcmpl-" : "cmpl-") + requestId;
            this.chat = chat;
            this.request = request;
            this.plan = plan;
            this.work = work;
            this.receivedNs = receivedNs;
            this.responder = responder;
            this.words = new OutputPlan.Words(plan.wordSeed());
            this.chunks = new StreamChunks(chat, responseId, created, settings.servedModel());
        }

        /**
         * Sends the stream's head on the connection's loop; queued there before the scheduler can emit for the
         * request, so it runs before any of its writes.
         */
        void open() {
            responder.execute(() -> {
                stream = responder.stream(200, SSE_HEAD);
                stream.flush(written -> { });
            });
        }

        /**
         * Lays out an emission (on the scheduler's thread, before it is due) and has the loop write it when due:
         * a stream's SSE events, or a whole response at its last emission.
         */
        void onEmission(SimRequest.Emission emission) {
            if (!request.stream()) {
                if (firstEmission && emission.tokens() > 0) {
                    // nothing is written before the end: the engine's TTFT histogram gets the model's first token
                    firstEmission = false;
                    metrics.observeTtft((emission.dueNs() - receivedNs) / 1e9);
                }
                if (emission.last()) {
                    responder.schedule(emission.dueNs(), () -> writeWhole(emission));
                }
                return;
            }
            List<byte[]> frames = new ArrayList<>(3);
            // per frame: the tokens it carries, null for the role and error chunks
            List<TokenPart> tokenEvents = new ArrayList<>(3);
            if (emission.failure() != null) {
                frames.add(ascii(StreamChunks.error(new StringBuilder(), emission.failure(), "InternalServerError", 500)));
                tokenEvents.add(null);
            } else {
                if (firstEmission && chat) {
                    frames.add(ascii(chunks.role(new StringBuilder(), continuousUsage())));
                    tokenEvents.add(null);
                }
                int left = emission.tokens();
                while (left > 0) {
                    // an emission that crosses from reasoning to content is sent as two events, as the parser would
                    boolean reasoning = plan.isReasoning(sent);
                    int part = reasoning ? Math.min(left, plan.reasoningTokens() - sent) : left;
                    left -= part;
                    sent += part;
                    boolean last = emission.last() && left == 0;
                    frames.add(ascii(chunks.token(new StringBuilder(), words.next(part), reasoning,
                            last ? plan.finishReason() : null, continuousUsage())));
                    tokenEvents.add(new TokenPart(part, reasoning));
                }
            }
            firstEmission = false;
            if (emission.last() && emission.failure() == null && request.includeUsage()) {
                frames.add(ascii(chunks.usage(new StringBuilder(), new StreamChunks.Usage(request.promptTokens(), sent))));
                tokenEvents.add(null);
            }
            responder.schedule(emission.dueNs(), () -> writeStreamed(emission, frames, tokenEvents));
        }

        /** Writes an emission's events, on the loop at their due time; the last one ends the stream. */
        private void writeStreamed(SimRequest.Emission emission, List<byte[]> frames, List<TokenPart> tokenEvents) {
            if (done) {
                return;
            }
            for (byte[] frame : frames) {
                stream.chunk(frame);
            }
            stream.flush(written -> {
                for (TokenPart part : tokenEvents) {
                    if (part != null) {
                        events.add(new SentEvent(written, part.tokens(), part.reasoning(), emission.dueNs()));
                        metrics.observeLateness(written - emission.dueNs());
                        if (!firstTokenSeen) {
                            firstTokenSeen = true;
                            metrics.observeTtft((written - receivedNs) / 1e9);
                        }
                    }
                }
                if (emission.last() && !done) {
                    // the truth is there before [DONE] goes out, so a client that read the whole stream finds it
                    done = true;
                    open.remove(work);
                    publish(200, emission.failure());
                    stream.chunk(DONE);
                    stream.end(end -> { });
                }
            });
        }

        /** Writes a whole (not streamed) response, on the loop when its last tokens are due. */
        private void writeWhole(SimRequest.Emission emission) {
            if (done) {
                return;
            }
            done = true;
            open.remove(work);
            if (emission.failure() != null) {
                publish(500, emission.failure());
                ObjectNode error = JSON.createObjectNode();
                error.putObject("error").put("message", emission.failure()).put("type", "InternalServerError").put("code", 500);
                sendJson(responder, 500, error);
                return;
            }
            String reasoning = words.next(plan.reasoningTokens());
            String content = words.next(plan.tokens() - plan.reasoningTokens());
            ObjectNode body = JSON.createObjectNode()
                    .put("id", responseId)
                    .put("object", chat ? "chat.completion" : "text_completion")
                    .put("created", created)
                    .put("model", settings.servedModel());
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
            // stamped as the write is handed to the socket: the truth must be there before the body can be read
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
            sendJson(responder, 200, body);
        }

        /** The connection closed before the response ended: the request leaves the batch. On the loop. */
        void abandoned(String reason) {
            if (done) {
                return;
            }
            done = true;
            open.remove(work);
            work.cancelled = true;
            publish(200, "client disconnected: " + reason);
        }

        /** Usage so far on every event, when the request asked for continuous usage statistics; else none. */
        private StreamChunks.Usage continuousUsage() {
            return request.continuousUsage() ? new StreamChunks.Usage(request.promptTokens(), sent) : null;
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

    /** The tokens of one token event, before it is written. */
    private record TokenPart(int tokens, boolean reasoning) {
    }

    /** An event's text (ASCII, as {@link StreamChunks} writes it) as the bytes of one chunk. */
    private static byte[] ascii(StringBuilder event) {
        byte[] bytes = new byte[event.length()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) event.charAt(i);
        }
        return bytes;
    }

    private static void sendJson(Responder responder, int status, ObjectNode body) {
        responder.send(status, JSON_TYPE, toBytes(body));
    }

    private static byte[] toBytes(ObjectNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot serialise a JSON tree", e);
        }
    }
}
