package io.servebench.http;

import io.servebench.wire.http.Origin;
import io.servebench.wire.http.SelfSignedHttps;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class Http1ClientTest {

    private static final ClientParams PARAMS = new ClientParams(Duration.ofSeconds(5), Duration.ofSeconds(5), 4, 1, true, null);

    private RawServer raw;
    private SelfSignedHttps https;

    @AfterEach
    void stop() throws IOException {
        if (raw != null) {
            raw.close();
        }
        if (https != null) {
            https.close();
        }
    }

    /** The outcome of one exchange. */
    record Result(int status, String body, String failure, long sentNs) {
    }

    private static final class Collecting implements ResponseHandler {
        final CompletableFuture<Result> done = new CompletableFuture<>();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        volatile long sentNs;
        int status;

        @Override
        public void sent(long ns) {
            sentNs = ns;
        }

        @Override
        public void head(int s, String contentType) {
            status = s;
        }

        @Override
        public boolean body(byte[] bytes, int offset, int length, long readNs) {
            body.write(bytes, offset, length);
            return true;
        }

        @Override
        public void end(long endNs) {
            done.complete(new Result(status, body.toString(StandardCharsets.UTF_8), null, sentNs));
        }

        @Override
        public void failed(HttpFailure failure, String detail, long nowNs) {
            done.complete(new Result(status, body.toString(StandardCharsets.UTF_8), failure.describe(detail), sentNs));
        }
    }

    private static Result send(Http1Client client, String body) throws Exception {
        Collecting c = new Collecting();
        client.send(request(client.origin(), body), c);
        return c.done.get(10, TimeUnit.SECONDS);
    }

    private static PreparedRequest request(Origin origin, String body) {
        return PreparedRequest.post(origin, "/echo").header("X-Test", "1")
                .body("text/plain", body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void sequentialRequestsShareOneConnection() throws Exception {
        raw = new RawServer(false);
        try (Http1Client client = new Http1Client(raw.origin(), PARAMS)) {
            for (int i = 0; i < 5; i++) {
                Result r = send(client, "hello " + i);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("echo: hello " + i);
                assertThat(r.sentNs()).isNotZero();
            }
            assertThat(raw.connections.get()).isEqualTo(1);
            assertThat(client.stats().opened()).isEqualTo(1);
            assertThat(client.stats().sendsOnNewConnection()).isEqualTo(1);
        }
    }

    @Test
    void warmedConnectionsAreReadyBeforeTheFirstSend() throws Exception {
        raw = new RawServer(false);
        try (Http1Client client = new Http1Client(raw.origin(), PARAMS)) {
            assertThat(client.warm(3, 0, Duration.ofSeconds(5))).isEqualTo(3);
            assertThat(send(client, "a").body()).isEqualTo("echo: a");
            assertThat(client.stats().sendsOnNewConnection()).isZero();
            assertThat(client.stats().note(HostLimits.current())).isEmpty();
            // the kernel completes a connection before the server's accept() returns it
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (raw.connections.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(raw.connections.get()).isEqualTo(3);
        }
    }

    @Test
    void atTheLimitASendWaitsForAConnectionToFreeUp() throws Exception {
        raw = new RawServer(false);
        raw.delayMs = 200;
        ClientParams one = new ClientParams(Duration.ofSeconds(5), Duration.ofSeconds(5), 1, 1, true, null);
        try (Http1Client client = new Http1Client(raw.origin(), one)) {
            Collecting first = new Collecting();
            Collecting second = new Collecting();
            client.send(request(client.origin(), "1"), first);
            client.send(request(client.origin(), "2"), second);
            assertThat(first.done.get(10, TimeUnit.SECONDS).body()).isEqualTo("echo: 1");
            Result r2 = second.done.get(10, TimeUnit.SECONDS);
            assertThat(r2.body()).isEqualTo("echo: 2");
            // written by the I/O thread once the first response ended, so sent after the first one's delay
            assertThat(r2.sentNs() - first.sentNs).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(150));
            assertThat(client.stats().sendsAtLimit()).isEqualTo(1);
            assertThat(raw.connections.get()).isEqualTo(1);
            assertThat(client.stats().note(HostLimits.current())).hasValue("connections: 1 sends waited for a new"
                    + " connection to open; 1 sends waited because all 1 connections (the client's limit) were busy,"
                    + " which shows as schedule lag");
        }
    }

    @Test
    void anIdleConnectionTheServerClosedIsNotHandedOut() throws Exception {
        raw = new RawServer(true);
        try (Http1Client client = new Http1Client(raw.origin(), PARAMS)) {
            assertThat(send(client, "a").body()).isEqualTo("echo: a");
            // the server closes every connection right after its response; the client sees the close while idle
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (client.stats().closedByServer() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(client.stats().closedByServer()).isEqualTo(1);
            assertThat(send(client, "b")).extracting(Result::body, Result::failure).containsExactly("echo: b", null);
            assertThat(raw.connections.get()).isEqualTo(2);
        }
    }

    @Test
    void aRefusedConnectionFailsTheExchangeAsAConnectFailure() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (Http1Client client = new Http1Client(new Origin(false, "127.0.0.1", port), PARAMS)) {
            Result r = send(client, "a");
            assertThat(r.failure()).startsWith("connect: ").contains("127.0.0.1:" + port);
            assertThat(client.stats().connectFailures()).isEqualTo(1);
            assertThat(client.stats().firstConnectFailure()).startsWith("connect: ");
            HostLimits limits = new HostLimits(1024, 1000, 32768, 60999);
            assertThat(client.stats().note(limits)).hasValueSatisfying(note -> assertThat(note)
                    .contains("1 connection attempts failed (first: connect: ")
                    .contains("at most 1,024 open files (ulimit -n), local ports 32768-60999 (28,232)")
                    .doesNotContain("1,000"));
        }
    }

    @Test
    void httpsWithHostVerificationAgainstATrustedCertificate(@TempDir Path dir) throws Exception {
        https = SelfSignedHttps.start(dir, "CN=localhost");
        https.server().createContext("/echo", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 3; i++) {
                    out.write(("data: " + new String(body, StandardCharsets.UTF_8) + i + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        });
        Origin origin = new Origin(true, "127.0.0.1", https.port());
        ClientParams tls = new ClientParams(Duration.ofSeconds(5), Duration.ofSeconds(5), 2, 1, true, https.trusting());
        try (Http1Client client = new Http1Client(origin, tls)) {
            for (int i = 0; i < 3; i++) {
                Result r = send(client, "x" + i);
                assertThat(r.failure()).isNull();
                assertThat(r.body()).isEqualTo("data: x" + i + "0\n\ndata: x" + i + "1\n\ndata: x" + i + "2\n\n");
            }
        }
        // the JVM's default trust store does not know the certificate: the handshake fails, named as such
        ClientParams untrusted = new ClientParams(Duration.ofSeconds(5), Duration.ofSeconds(5), 2, 1, true, null);
        try (Http1Client client = new Http1Client(origin, untrusted)) {
            assertThat(send(client, "y").failure()).startsWith("tls: ");
        }
    }

    /**
     * Answers each request with {@code echo: <body>} (Content-Length framing) after {@link #delayMs}, on a
     * thread per connection; with {@code closeAfterEach} it closes the connection after every response.
     */
    private static final class RawServer implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final AtomicInteger connections = new AtomicInteger();
        final ConcurrentLinkedQueue<Socket> open = new ConcurrentLinkedQueue<>();
        final boolean closeAfterEach;
        volatile long delayMs;

        RawServer(boolean closeAfterEach) throws IOException {
            this.closeAfterEach = closeAfterEach;
            Thread t = new Thread(this::accept, "raw-server");
            t.setDaemon(true);
            t.start();
        }

        Origin origin() {
            return new Origin(false, "127.0.0.1", socket.getLocalPort());
        }

        private void accept() {
            try {
                while (true) {
                    Socket s = socket.accept();
                    connections.incrementAndGet();
                    open.add(s);
                    Thread t = new Thread(() -> serve(s), "raw-connection");
                    t.setDaemon(true);
                    t.start();
                }
            } catch (IOException e) {
                // closed
            }
        }

        private void serve(Socket s) {
            try (s) {
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                while (true) {
                    String head = readHead(in);
                    if (head == null) {
                        return;
                    }
                    int length = 0;
                    for (String line : head.split("\r\n")) {
                        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                            length = Integer.parseInt(line.substring(15).trim());
                        }
                    }
                    String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                    if (delayMs > 0) {
                        Thread.sleep(delayMs);
                    }
                    byte[] reply = ("echo: " + body).getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + reply.length
                            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(reply);
                    out.flush();
                    if (closeAfterEach) {
                        return;
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the client went away
            }
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                        ? matched + 1 : 0;
                if (matched == 4) {
                    return head.toString(StandardCharsets.US_ASCII);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
