package io.servebench.load;

import io.servebench.wire.http.HttpServer;
import io.servebench.wire.http.ResponseStream;
import io.servebench.wire.http.ServerRequest;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 server for tests that answers each request by running a script: write an SSE
 * chunk and flush it, pause, end, close the connection abruptly, stall. It serves through the wire layer's
 * {@link HttpServer}, as the simulated engine does; each script runs on a thread of its own and each of its writes
 * waits until the event loop has handed the chunk to the kernel, so every chunk is one write and one flush, and it
 * records when each chunk was flushed ({@link System#nanoTime()}, comparable with the client's timestamps in the
 * same JVM).
 */
final class ScriptedSseServer implements AutoCloseable {

    /** A request as received. Header names are lower case. */
    record Received(String method, String path, Map<String, String> headers, String body) {
        String requestId() {
            return headers.get("x-request-id");
        }
    }

    @FunctionalInterface
    interface Script {
        void respond(Received request, Responder out) throws IOException, InterruptedException;
    }

    /** Thrown by {@link Responder#closeAbruptly()} to end the script. */
    private static final class Abort extends RuntimeException {
        Abort() {
            super(null, null, false, false);
        }
    }

    private final Script script;
    private final HttpServer http;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-sse-server");
        t.setDaemon(true);
        return t;
    });
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, List<Flush>> flushTimes = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    ScriptedSseServer(Script script) throws IOException {
        this.script = script;
        this.http = HttpServer.start("scripted-sse", 0, 1, this::handle);
    }

    URI baseUri() {
        return http.baseUri();
    }

    List<Received> requests() {
        return List.copyOf(received);
    }

    /**
     * When each chunk of the response to request {@code id} was written: {@code startNs} just before the
     * write was handed to the event loop, {@code flushedNs} when the loop's write of it returned. A client cannot
     * read the chunk before {@code startNs}; it may stamp it before {@code flushedNs}.
     */
    record Flush(long startNs, long flushedNs) {
    }

    /** The chunks of the response to request {@code id}, in order. */
    List<Flush> flushTimes(long id) {
        return List.copyOf(flushTimes.getOrDefault(Long.toString(id), List.of()));
    }

    int maxInFlight() {
        return maxInFlight.get();
    }

    @Override
    public void close() {
        http.close();
        threads.shutdownNow();
    }

    private void handle(ServerRequest request, io.servebench.wire.http.Responder responder) {
        Map<String, String> headers = new TreeMap<>();
        request.headers().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v));
        Received r = new Received(request.method(), request.path(), headers,
                new String(request.body(), StandardCharsets.UTF_8));
        received.add(r);
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        List<Flush> times = flushTimes.computeIfAbsent(String.valueOf(r.requestId()),
                k -> Collections.synchronizedList(new ArrayList<>()));
        java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
        // the response has ended once its last write is handed over: the next request on the connection may come
        Runnable finished = () -> {
            if (ended.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        };
        Responder out = new Responder(responder, times, finished);
        responder.onAbandoned(reason -> out.abandoned());
        threads.execute(() -> {
            try {
                script.respond(r, out);
            } catch (Abort | IOException | InterruptedException e) {
                // the script ended the connection, or the client went away
            } finally {
                finished.run();
            }
        });
    }

    /** Writes one response, from the script's thread, each write waiting for the event loop's. */
    static final class Responder {
        private static final long WRITE_TIMEOUT_S = 30;

        private final io.servebench.wire.http.Responder responder;
        private final List<Flush> flushTimes;
        private final Runnable finished;
        /** Counted down when the connection closes before the response ended. */
        private final CountDownLatch gone = new CountDownLatch(1);
        /** The write waiting for the loop, failed when the connection closes first. */
        private volatile CompletableFuture<Long> pending;
        private ResponseStream stream;

        Responder(io.servebench.wire.http.Responder responder, List<Flush> flushTimes, Runnable finished) {
            this.responder = responder;
            this.flushTimes = flushTimes;
            this.finished = finished;
        }

        /** The connection closed before the response ended: what waits for the loop fails, as a broken socket would. */
        void abandoned() {
            gone.countDown();
            CompletableFuture<Long> p = pending;
            if (p != null) {
                p.completeExceptionally(new IOException("the connection closed"));
            }
        }

        /** Sends a chunked {@code 200 text/event-stream} head. */
        Responder eventStreamHead() throws IOException {
            return head(200, "text/event-stream; charset=utf-8");
        }

        Responder head(int status, String contentType) throws IOException {
            stream = responder.stream(status, Map.of("Content-Type", contentType));
            onLoop(done -> stream.flush(done::complete));
            return this;
        }

        /** One HTTP chunk holding {@code text}, flushed at once; its flush time is recorded. */
        Responder chunk(String text) throws IOException {
            return chunk(text.getBytes(StandardCharsets.UTF_8));
        }

        Responder chunk(byte[] bytes) throws IOException {
            long startNs = System.nanoTime();
            long flushedNs = onLoop(done -> {
                stream.chunk(bytes);
                stream.flush(done::complete);
            });
            flushTimes.add(new Flush(startNs, flushedNs));
            return this;
        }

        /** {@code data: <json>} followed by a blank line, as one chunk. */
        Responder event(String json) throws IOException {
            return chunk("data: " + json + "\n\n");
        }

        Responder pause(long millis) throws InterruptedException {
            Thread.sleep(millis);
            return this;
        }

        /** {@code data: [DONE]} and the terminal chunk. */
        void done() throws IOException {
            event("[DONE]");
            end();
        }

        void end() throws IOException {
            onLoop(done -> {
                finished.run();
                stream.end(done::complete);
            });
        }

        /** A complete non-streaming response. */
        void fixed(int status, String contentType, String body) {
            finished.run();
            responder.send(status, contentType, body.getBytes(StandardCharsets.UTF_8));
        }

        /** Closes the connection without ending the response (before its head, when none was sent). */
        void closeAbruptly() throws IOException {
            if (stream == null) {
                stream = responder.stream(200, Map.of());
            }
            onLoop(done -> {
                finished.run();
                stream.abort();
                done.complete(System.nanoTime());
            });
            throw new Abort();
        }

        /** Sends nothing more until the client closes the connection. */
        void stall() throws InterruptedException {
            gone.await(WRITE_TIMEOUT_S, TimeUnit.SECONDS);
            throw new Abort();
        }

        /**
         * Runs {@code write} on the connection's event loop and waits until it completes its future with the time
         * the write returned; fails as a broken socket would when the connection closed first.
         */
        private long onLoop(java.util.function.Consumer<CompletableFuture<Long>> write) throws IOException {
            CompletableFuture<Long> done = new CompletableFuture<>();
            pending = done;
            if (gone.getCount() == 0) {
                throw new IOException("the connection closed");
            }
            responder.execute(() -> {
                if (stream != null && !stream.isOpen()) {
                    done.completeExceptionally(new IOException("the connection is closed"));
                    return;
                }
                write.accept(done);
            });
            try {
                return done.get(WRITE_TIMEOUT_S, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while writing", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IOException("the write did not complete: " + e.getMessage(), e);
            }
        }
    }

    // ---- chunk builders for the OpenAI streaming formats ----

    static String role() {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}";
    }

    static String content(String text) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}";
    }

    static String content(String text, int cumulativeCompletionTokens) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}],\"usage\":{\"prompt_tokens\":7,"
                + "\"completion_tokens\":" + cumulativeCompletionTokens + "}}";
    }

    static String reasoning(String text) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"" + text + "\"}}]}";
    }

    static String text(String text) {
        return "{\"choices\":[{\"index\":0,\"text\":\"" + text + "\"}]}";
    }

    static String usage(int promptTokens, int completionTokens) {
        return "{\"choices\":[],\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":"
                + completionTokens + "}}";
    }
}
