package io.servebench.truth;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The truth server's failure scripts, read off a plain socket: what goes over the wire is checked against HTTP/1.1's
 * chunked framing and the event shapes of vLLM's stream, written out here by hand.
 */
class TruthServerFailuresTest {

    private static final String BODY = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hi\"}],"
            + "\"max_tokens\":3,\"stream\":true}";

    /** Sends one chat request with {@code X-Request-Id: 7}; returns what arrives until {@code quietMs} of silence. */
    private static String exchange(TruthServer server, long quietMs) throws IOException {
        try (Socket socket = new Socket(server.baseUri().getHost(), server.baseUri().getPort())) {
            socket.setSoTimeout((int) quietMs);
            byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Request-Id: 7\r\n"
                    + "Authorization: Bearer k\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    got.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                // silence: the server sent what it will send for now
            }
            return got.toString(StandardCharsets.UTF_8);
        }
    }

    private static TruthServer start(Script.Failure failure) throws IOException {
        return TruthServer.start(Script.defaults().withTtft(Duration.ZERO).withGap(Duration.ZERO).withRoleChunk(false)
                .withTokensPerRequest(3).withFailure(failure), 0);
    }

    @Test
    void doneAfterZeroEventsIsAnEmptyStreamThatEndsCleanly() throws Exception {
        try (TruthServer server = start(new Script.Failure.DoneAfter(0, "stop"))) {
            String reply = exchange(server, 300);
            assertThat(reply).startsWith("HTTP/1.1 200 OK\r\n").contains("content-type: text/event-stream")
                    .doesNotContain("\"content\":")
                    .endsWith("data: [DONE]\n\n\r\n0\r\n\r\n");
            assertThat(server.awaitTruth("7", Duration.ofSeconds(2)).orElseThrow().events()).isEmpty();
        }
    }

    @Test
    void doneAfterEndsWithItsFinishReasonOnTheLastTokenEventThenDone() throws Exception {
        try (TruthServer server = start(new Script.Failure.DoneAfter(1, "abort"))) {
            String reply = exchange(server, 300);
            assertThat(reply).contains("\"delta\":{\"content\":\" tok\"},\"logprobs\":null,\"finish_reason\":\"abort\"")
                    .endsWith("data: [DONE]\n\n\r\n0\r\n\r\n");
        }
    }

    /** vLLM says {@code "length"} when {@code max_tokens} was reached and {@code "stop"} when the answer ended first. */
    @Test
    void aWholeStreamEndsWithLengthAtMaxTokensAndStopBefore() throws Exception {
        try (TruthServer server = TruthServer.start(Script.defaults().withTtft(Duration.ZERO).withGap(Duration.ZERO)
                .withTokensPerRequest(3), 0)) {
            assertThat(exchange(server, 300)).contains("\"finish_reason\":\"length\"");
        }
        try (TruthServer server = TruthServer.start(Script.defaults().withTtft(Duration.ZERO).withGap(Duration.ZERO)
                .withTokensPerRequest(2), 0)) {
            assertThat(exchange(server, 300)).contains("\"finish_reason\":\"stop\"").doesNotContain("\"length\"");
        }
    }

    @Test
    void endWithoutDoneEndsTheBodyAfterItsEventsWithNoDoneAndNoUsage() throws Exception {
        try (TruthServer server = start(new Script.Failure.EndWithoutDone(1))) {
            String reply = exchange(server, 300);
            assertThat(reply).contains("\"delta\":{\"content\":\" tok\"}").doesNotContain("[DONE]")
                    .doesNotContain("\"usage\":{").endsWith("\n\n\r\n0\r\n\r\n");
            TruthRecord truth = server.awaitTruth("7", Duration.ofSeconds(2)).orElseThrow();
            assertThat(truth.events()).hasSize(1);
            assertThat(truth.error()).startsWith("incomplete:");
        }
    }

    @Test
    void errorThenSilenceLeavesTheStreamOpenAfterTheErrorEvent() throws Exception {
        try (TruthServer server = start(new Script.Failure.ErrorThenSilence(1, "KV cache exhausted"))) {
            String reply = exchange(server, 300);
            assertThat(reply).contains("\"delta\":{\"content\":\" tok\"}")
                    .contains("data: {\"error\":{").contains("\"message\":\"KV cache exhausted\"")
                    .doesNotContain("[DONE]").doesNotContain("\r\n0\r\n\r\n");
        }
    }

    @Test
    void notAnEventStreamIsAWhole200OfItsOwnType() throws Exception {
        try (TruthServer server = start(new Script.Failure.NotAnEventStream("application/json", "{\"choices\":[]}"))) {
            String reply = exchange(server, 300);
            assertThat(reply).startsWith("HTTP/1.1 200 OK\r\n").contains("content-type: application/json\r\n")
                    .contains("content-length: 14\r\n").endsWith("\r\n\r\n{\"choices\":[]}");
        }
    }

    @Test
    void noAnswerSendsNothingAndRecordsTheClientLeaving() throws Exception {
        try (TruthServer server = start(new Script.Failure.NoAnswer())) {
            assertThat(exchange(server, 300)).isEmpty();
            TruthRecord truth = server.awaitTruth("7", Duration.ofSeconds(2)).orElseThrow();
            assertThat(truth.httpStatus()).isZero();
            assertThat(truth.error()).startsWith("client_closed");
        }
    }

    @Test
    void keepsTheRequestsAsReceived() throws Exception {
        try (TruthServer server = start(new Script.Failure.DoneAfter(0, "stop"))) {
            exchange(server, 300);
            ReceivedRequest r = server.requests().get(0);
            assertThat(r.method()).isEqualTo("POST");
            assertThat(r.path()).isEqualTo("/v1/chat/completions");
            assertThat(r.requestId()).isEqualTo("7");
            assertThat(r.headers()).containsEntry("authorization", "Bearer k").containsEntry("content-type",
                    "application/json");
            assertThat(r.body()).isEqualTo(BODY);
        }
    }
}
