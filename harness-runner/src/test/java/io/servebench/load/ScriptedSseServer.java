package io.servebench.load;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 server for tests that answers each request by running a script: write an SSE
 * chunk and flush it, pause, end, close the connection abruptly, stall. Written on raw sockets so that
 * every chunk is one write and one flush, and it records when each chunk was flushed
 * ({@link System#nanoTime()}, comparable with the client's timestamps in the same JVM).
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

    /** Thrown by {@link Responder#closeAbruptly()} to leave the connection loop. */
    private static final class Abort extends RuntimeException {
        Abort() {
            super(null, null, false, false);
        }
    }

    private final ServerSocket serverSocket;
    private final Script script;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-sse-server");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, List<Flush>> flushTimes = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();

    ScriptedSseServer(Script script) throws IOException {
        this.script = script;
        this.serverSocket = new ServerSocket();
        serverSocket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        threads.execute(this::acceptLoop);
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + serverSocket.getLocalPort());
    }

    List<Received> requests() {
        return List.copyOf(received);
    }

    /**
     * When each chunk of the response to request {@code id} was written: {@code startNs} just before the
     * write began, {@code flushedNs} just after the flush returned. A client cannot read the chunk before
     * {@code startNs}; it may stamp it before {@code flushedNs} if this thread is descheduled in between.
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

    int connections() {
        return connections.get();
    }

    @Override
    public void close() throws IOException {
        serverSocket.close();
        for (Socket s : sockets) {
            s.close();
        }
        threads.shutdownNow();
    }

    private void acceptLoop() {
        while (!serverSocket.isClosed()) {
            try {
                Socket socket = serverSocket.accept();
                socket.setTcpNoDelay(true);
                sockets.add(socket);
                connections.incrementAndGet();
                threads.execute(() -> serve(socket));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                Received request = readRequest(in);
                if (request == null) {
                    return;
                }
                received.add(request);
                int now = inFlight.incrementAndGet();
                maxInFlight.accumulateAndGet(now, Math::max);
                try {
                    List<Flush> times = flushTimes.computeIfAbsent(String.valueOf(request.requestId()),
                            k -> Collections.synchronizedList(new ArrayList<>()));
                    script.respond(request, new Responder(socket, in, out, times));
                } finally {
                    inFlight.decrementAndGet();
                }
            }
        } catch (Abort | IOException | InterruptedException e) {
            // the script ended the connection, or the client went away
        } finally {
            sockets.remove(socket);
        }
    }

    private static Received readRequest(InputStream in) throws IOException {
        String requestLine = readLine(in);
        if (requestLine == null || requestLine.isEmpty()) {
            return null;
        }
        String[] parts = requestLine.split(" ");
        Map<String, String> headers = new TreeMap<>();
        for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Received(parts[0], parts[1], headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                String s = line.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            line.write(b);
        }
        return null;
    }

    /** Writes one response. */
    static final class Responder {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final List<Flush> flushTimes;

        Responder(Socket socket, InputStream in, OutputStream out, List<Flush> flushTimes) {
            this.socket = socket;
            this.in = in;
            this.out = out;
            this.flushTimes = flushTimes;
        }

        /** Sends a chunked {@code 200 text/event-stream} head. */
        Responder eventStreamHead() throws IOException {
            return head(200, "text/event-stream; charset=utf-8");
        }

        Responder head(int status, String contentType) throws IOException {
            write(("HTTP/1.1 " + status + " X\r\nContent-Type: " + contentType
                    + "\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return this;
        }

        /** One HTTP chunk holding {@code text}, flushed at once; its flush time is recorded. */
        Responder chunk(String text) throws IOException {
            return chunk(text.getBytes(StandardCharsets.UTF_8));
        }

        Responder chunk(byte[] bytes) throws IOException {
            ByteArrayOutputStream c = new ByteArrayOutputStream();
            c.writeBytes((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            c.writeBytes(bytes);
            c.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            long startNs = System.nanoTime();
            write(c.toByteArray());
            flushTimes.add(new Flush(startNs, System.nanoTime()));
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
            write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }

        /** A complete non-streaming response. */
        void fixed(int status, String contentType, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            write(("HTTP/1.1 " + status + " X\r\nContent-Type: " + contentType + "\r\nContent-Length: "
                    + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            write(bytes);
        }

        /** Closes the connection without ending the response. */
        void closeAbruptly() throws IOException {
            socket.close();
            throw new Abort();
        }

        /** Sends nothing more until the client closes the connection. */
        void stall() throws IOException {
            while (in.read() != -1) {
                // discard; only the client's close ends this
            }
            throw new Abort();
        }

        private void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
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
