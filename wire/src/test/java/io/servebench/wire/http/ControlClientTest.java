package io.servebench.wire.http;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ControlClientTest {

    private final ControlClient client = new ControlClient(Duration.ofSeconds(2));

    @Test
    void getsAndPostsWithTheHeadersGivenAndReadsStatusHeadersAndBody() throws Exception {
        List<ServerRequest> seen = new CopyOnWriteArrayList<>();
        try (HttpServer server = HttpServer.start("control-test", 0, 1, (request, responder) -> {
            seen.add(request);
            responder.send(request.path().equals("/missing") ? 404 : 200,
                    Map.of("Content-Type", "text/plain", "X-Echo", request.method()),
                    (request.method() + " " + new String(request.body(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        })) {
            URI base = server.baseUri();
            ControlClient.Reply got = client.get(base.resolve("/metrics?x=1"), Map.of("Authorization", "Bearer k"),
                    Duration.ofSeconds(2));
            assertThat(got.status()).isEqualTo(200);
            assertThat(got.ok()).isTrue();
            assertThat(got.text()).isEqualTo("GET ");
            assertThat(got.headers()).containsEntry("x-echo", "GET").containsEntry("content-type", "text/plain");
            ControlClient.Reply posted = client.post(base.resolve("/tokenize"), Map.of("Content-Type", "application/json"),
                    "{\"a\":1}".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(2));
            assertThat(posted.text()).isEqualTo("POST {\"a\":1}");
            ControlClient.Reply missing = client.get(base.resolve("/missing"), Map.of(), Duration.ofSeconds(2));
            assertThat(missing.status()).isEqualTo(404);
            assertThat(missing.ok()).isFalse();
            assertThat(seen).extracting(ServerRequest::path).containsExactly("/metrics", "/tokenize", "/missing");
            assertThat(seen.get(0).header("authorization")).isEqualTo("Bearer k");
            assertThat(seen.get(0).header("host")).isEqualTo("127.0.0.1:" + base.getPort());
            assertThat(seen.get(1).header("content-type")).isEqualTo("application/json");
        }
    }

    @Test
    void keepsTheConnectionAliveBetweenRequests() throws Exception {
        // a raw server that answers every request on its one connection, then counts the connections it got
        try (ServerSocket listener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread serverThread = new Thread(() -> {
                try (Socket s = listener.accept()) {
                    var in = s.getInputStream();
                    var out = s.getOutputStream();
                    for (int i = 0; i < 3; i++) {
                        readHead(in);
                        out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    }
                } catch (IOException e) {
                    // the test fails on the client's side
                }
            });
            serverThread.setDaemon(true);
            serverThread.start();
            URI uri = URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/health");
            for (int i = 0; i < 3; i++) {
                // a second connection would never be accepted: the calls would time out
                assertThat(client.get(uri, Map.of(), Duration.ofSeconds(2)).text()).isEqualTo("ok");
            }
        }
    }

    @Test
    void aServerThatDoesNotAnswerInTimeIsAnIOExceptionNamingTheRequest() throws Exception {
        try (HttpServer server = HttpServer.start("control-test", 0, 1, (request, responder) -> { })) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.get(server.baseUri().resolve("/health"), Map.of(), Duration.ofMillis(300)))
                    .isInstanceOf(IOException.class).hasMessageContaining("GET http://127.0.0.1:")
                    .hasMessageContaining("/health: no answer within 300 ms");
            assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
        }
    }

    @Test
    void aPortNobodyListensOnAndAClosedConnectionAreIOExceptions() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        assertThatThrownBy(() -> client.get(URI.create("http://127.0.0.1:" + port + "/health"), Map.of(),
                Duration.ofSeconds(2))).isInstanceOf(IOException.class);
        try (ServerSocket listener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread closer = new Thread(() -> {
                try (Socket s = listener.accept()) {
                    readHead(s.getInputStream());
                } catch (IOException e) {
                    // the client sees the close
                }
            });
            closer.setDaemon(true);
            closer.start();
            assertThatThrownBy(() -> client.get(URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/v1/models"),
                    Map.of(), Duration.ofSeconds(2))).isInstanceOf(IOException.class)
                    .hasMessageContaining("closed the connection before it answered");
        }
    }

    @Test
    void onlyHttpAndHttpsUrisAreTaken() {
        assertThatThrownBy(() -> client.get(URI.create("ftp://127.0.0.1/x"), Map.of(), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ftp://127.0.0.1/x must start with http:// or https://");
    }

    @Test
    void speaksTlsToTheJdksHttpsServerTrustingTheContextGivenAndChecksTheHostName(@org.junit.jupiter.api.io.TempDir
                                                                                        java.nio.file.Path dir)
            throws Exception {
        // a certificate for 127.0.0.1 and engine.example, not localhost, served by the JDK's own HTTPS server
        try (SelfSignedHttps https = SelfSignedHttps.start(dir, "CN=engine.example")) {
            https.server().createContext("/version", exchange -> {
                byte[] body = "{\"version\":\"0.17.1\"}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            int port = https.port();
            ControlClient trusting = new ControlClient(Duration.ofSeconds(2), https.trusting());
            for (int i = 0; i < 2; i++) {
                assertThat(trusting.get(URI.create("https://127.0.0.1:" + port + "/version"), Map.of(),
                        Duration.ofSeconds(5)).text()).isEqualTo("{\"version\":\"0.17.1\"}");
            }
            // the certificate names 127.0.0.1 and engine.example, not localhost: the host-name check refuses it
            assertThatThrownBy(() -> trusting.get(URI.create("https://localhost:" + port + "/version"), Map.of(),
                    Duration.ofSeconds(5))).isInstanceOf(IOException.class);
            // the JVM's default trust store does not know the certificate
            assertThatThrownBy(() -> client.get(URI.create("https://127.0.0.1:" + port + "/version"), Map.of(),
                    Duration.ofSeconds(5))).isInstanceOf(IOException.class);
        }
    }

    /** Reads a request head up to its blank line (the requests here have no body). */
    private static void readHead(java.io.InputStream in) throws IOException {
        int matched = 0;
        byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        int b;
        while (matched < 4 && (b = in.read()) >= 0) {
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }
}
