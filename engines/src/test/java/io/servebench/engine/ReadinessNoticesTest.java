package io.servebench.engine;

import com.sun.net.httpserver.HttpServer;
import io.servebench.wire.http.SelfSignedHttps;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A start that takes long says what it waits for while it waits, not only when it gives up: an engine still loading,
 * or an endpoint that answers but is not ready (here a health check that answers 503 for ever).
 */
class ReadinessNoticesTest {

    @Test
    void aLongWaitIsToldWhatItWaitsForThenGivenUp() throws Exception {
        HttpServer server = serving(Map.of("/", new Reply(503, "")));
        List<String> notices = new CopyOnWriteArrayList<>();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            assertThatThrownBy(() -> new Readiness(base, "m", null).await(Duration.ofSeconds(3), () -> null,
                    notices::add, Duration.ofMillis(300), Duration.ofMillis(900)))
                    .hasMessageContaining("not ready after 3 s (waiting for health: GET /health answered 503)");
        } finally {
            server.stop(0);
        }
        // about 0.3, 1.2 and 2.1 s in (the polls' pauses decide when each falls due)
        assertThat(notices).hasSizeBetween(2, 4).allSatisfy(n -> assertThat(n)
                .matches("not ready after [0-2] s of at most 3 s \\(--ready-timeout\\): waiting for its health check"
                        + " \\(GET /health answered 503\\)"));
    }

    @Test
    void aServerThatTakesTheConnectionAndNeverAnswersIsSaidToWhileTheWaitGoesOn() throws Exception {
        // each question waited until the deadline before: 20 minutes without a notice of what the wait was at
        java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try {
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        List<String> notices = new CopyOnWriteArrayList<>();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            assertThatThrownBy(() -> new Readiness(base, "m", null).await(Duration.ofSeconds(4), () -> null,
                    notices::add, Duration.ofMillis(1500), Duration.ofMillis(1500)))
                    .hasMessageStartingWith("not ready after 4 s (waiting for health: GET /health: no answer within ");
        } finally {
            end.countDown();
            server.stop(0);
        }
        // about 1.5 and 3 s in, each question waiting until the next notice is due (a second at least)
        assertThat(notices).hasSizeBetween(1, 3).first().asString().isEqualTo("not ready after 1 s of at most 4 s"
                + " (--ready-timeout): waiting for its health check (GET /health: no answer within 1.5 s)");
    }

    @Test
    void aCertificateTheJvmDoesNotTrustOrOfAnotherHostFailsTheStartAtOnceSayingWhatToDo(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // a certificate for 127.0.0.1 made by the JDK's keytool, served by the JDK's own HTTPS server
        try (SelfSignedHttps https = SelfSignedHttps.start(dir, "CN=engine.example")) {
            https.server().createContext("/", exchange -> {
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            long start = System.nanoTime();
            int port = https.port();
            // this JVM's trust store does not hold it: waited for before, the 20 minutes of --ready-timeout
            URI base = URI.create("https://127.0.0.1:" + port + "/");
            assertThatThrownBy(() -> new Readiness(base, "m", null).await(Duration.ofSeconds(60), () -> null,
                    notice -> { }))
                    .isInstanceOf(EngineStartException.class)
                    .hasMessage(base + ": its TLS certificate is not trusted (unable to find valid certification path to"
                            + " requested target); expected one this JVM trusts: run ServeBench as java"
                            + " -Djavax.net.ssl.trustStore=PATH -jar benchmarks.jar ..., PATH a trust store that holds the"
                            + " server's certificate or its CA (keytool -importcert makes one), or reach the server over"
                            + " http");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
            // trusted, but asked for as localhost, which it does not name: the JDK's own refusal, worded
            javax.net.ssl.SSLContext trusting = https.trusting();
            java.io.IOException otherHost = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> new io.servebench.wire.http.ControlClient(Duration.ofSeconds(2), trusting).get(
                            URI.create("https://localhost:" + port + "/health"), Map.of(), Duration.ofSeconds(5)));
            // the JDK's words ("No name matching localhost found" in 17) vary between its versions
            assertThat(Readiness.certificateRefused(otherHost)).hasValueSatisfying(m -> assertThat(m).matches(
                    "its TLS certificate is not of the host asked \\([^)]*localhost[^)]*\\); expected the server by a"
                            + " name or address its certificate carries \\(its subject alternative names\\)"));
            // a refused connection is no certificate's fault
            assertThat(Readiness.certificateRefused(new java.net.ConnectException("Connection refused"))).isEmpty();
        }
    }

    @Test
    void aQuickStartSaysNothing() throws Exception {
        HttpServer server = serving(Map.of("/health", new Reply(200, ""),
                "/v1/models", new Reply(200, "{\"data\":[{\"id\":\"m\"}]}"),
                "/v1/completions", new Reply(200, "{\"choices\":[{\"text\":\"hi\"}]}")));
        List<String> notices = new CopyOnWriteArrayList<>();
        try {
            new Readiness(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), "m", null)
                    .await(Duration.ofSeconds(10), () -> null, notices::add);
        } finally {
            server.stop(0);
        }
        assertThat(notices).isEmpty();
    }

    @Test
    void aServerWithoutAHealthRouteIsAskedForItsModelsAtOnce() throws Exception {
        // an OpenAI-compatible server without a /health route (it answers 404) is ready when it lists the model and
        // completes, not after --ready-timeout
        assertThat(readyAfter(Map.of("/v1/models", new Reply(200, "{\"data\":[{\"id\":\"m\"}]}"),
                "/v1/completions", new Reply(200, "{\"choices\":[{\"text\":\"hi\"}]}")), "/"))
                .isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aServerBehindAPathPrefixIsAskedUnderThatPrefix() throws Exception {
        // a gateway at http://host/openai/ serves the load at /openai/v1/...: readiness asks there, not at the host's root
        assertThat(readyAfter(Map.of("/openai/health", new Reply(200, ""),
                "/openai/v1/models", new Reply(200, "{\"data\":[{\"id\":\"m\"}]}"),
                "/openai/v1/completions", new Reply(200, "{\"choices\":[{\"text\":\"hi\"}]}"),
                "/", new Reply(500, "the root is another service")), "/openai/")).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aServerOfTheChatApiAloneIsReadyWhenAChatCompletes() throws Exception {
        // no /v1/completions (404): the first completion is asked of the chat API, which the load may well use
        assertThat(readyAfter(Map.of("/health", new Reply(200, ""),
                "/v1/models", new Reply(200, "{\"data\":[{\"id\":\"m\"}]}"),
                "/v1/chat/completions", new Reply(200, "{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}")), "/"))
                .isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aGatewayWithoutAModelListIsReadyWhenACompletionSucceeds() throws Exception {
        // neither /health nor /v1/models (the JDK's server answers 404 for a path it has no context for): a completion
        // of the model is what shows that the gateway serves it
        assertThat(readyAfter(Map.of("/v1/completions", new Reply(200, "{\"choices\":[{\"text\":\"hi\"}]}")), "/"))
                .isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aServerWithoutTheOpenAiApiFailsAtOnceSayingWhatItAnswered() throws Exception {
        // python3 -m http.server: 404 for every GET of a file it does not have, 501 for every POST, as an HTML page
        Reply post = new Reply(501, "<!DOCTYPE HTML>\n<html lang=\"en\">\n    <head>\n        <title>Error response</title>\n"
                + "    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: 501</p>\n"
                + "        <p>Message: Unsupported method ('POST').</p>\n    </body>\n</html>\n");
        HttpServer server = serving(Map.of("/v1/completions", post, "/v1/chat/completions", post));
        long start = System.nanoTime();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            assertThatThrownBy(() -> new Readiness(base, "m", null).await(Duration.ofSeconds(60), () -> null,
                    notice -> { }))
                    .isInstanceOf(EngineStartException.class)
                    .hasMessage(base + " answers, but no route of the OpenAI API under it took a request: GET /v1/models"
                            + " answered 404, POST /v1/completions answered 501, POST /v1/chat/completions 501: Error"
                            + " response Error response Error code: 501 Message: Unsupported method ('POST').; expected the base URL of an OpenAI-compatible server that"
                            + " serves \"m\", the part before /v1 (e.g. http://127.0.0.1:8000)");
        } finally {
            server.stop(0);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void aModelTheServerServesUnderItsFullNameFailsAtOnceNamingIt() throws Exception {
        // vLLM lists the served names as {"data": [{"id": ...}]}; a study that named the model without its organisation
        HttpServer server = serving(Map.of("/health", new Reply(200, ""), "/v1/models",
                new Reply(200, "{\"object\":\"list\",\"data\":[{\"id\":\"Qwen/Qwen3-8B\",\"root\":\"Qwen/Qwen3-8B\"}]}")));
        long start = System.nanoTime();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            assertThatThrownBy(() -> new Readiness(base, "Qwen3-8B", null).await(Duration.ofSeconds(60), () -> null,
                    notice -> { }))
                    .isInstanceOf(EngineStartException.class)
                    .hasMessage("the server serves \"Qwen/Qwen3-8B\", not \"Qwen3-8B\" (GET /v1/models lists Qwen/Qwen3-8B);"
                            + " expected the model named as the server names it: --model Qwen/Qwen3-8B or"
                            + " @ServingBenchmark(model = \"Qwen/Qwen3-8B\")");
        } finally {
            server.stop(0);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        // another model altogether may still come (a gateway whose backend registers later): waited for, said plainly
        assertThat(Readiness.sameModel("Qwen/Qwen3-8B", "qwen/qwen3-8b")).isTrue();
        assertThat(Readiness.sameModel("Qwen3-8B", "Qwen/Qwen3-8B")).isTrue();
        assertThat(Readiness.sameModel("Qwen/Qwen3-14B", "Qwen3-8B")).isFalse();
        assertThat(Readiness.modelIds("{\"data\":[{\"id\":\"a\"},{\"id\":\"b\"}]}")).containsExactly("a", "b");
        assertThat(Readiness.modelIds("<html>")).isEmpty();
    }

    @Test
    void aModelNamedOnlyAsAServedModelsRootIsNotServed() throws Exception {
        // vLLM with --served-model-name qwen lists {"id": "qwen", "root": "Qwen/Qwen3-8B"}, and refuses requests for the
        // root's name: a study that names the path waits, each notice naming what is served
        HttpServer server = serving(Map.of("/health", new Reply(200, ""), "/v1/models",
                new Reply(200, "{\"data\":[{\"id\":\"qwen\",\"root\":\"Qwen/Qwen3-8B\"}]}")));
        List<String> notices = new CopyOnWriteArrayList<>();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            assertThatThrownBy(() -> new Readiness(base, "Qwen/Qwen3-8B", null).await(Duration.ofSeconds(2), () -> null,
                    notices::add, Duration.ofMillis(300), Duration.ofSeconds(5)))
                    .hasMessage("not ready after 2 s (waiting for model list: GET /v1/models does not list"
                            + " \"Qwen/Qwen3-8B\": it lists qwen)");
        } finally {
            server.stop(0);
        }
        assertThat(notices).singleElement().asString().endsWith("(GET /v1/models does not list \"Qwen/Qwen3-8B\": it"
                + " lists qwen)");
    }

    @Test
    void aServerThatWantsAKeyFailsTheStartAtOnceSayingHowToGiveIt() throws Exception {
        // vLLM with --api-key lets /health through and answers every /v1 path 401 {"error": "Unauthorized"}
        // (openai/server_utils.py, AuthenticationMiddleware; docs/engines.md): no wait of --ready-timeout mends that
        HttpServer server = serving(Map.of("/health", new Reply(200, ""),
                "/v1/models", new Reply(401, "{\"error\":\"Unauthorized\"}")));
        long start = System.nanoTime();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            assertThatThrownBy(() -> new Readiness(base, "m", null).await(Duration.ofSeconds(60), () -> null, n -> { }))
                    .isInstanceOf(EngineStartException.class)
                    .hasMessage("the server refused GET /v1/models with 401 ({\"error\":\"Unauthorized\"}): it wants an"
                            + " API key, and none was sent; expected --api-key-env NAME, the environment variable that"
                            + " holds the key (e.g. --api-key-env VLLM_API_KEY), sent as 'Authorization: Bearer'");
            assertThatThrownBy(() -> new Readiness(base, "m", "wrong").await(Duration.ofSeconds(60), () -> null, n -> { }))
                    .hasMessageEndingWith("it did not take the key from --api-key-env; expected the key the server was"
                            + " started with");
        } finally {
            server.stop(0);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void aRefusedConnectionIsSaidPlainly() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> notices = new CopyOnWriteArrayList<>();
        int closed = port;
        assertThatThrownBy(() -> new Readiness(URI.create("http://127.0.0.1:" + closed + "/"), "m", null)
                .await(Duration.ofSeconds(1), () -> null, notices::add, Duration.ofMillis(200), Duration.ofSeconds(5)))
                .hasMessage("not ready after 1 s (waiting for health: connection refused: nothing listens at 127.0.0.1:"
                        + closed + " yet)");
        assertThat(notices).singleElement().asString().endsWith("waiting for its health check (connection refused:"
                + " nothing listens at 127.0.0.1:" + closed + " yet)");
    }

    /**
     * How long a server answering as {@code replies} took to be found ready for model {@code m} at {@code basePath};
     * the wait may take up to 60 s, so a server never found ready fails the test by its exception.
     */
    private static Duration readyAfter(Map<String, Reply> replies, String basePath) throws Exception {
        HttpServer server = serving(replies);
        long start = System.nanoTime();
        try {
            new Readiness(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + basePath), "m", null)
                    .await(Duration.ofSeconds(60), () -> null, n -> { });
        } finally {
            server.stop(0);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** What a path answers. */
    private record Reply(int status, String body) {
    }

    /** A server on a free local port that answers each path as {@code replies} says. */
    private static HttpServer serving(Map<String, Reply> replies) throws java.io.IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        replies.forEach((path, reply) -> server.createContext(path, exchange -> {
            byte[] body = reply.body().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        }));
        server.start();
        return server;
    }
}
