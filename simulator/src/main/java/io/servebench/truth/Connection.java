package io.servebench.truth;

import io.servebench.wire.nio.SelectorLoop;
import io.servebench.wire.openai.CompletionRequest;
import io.servebench.wire.openai.InvalidRequestException;
import io.servebench.wire.openai.Routes;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One client connection of the {@link TruthServer}: reads HTTP/1.1 requests one at a time, answers each,
 * and queues what the socket does not take at once. Used by its event loop's thread only.
 */
final class Connection implements SelectorLoop.Ready {

    private static final int MAX_HEAD_BYTES = 64 * 1024;
    private static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    private static final int DEFAULT_MAX_TOKENS = 16;

    private final TruthServer server;
    private final ServerLoop loop;
    private final Script script;
    private final SocketChannel channel;
    private final SelectionKey key;
    private byte[] in = new byte[4096];
    private int inLength;
    private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
    /** The response being written, {@code null} between requests. */
    private Response active;
    private boolean streamOpen;
    private boolean closeAfterResponse;
    private boolean closed;

    /** A response in progress. */
    interface Response {
        /** Everything queued so far reached the kernel at {@code nowNs}. */
        void flushed(long nowNs);

        /** Whether the response's last bytes are queued. */
        boolean allQueued();

        /** Whether the connection is closed after this response. */
        default boolean closesConnection() {
            return false;
        }

        /** Records that the response did not reach its end. */
        void abandoned(String reason);
    }

    Connection(TruthServer server, ServerLoop loop, Script script, SocketChannel channel, SelectionKey key) {
        this.server = server;
        this.loop = loop;
        this.script = script;
        this.channel = channel;
        this.key = key;
    }

    @Override
    public void ready(int readyOps) {
        try {
            if ((readyOps & SelectionKey.OP_READ) != 0) {
                onReadable();
            }
            if (key.isValid() && (readyOps & SelectionKey.OP_WRITE) != 0) {
                drain();
            }
        } catch (IOException e) {
            // one client's broken connection must not stop the others
            close("client_io: " + e.getMessage());
        }
    }

    private void onReadable() throws IOException {
        if (inLength == in.length) {
            if (in.length >= MAX_HEAD_BYTES + MAX_BODY_BYTES) {
                close("oversized: request larger than " + (MAX_HEAD_BYTES + MAX_BODY_BYTES) + " bytes");
                return;
            }
            in = Arrays.copyOf(in, in.length * 2);
        }
        int n = channel.read(ByteBuffer.wrap(in, inLength, in.length - inLength));
        if (n < 0) {
            close("client_closed: the client closed the connection before the response ended");
            return;
        }
        inLength += n;
        if (active == null) {
            nextRequest();
        }
    }

    /** The active stream's next write is due. */
    void writeDue() {
        if (closed || !(active instanceof StreamAdapter adapter) || !adapter.stream().hasNextWrite()) {
            return;
        }
        StreamResponse stream = adapter.stream();
        try {
            send(stream.nextWrite(loop.writeBuffer(), loop.scratchBuffer()));
            if (stream.hasNextWrite()) {
                loop.schedule(stream.nextDueNs(), this);
            }
        } catch (IOException e) {
            close("client_io: " + e.getMessage());
        }
    }

    void close(String reason) {
        if (closed) {
            return;
        }
        closed = true;
        if (active != null) {
            active.abandoned(reason);
        }
        endStream();
        key.cancel();
        try {
            channel.close();
        } catch (IOException e) {
            // the socket is gone either way
        }
    }

    // ---- requests ----

    private void nextRequest() throws IOException {
        int headEnd = indexOfHeadEnd();
        if (headEnd < 0) {
            if (inLength > MAX_HEAD_BYTES) {
                close("oversized: request head larger than " + MAX_HEAD_BYTES + " bytes");
            }
            return;
        }
        String head = new String(in, 0, headEnd, StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\r\n");
        String[] requestLine = lines[0].split(" ");
        if (requestLine.length != 3) {
            respondFixed(400, error("malformed request line: " + lines[0]), null);
            closeAfterResponse = true;
            return;
        }
        int contentLength = 0;
        String requestId = null;
        boolean close = requestLine[2].equals("HTTP/1.0");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = parseLength(value);
                case "x-request-id" -> requestId = value;
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        if (contentLength < 0 || contentLength > MAX_BODY_BYTES) {
            respondFixed(413, error("Content-Length must be 0.." + MAX_BODY_BYTES), null);
            closeAfterResponse = true;
            return;
        }
        int bodyStart = headEnd + 4;
        if (inLength - bodyStart < contentLength) {
            return; // wait for the rest of the body
        }
        long receivedNs = System.nanoTime();
        byte[] body = Arrays.copyOfRange(in, bodyStart, bodyStart + contentLength);
        int consumed = bodyStart + contentLength;
        System.arraycopy(in, consumed, in, 0, inLength - consumed);
        inLength -= consumed;
        closeAfterResponse = close;
        if (server.recordsRequests()) {
            server.record(ReceivedRequest.of(requestLine[0], requestLine[1], lines, body));
        }
        dispatch(requestLine[0], requestLine[1], requestId, body, receivedNs);
    }

    private void dispatch(String method, String path, String requestId, byte[] body, long receivedNs)
            throws IOException {
        String route = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        boolean chat = route.equals(Routes.CHAT_COMPLETIONS);
        if (chat || route.equals(Routes.COMPLETIONS)) {
            if (!method.equals("POST")) {
                respondFixed(405, error(method + " " + route + ": use POST"), null);
                return;
            }
            long arrival = server.nextArrival();
            String id = requestId != null ? requestId : "truth-" + arrival;
            RequestTruth truth = server.register(id, receivedNs);
            CompletionRequest request;
            try {
                request = CompletionRequest.parse(body, chat);
            } catch (InvalidRequestException e) {
                respondFixed(400, error(e.getMessage()), truth);
                return;
            }
            if (script.failure() instanceof Script.Failure.HttpError h) {
                respondFixed(h.status(), "application/json", h.body(), truth);
                return;
            }
            if (script.failure() instanceof Script.Failure.NotAnEventStream n) {
                respondFixed(200, n.contentType(), n.body(), truth);
                return;
            }
            if (script.failure() instanceof Script.Failure.NoAnswer) {
                active = new Unanswered(truth);
                return;
            }
            int tokens = script.tokensPerRequest() > 0 ? script.tokensPerRequest()
                    : request.maxTokens().orElse(DEFAULT_MAX_TOKENS);
            boolean reachedMax = request.maxTokens().isPresent() && tokens >= request.maxTokens().getAsInt();
            StreamResponse stream = new StreamResponse(script, chat, truth, id, arrival, receivedNs, tokens,
                    promptTokens(request.input()), reachedMax ? "length" : "stop");
            startStream(stream);
        } else if (route.equals(Routes.HEALTH) && method.equals("GET")) {
            respondFixed(200, "", null);
        } else if (route.equals(Routes.MODELS) && method.equals("GET")) {
            respondFixed(200, "{\"object\":\"list\",\"data\":[{\"id\":\"" + TruthServer.MODEL
                    + "\",\"object\":\"model\",\"owned_by\":\"servebench\"}]}", null);
        } else {
            respondFixed(404, error("no route " + method + " " + route), null);
        }
    }

    private void startStream(StreamResponse stream) throws IOException {
        active = new StreamAdapter(stream);
        streamOpen = true;
        server.streamOpened();
        send(stream.head());
        if (stream.closesAfterHead()) {
            closeAfterResponse = true;
        } else if (stream.hasNextWrite()) {
            loop.schedule(stream.nextDueNs(), this);
        }
    }

    private void respondFixed(int status, String body, RequestTruth truth) throws IOException {
        respondFixed(status, "application/json", body, truth);
    }

    private void respondFixed(int status, String contentType, String body, RequestTruth truth) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + reason(status) + "\r\ncontent-type: " + contentType + "\r\n"
                + "content-length: " + bytes.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        if (truth != null) {
            truth.respond(status, 0);
        }
        active = new FixedResponse(truth, status);
        send(ByteBuffer.allocate(headBytes.length + bytes.length).put(headBytes).put(bytes).flip());
    }

    // ---- output ----

    private void send(ByteBuffer bytes) throws IOException {
        if (out.isEmpty()) {
            channel.write(bytes);
        }
        if (bytes.hasRemaining()) {
            // the bytes may be the loop's reusable buffer: what waits for the socket gets its own copy
            out.add(ByteBuffer.allocate(bytes.remaining()).put(bytes).flip());
            key.interestOps(key.interestOps() | SelectionKey.OP_WRITE);
        } else {
            drained(System.nanoTime());
        }
    }

    private void drain() throws IOException {
        while (!out.isEmpty()) {
            ByteBuffer head = out.peek();
            channel.write(head);
            if (head.hasRemaining()) {
                return;
            }
            out.poll();
        }
        key.interestOps(key.interestOps() & ~SelectionKey.OP_WRITE);
        drained(System.nanoTime());
    }

    private void drained(long nowNs) throws IOException {
        if (active == null) {
            return;
        }
        active.flushed(nowNs);
        if (!active.allQueued()) {
            return;
        }
        boolean closeNow = closeAfterResponse || active.closesConnection();
        active = null;
        endStream();
        if (closeNow) {
            close("closed: the response asked for it");
        } else if (inLength > 0) {
            nextRequest();
        }
    }

    private void endStream() {
        if (streamOpen) {
            streamOpen = false;
            server.streamClosed();
        }
    }

    // ---- helpers ----

    private int indexOfHeadEnd() {
        for (int i = 0; i + 3 < inLength; i++) {
            if (in[i] == '\r' && in[i + 1] == '\n' && in[i + 2] == '\r' && in[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int parseLength(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A whitespace word count of the prompt (or of every message's content), or its token ids: the usage's prompt tokens. */
    private static int promptTokens(CompletionRequest.Input input) {
        if (input instanceof CompletionRequest.TokenIds ids) {
            return ids.ids().length;
        }
        String text = input instanceof CompletionRequest.Messages chat
                ? chat.messages().stream().map(CompletionRequest.Message::content).collect(Collectors.joining(" "))
                : ((CompletionRequest.Text) input).prompt();
        String s = text.strip();
        return s.isEmpty() ? 0 : s.split("\\s+").length;
    }

    private static String error(String message) {
        return "{\"object\":\"error\",\"message\":\"" + StreamResponse.jsonEscape(message)
                + "\",\"type\":\"BadRequestError\"}";
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 413 -> "Payload Too Large";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    /** A streaming response as a {@link Response}. */
    private record StreamAdapter(StreamResponse stream) implements Response {
        @Override
        public void flushed(long nowNs) {
            stream.flushed(nowNs);
        }

        @Override
        public boolean allQueued() {
            return (stream.allQueued() && !stream.staysOpen()) || stream.closesAfterHead();
        }

        @Override
        public boolean closesConnection() {
            return stream.closesConnection();
        }

        @Override
        public void abandoned(String reason) {
            stream.truth().fail(reason);
        }
    }

    /** A request the script leaves unanswered: nothing is ever queued, and the connection waits for the client to leave. */
    private record Unanswered(RequestTruth truth) implements Response {
        @Override
        public void flushed(long nowNs) {
            // nothing was written
        }

        @Override
        public boolean allQueued() {
            return false;
        }

        @Override
        public void abandoned(String reason) {
            truth.fail(reason);
        }
    }

    /** A complete response written at once; {@code truth} is {@code null} for requests that are not completions. */
    private record FixedResponse(RequestTruth truth, int status) implements Response {
        @Override
        public void flushed(long nowNs) {
            if (truth != null) {
                truth.finish(status >= 400 ? "http_" + status : null);
            }
        }

        @Override
        public boolean allQueued() {
            return true;
        }

        @Override
        public void abandoned(String reason) {
            if (truth != null) {
                truth.fail(reason);
            }
        }
    }
}
