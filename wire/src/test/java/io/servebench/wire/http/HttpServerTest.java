package io.servebench.wire.http;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The server over a raw socket: what goes over the wire is checked byte by byte, as a client reads it. */
class HttpServerTest {

    private static final String SSE = "text/event-stream";

    @Test
    void answersWholeResponsesOnOneKeepAliveConnectionWithHeadersAndBody() throws Exception {
        List<ServerRequest> seen = new CopyOnWriteArrayList<>();
        try (HttpServer server = HttpServer.start("test-http", 0, 1, (request, responder) -> {
            seen.add(request);
            responder.send(200, "application/json", ("{\"got\":\"" + new String(request.body(), StandardCharsets.UTF_8)
                    + "\"}").getBytes(StandardCharsets.UTF_8));
        }); Socket socket = connect(server)) {
            OutputStream out = socket.getOutputStream();
            out.write(post("/v1/x?debug=1", "abc", "X-Request-Id: r-1\r\n"));
            out.write(post("/v1/y", "de", ""));
            out.flush();
            String replies = readUntil(socket.getInputStream(), "{\"got\":\"de\"}");
            assertThat(replies).startsWith("HTTP/1.1 200 OK\r\n").contains("content-length: 13\r\n")
                    .contains("content-type: application/json\r\n").contains("{\"got\":\"abc\"}");
            assertThat(seen).hasSize(2);
            assertThat(seen.get(0).method()).isEqualTo("POST");
            assertThat(seen.get(0).path()).isEqualTo("/v1/x");
            assertThat(seen.get(0).header("x-request-id")).isEqualTo("r-1");
            assertThat(seen.get(0).header("X-REQUEST-ID")).isEqualTo("r-1");
            assertThat(seen.get(1).header("x-request-id")).isNull();
            assertThat(seen.get(0).receivedNs()).isLessThanOrEqualTo(seen.get(1).receivedNs());
        }
    }

    @Test
    void streamsChunksAtTheirScheduledInstantsAndStampsEachWriteAfterItsDueTime() throws Exception {
        long[] due = new long[3];
        long[] written = new long[3];
        CountDownLatch ended = new CountDownLatch(1);
        try (HttpServer server = HttpServer.start("test-http", 0, 1, (request, responder) -> {
            ResponseStream stream = responder.stream(200, Map.of("Content-Type", SSE));
            stream.flush(t -> { });
            long start = System.nanoTime();
            for (int i = 0; i < 3; i++) {
                int n = i;
                due[n] = start + (n + 1) * 20_000_000L;
                responder.schedule(due[n], () -> {
                    stream.chunk(("data: " + n + "\n\n").getBytes(StandardCharsets.US_ASCII));
                    stream.flush(t -> written[n] = t);
                    if (n == 2) {
                        stream.end(t -> ended.countDown());
                    }
                });
            }
        }); Socket socket = connect(server)) {
            socket.getOutputStream().write(post("/stream", "", ""));
            String reply = readUntil(socket.getInputStream(), "0\r\n\r\n");
            assertThat(ended.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(reply).startsWith("HTTP/1.1 200 OK\r\n").contains("transfer-encoding: chunked\r\n")
                    .endsWith("\r\n\r\n9\r\ndata: 0\n\n\r\n9\r\ndata: 1\n\n\r\n9\r\ndata: 2\n\n\r\n0\r\n\r\n");
            for (int i = 0; i < 3; i++) {
                assertThat(written[i]).as("write %d", i).isGreaterThanOrEqualTo(due[i]);
            }
        }
    }

    /** RFC 9112, 7.1: each chunk is its size in hex, CRLF, the bytes, CRLF; several queued chunks leave in one flush. */
    @Test
    void framesEachQueuedChunkWithItsHexSizeAndSkipsEmptyOnes() throws Exception {
        String a = "a".repeat(26);
        String b = "b".repeat(300);
        try (HttpServer server = HttpServer.start("test-http", 0, 1, (request, responder) -> {
            ResponseStream stream = responder.stream(200, Map.of("Content-Type", SSE));
            responder.execute(() -> {
                stream.chunk(a.getBytes(StandardCharsets.US_ASCII));
                stream.chunk(new byte[0]);
                byte[] padded = ("x" + b + "x").getBytes(StandardCharsets.US_ASCII);
                stream.chunk(padded, 1, 300);
                stream.flush(t -> { });
                stream.end(t -> { });
            });
        }); Socket socket = connect(server)) {
            socket.getOutputStream().write(post("/stream", "", ""));
            String reply = readUntil(socket.getInputStream(), "0\r\n\r\n");
            assertThat(reply).endsWith("\r\n\r\n1a\r\n" + a + "\r\n12c\r\n" + b + "\r\n0\r\n\r\n");
        }
    }

    @Test
    void aRequestPipelinedBehindAStreamWaitsForItsEnd() throws Exception {
        try (HttpServer server = HttpServer.start("test-http", 0, 1, (request, responder) -> {
            if (request.path().equals("/slow")) {
                ResponseStream stream = responder.stream(200, Map.of("Content-Type", SSE));
                responder.schedule(System.nanoTime() + 50_000_000L, () -> {
                    stream.chunk("slow".getBytes(StandardCharsets.US_ASCII));
                    stream.end(t -> { });
                });
            } else {
                responder.send(200, "text/plain", "fast".getBytes(StandardCharsets.US_ASCII));
            }
        }); Socket socket = connect(server)) {
            OutputStream out = socket.getOutputStream();
            out.write(post("/slow", "", ""));
            out.write(post("/fast", "", ""));
            String replies = readUntil(socket.getInputStream(), "fast");
            assertThat(replies.indexOf("slow")).isPositive().isLessThan(replies.indexOf("fast"));
        }
    }

    @Test
    void aClientThatLeavesMidStreamIsReportedAsAbandoned() throws Exception {
        CountDownLatch abandoned = new CountDownLatch(1);
        CountDownLatch headSent = new CountDownLatch(1);
        try (HttpServer server = HttpServer.start("test-http", 0, 1, (request, responder) -> {
            ResponseStream stream = responder.stream(200, Map.of("Content-Type", SSE));
            stream.flush(t -> headSent.countDown());
            responder.onAbandoned(reason -> abandoned.countDown());
        })) {
            Socket socket = connect(server);
            socket.getOutputStream().write(post("/stream", "", ""));
            assertThat(headSent.await(5, TimeUnit.SECONDS)).isTrue();
            socket.close();
            assertThat(abandoned.await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void connectionCloseIsHonouredAfterTheResponse() throws Exception {
        try (HttpServer server = HttpServer.start("test-http", 0, 1,
                (request, responder) -> responder.send(200, (String) null, new byte[0]));
             Socket socket = connect(server)) {
            socket.getOutputStream().write(("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            // read to the end of the stream: the server closes after the response
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(reply).startsWith("HTTP/1.1 200 OK\r\n").contains("content-length: 0\r\n")
                    .contains("connection: close\r\n");
        }
    }

    @Test
    void aHandlerThatThrowsAnswers500AndTheServerServesOn() throws Exception {
        try (HttpServer server = HttpServer.start("test-http", 0, 1, (request, responder) -> {
            if (request.path().equals("/boom")) {
                throw new IllegalStateException("boom");
            }
            responder.send(200, "text/plain", "ok".getBytes(StandardCharsets.US_ASCII));
        }); Socket socket = connect(server)) {
            OutputStream out = socket.getOutputStream();
            out.write(post("/boom", "", ""));
            assertThat(readUntil(socket.getInputStream(), "boom\"}")).startsWith("HTTP/1.1 500");
            try (Socket second = connect(server)) {
                second.getOutputStream().write(post("/fine", "", ""));
                assertThat(readUntil(second.getInputStream(), "ok")).startsWith("HTTP/1.1 200");
            }
        }
    }

    @Test
    void aBusyPortIsAnIoExceptionNamingIt() throws Exception {
        try (HttpServer first = HttpServer.start("test-http", 0, 1, (request, responder) -> { })) {
            int port = first.baseUri().getPort();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> HttpServer.start("test-http", port, 1, (r, s) -> { }))
                    .isInstanceOf(IOException.class).hasMessageContaining("127.0.0.1:" + port);
        }
    }

    private static Socket connect(HttpServer server) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.baseUri().getPort());
        socket.setSoTimeout(5000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    private static byte[] post(String path, String body, String headers) {
        return ("POST " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "Content-Length: " + body.length() + "\r\n\r\n" + body)
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!got.toString(StandardCharsets.US_ASCII).endsWith(end)) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            got.write(buffer, 0, n);
        }
        return got.toString(StandardCharsets.US_ASCII);
    }
}
