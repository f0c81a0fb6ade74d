package io.servebench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.servebench.load.ScriptedSseServer.content;
import static io.servebench.load.ScriptedSseServer.reasoning;
import static io.servebench.load.ScriptedSseServer.role;
import static io.servebench.load.ScriptedSseServer.text;
import static io.servebench.load.ScriptedSseServer.usage;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The streaming client against a scripted loopback server. Timestamps are compared with the server's
 * write times: the client cannot read a chunk before its write began, and on loopback it reads it within
 * {@link #TOLERANCE_NS} of the flush, even on a loaded machine.
 */
class StreamingClientTest {

    private static final long TOLERANCE_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ScriptedSseServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static RequestSpec spec(int index) {
        return new RequestSpec(index, "Say hi", 4, 16, false, false);
    }

    private RequestRecord send(ScriptedSseServer.Script script, LoadParams params, RequestSpec spec) throws Exception {
        server = new ScriptedSseServer(script);
        return sendTo(server.baseUri(), params, spec);
    }

    private static RequestRecord sendTo(URI base, LoadParams params, RequestSpec spec) throws Exception {
        try (StreamingClient client = new StreamingClient(new Target(base, "test-model"), params)) {
            return client.send(spec, System.nanoTime()).get(20, TimeUnit.SECONDS);
        }
    }

    private static LoadParams params() {
        return LoadParams.of(new ArrivalProfile.Concurrent(1))
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));
    }

    /**
     * A read is stamped just before the read call, so bytes written while the reading thread sat between
     * stamp and call (descheduled, on a busy machine) carry a slightly earlier stamp; this bounds how early.
     */
    private static final long STAMP_BEFORE_READ_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The client's time of an event lies between the server's write and its flush plus the tolerance. */
    private static void assertNear(long clientNs, ScriptedSseServer.Flush flush) {
        assertThat(clientNs)
                .as("client time vs the server's write [start - stamp slack, flushed + tolerance] (ns)")
                .isBetween(flush.startNs() - STAMP_BEFORE_READ_NS, flush.flushedNs() + TOLERANCE_NS);
    }

    @Test
    void timesFirstTokenAndEveryEventAndIgnoresTheRoleOnlyChunk() throws Exception {
        RequestRecord r = send((req, out) -> {
            out.eventStreamHead().event(role()).pause(60)
                    .event(content("Hello")).pause(40)
                    .event(content(" world")).pause(40)
                    .event(usage(9, 2)).done();
        }, params().withApiKey("sk-test"), spec(5));

        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(r.httpStatus()).isEqualTo(200);
        List<ScriptedSseServer.Flush> flushes = server.flushTimes(5);
        assertThat(r.sentNs()).isGreaterThanOrEqualTo(r.intendedNs());
        assertNear(r.firstTokenNs(), flushes.get(1));
        assertThat(r.firstContentNs()).isEqualTo(r.firstTokenNs());
        assertThat(r.firstTokenNs() - r.sentNs()).as("TTFT covers the 60 ms pause after the role chunk")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(60));
        assertThat(r.eventTimesNs()).hasSize(2);
        assertNear(r.eventTimesNs()[1], flushes.get(2));
        assertThat(r.endNs()).isEqualTo(r.eventTimesNs()[1]);
        assertNear(r.doneNs(), flushes.get(4));
        assertThat(r.outputTokens()).isEqualTo(2);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.USAGE);
        assertThat(r.promptTokens()).isEqualTo(9);
        assertThat(r.coalescedEvents()).isZero();
        assertThat(r.eventsPerReadMax()).isEqualTo(1);

        ScriptedSseServer.Received req = server.requests().get(0);
        assertThat(req.method()).isEqualTo("POST");
        assertThat(req.path()).isEqualTo("/v1/chat/completions");
        assertThat(req.requestId()).isEqualTo("5");
        assertThat(req.headers()).containsEntry("authorization", "Bearer sk-test");
        JsonNode body = JSON.readTree(req.body());
        assertThat(body.path("model").asText()).isEqualTo("test-model");
        assertThat(body.path("messages").path(0).path("content").asText()).isEqualTo("Say hi");
        assertThat(body.path("stream").asBoolean()).isTrue();
    }

    @Test
    void reasoningCountsForTheFirstTokenButNotTheFirstContent() throws Exception {
        RequestRecord r = send((req, out) -> out.eventStreamHead().pause(20)
                .event(reasoning("Let me think")).pause(50)
                .event(content("42")).done(), params(), spec(0));
        List<ScriptedSseServer.Flush> flushes = server.flushTimes(0);
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertNear(r.firstTokenNs(), flushes.get(0));
        assertNear(r.firstContentNs(), flushes.get(1));
        assertThat(r.eventTimesNs()).containsExactly(r.firstTokenNs(), r.firstContentNs());
    }

    @Test
    void continuousUsageGivesTokensPerEvent() throws Exception {
        RequestRecord r = send((req, out) -> out.eventStreamHead()
                .event(content("a b c", 3)).pause(10)
                .event(content("d e", 5)).pause(10)
                .event(usage(7, 5)).done(), params(), spec(0));
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(r.eventTokens()).containsExactly(3, 2);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.CONTINUOUS_USAGE);
        assertThat(r.outputTokens()).isEqualTo(5);
        JsonNode body = JSON.readTree(server.requests().get(0).body());
        assertThat(body.path("stream_options").path("continuous_usage_stats").asBoolean()).isTrue();
    }

    @Test
    void withoutUsageEachEventIsOneToken() throws Exception {
        RequestRecord r = send((req, out) -> out.eventStreamHead()
                .event(content("a")).event(content("b")).event(content("c")).done(),
                params().withContinuousUsageStats(false), spec(0));
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(r.eventTokens()).containsExactly(1, 1, 1);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.EVENTS);
        assertThat(r.outputTokens()).isEqualTo(3);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.EVENTS);
        assertThat(r.promptTokens()).as("the client's count").isEqualTo(4);
        JsonNode body = JSON.readTree(server.requests().get(0).body());
        assertThat(body.path("stream_options").has("continuous_usage_stats")).isFalse();
    }

    @Test
    void twoEventsInOneFlushShareATimestampAndCountAsCoalesced() throws Exception {
        RequestRecord r = send((req, out) -> out.eventStreamHead()
                .event(content("a")).pause(40)
                .chunk("data: " + content("b") + "\n\ndata: " + content("c") + "\n\n").pause(40)
                .done(), params(), spec(0));
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        long[] t = r.eventTimesNs();
        assertThat(t).hasSize(3);
        assertThat(t[2]).isEqualTo(t[1]);
        assertNear(t[0], server.flushTimes(0).get(0));
        assertNear(t[1], server.flushTimes(0).get(1));
        assertThat(r.coalescedEvents()).isEqualTo(1);
        assertThat(r.eventsPerReadMax()).isEqualTo(2);
    }

    @Test
    void aCharacterAndAnEventSplitAcrossReadsAreReassembled() throws Exception {
        byte[] event = ("data: " + content("é漢字") + "\n\n").getBytes(StandardCharsets.UTF_8);
        int cut = ("data: " + content("é")).getBytes(StandardCharsets.UTF_8).length - 3 + 1; // inside 漢
        RequestRecord r = send((req, out) -> out.eventStreamHead()
                .chunk(Arrays.copyOfRange(event, 0, cut)).pause(30)
                .chunk(Arrays.copyOfRange(event, cut, event.length)).done(), params(), spec(0));
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(r.eventTimesNs()).hasSize(1);
        assertNear(r.firstTokenNs(), server.flushTimes(0).get(1));
    }

    @Test
    void completionsApiSendsThePromptAndCountsTextDeltas() throws Exception {
        RequestRecord r = send((req, out) -> out.eventStreamHead()
                .event(text("Once")).event(text(" upon")).event(usage(3, 2)).done(),
                params().withApi(OpenAiApi.COMPLETIONS), new RequestSpec(2, "Tell a story", 3, 2, true, false));
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(r.eventTimesNs()).hasSize(2);
        assertThat(r.firstContentNs()).isEqualTo(r.firstTokenNs());
        ScriptedSseServer.Received req = server.requests().get(0);
        assertThat(req.path()).isEqualTo("/v1/completions");
        assertThat(req.headers()).doesNotContainKey("authorization");
        JsonNode body = JSON.readTree(req.body());
        assertThat(body.path("prompt").asText()).isEqualTo("Tell a story");
        assertThat(body.path("min_tokens").asInt()).isEqualTo(2);
        assertThat(body.path("ignore_eos").asBoolean()).isTrue();
    }

    @Test
    void http500BecomesAFailedRecordWithStatusAndBody() throws Exception {
        RequestRecord r = send((req, out) -> out.fixed(500, "text/plain", "engine died\n"), params(), spec(0));
        assertThat(r.succeeded()).isFalse();
        assertThat(r.httpStatus()).isEqualTo(500);
        assertThat(r.error()).isEqualTo("http_500: engine died");
        assertThat(r.errorKind()).isEqualTo("http_500");
        assertThat(r.sentNs()).isNotEqualTo(RequestRecord.NONE);
        assertThat(r.doneNs()).isGreaterThanOrEqualTo(r.sentNs());
    }

    @Test
    void http400KeepsTheFirst300CharactersOfTheBody() throws Exception {
        String body = "{\"error\":\"" + "x".repeat(1000) + "\"}";
        RequestRecord r = send((req, out) -> out.fixed(400, "application/json", body), params(), spec(0));
        assertThat(r.httpStatus()).isEqualTo(400);
        assertThat(r.error()).isEqualTo("http_400: " + body.substring(0, 300));
    }

    @Test
    void aResponseThatIsNotAnEventStreamIsMalformed() throws Exception {
        RequestRecord r = send((req, out) -> out.fixed(200, "application/json", "{\"choices\":[]}"), params(), spec(0));
        assertThat(r.errorKind()).isEqualTo("malformed");
        assertThat(r.error()).contains("application/json").contains("{\"choices\":[]}");
    }

    @Test
    void aConnectionClosedMidStreamFailsButKeepsTheEventsSoFar() throws Exception {
        RequestRecord r = send((req, out) -> {
            out.eventStreamHead().event(content("a")).pause(20);
            out.closeAbruptly();
        }, params(), spec(0));
        assertThat(r.errorKind()).as(r.error()).isEqualTo("closed");
        assertThat(r.eventTimesNs()).hasSize(1);
        assertThat(r.httpStatus()).isEqualTo(200);
    }

    @Test
    void aStalledServerHitsTheRequestTimeout() throws Exception {
        Duration timeout = Duration.ofMillis(300);
        RequestRecord r = send((req, out) -> {
            out.eventStreamHead().event(content("a"));
            out.stall();
        }, params().withTimeouts(Duration.ofSeconds(5), timeout), spec(0));
        assertThat(r.errorKind()).as(r.error()).isEqualTo("timeout");
        long silence = r.doneNs() - r.eventTimesNs()[0];
        // the client measures idleness with a millisecond clock, hence the small allowance below the limit
        assertThat(silence).isBetween(timeout.toNanos() - TimeUnit.MILLISECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void aServerThatNeverAnswersHitsTheRequestTimeout() throws Exception {
        RequestRecord r = send((req, out) -> out.stall(),
                params().withTimeouts(Duration.ofSeconds(5), Duration.ofMillis(300)), spec(0));
        assertThat(r.errorKind()).as(r.error()).isEqualTo("timeout");
        assertThat(r.httpStatus()).isZero();
    }

    @Test
    void anErrorPayloadEndsTheRequestAtOnceEvenIfTheServerKeepsTheStreamOpen() throws Exception {
        RequestRecord r = send((req, out) -> {
            out.eventStreamHead().event(content("a")).event("{\"error\":{\"message\":\"KV cache exhausted\"}}");
            out.stall();
        }, params(), spec(0));
        assertThat(r.error()).isEqualTo("stream_error: KV cache exhausted");
        // the client may finish reading before the server's thread has recorded the write's return
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.flushTimes(0).size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(r.doneNs() - server.flushTimes(0).get(1).flushedNs()).as("not held until the 10 s timeout")
                .isLessThan(TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void aStreamWithoutTokensOrWithoutDoneFails() throws Exception {
        RequestRecord empty = send((req, out) -> out.eventStreamHead().event(role()).done(), params(), spec(0));
        assertThat(empty.errorKind()).isEqualTo("empty_stream");
        server.close();

        RequestRecord cut = send((req, out) -> out.eventStreamHead().event(content("a")).end(), params(), spec(0));
        assertThat(cut.errorKind()).isEqualTo("incomplete");
        assertThat(cut.error()).contains("1 token events");
    }

    @Test
    void aRefusedConnectionIsAConnectFailure() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        RequestRecord r = sendTo(URI.create("http://127.0.0.1:" + port), params(), spec(0));
        assertThat(r.errorKind()).as(r.error()).isEqualTo("connect");
        assertThat(r.sentNs()).isEqualTo(RequestRecord.NONE);
        assertThat(r.httpStatus()).isZero();
        assertThat(r.doneNs()).isNotEqualTo(RequestRecord.NONE);
    }
}
