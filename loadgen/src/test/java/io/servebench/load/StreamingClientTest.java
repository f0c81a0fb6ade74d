package io.servebench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.truth.ReceivedRequest;
import io.servebench.truth.Script;
import io.servebench.truth.SentEvent;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The streaming client against the ground-truth server, each test a {@link Script} of it. Timestamps are compared
 * with the server's record of each token event: the client cannot read an event before it was due (the server
 * writes at or after that instant), and on loopback it reads it within {@link #TOLERANCE_NS} of the write's
 * return, even on a loaded machine. How SSE lines and UTF-8 characters split across reads are put together is
 * {@code SseParserTest}'s.
 */
class StreamingClientTest {

    private static final long TOLERANCE_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private TruthServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static RequestSpec spec(int index) {
        return new RequestSpec(index, "Say hi", 4, 16, false, false);
    }

    private RequestRecord send(Script script, LoadParams params, RequestSpec spec) throws Exception {
        server = TruthServer.start(script, 0);
        return sendTo(server.baseUri(), params, spec);
    }

    /** The token events the server wrote for request {@code id}, once its response has ended. */
    private List<SentEvent> written(int id) {
        return server.awaitTruth(Integer.toString(id), Duration.ofSeconds(5)).orElseThrow().events();
    }

    /** A script of {@code tokens} one-token events, the first {@code ttftMs} after the request, then {@code gapMs} apart. */
    private static Script tokens(int tokens, long ttftMs, long gapMs) {
        return Script.defaults().withTokensPerRequest(tokens).withTtft(Duration.ofMillis(ttftMs))
                .withGap(Duration.ofMillis(gapMs));
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

    /** The client's time of an event lies between the event's due instant and its write's return plus the tolerance. */
    private static void assertNear(long clientNs, SentEvent event) {
        assertThat(clientNs)
                .as("client time vs the server's write [due - stamp slack, written + tolerance] (ns)")
                .isBetween(event.dueNs() - STAMP_BEFORE_READ_NS, event.writtenNs() + TOLERANCE_NS);
    }

    @Test
    void timesFirstTokenAndEveryEventAndIgnoresTheRoleOnlyChunk() throws Exception {
        // the role-only chunk goes with the head, at once; the two tokens 60 and 100 ms after the request
        RequestRecord r = send(tokens(2, 60, 40), params().withApiKey("sk-test"), spec(5));

        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(r.httpStatus()).isEqualTo(200);
        List<SentEvent> events = written(5);
        assertThat(r.sentNs()).isGreaterThanOrEqualTo(r.intendedNs());
        assertNear(r.firstTokenNs(), events.get(0));
        assertThat(r.firstContentNs()).isEqualTo(r.firstTokenNs());
        assertThat(r.firstTokenNs() - r.sentNs()).as("TTFT covers the 60 ms before the first token")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(60) - STAMP_BEFORE_READ_NS);
        assertThat(r.eventTimesNs()).hasSize(2);
        assertNear(r.eventTimesNs()[1], events.get(1));
        assertThat(r.endNs()).isEqualTo(r.eventTimesNs()[1]);
        // usage and [DONE] go out in the last token's write
        assertNear(r.doneNs(), events.get(1));
        assertThat(r.outputTokens()).isEqualTo(2);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.USAGE);
        assertThat(r.promptTokens()).as("the server's count: \"Say hi\" is two words").isEqualTo(2);
        assertThat(r.coalescedEvents()).isZero();
        assertThat(r.eventsPerReadMax()).isEqualTo(1);

        ReceivedRequest req = server.requests().get(0);
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
        RequestRecord r = send(tokens(2, 20, 50).withReasoningTokens(1), params(), spec(0));
        List<SentEvent> events = written(0);
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(events.get(0).reasoning()).isTrue();
        assertNear(r.firstTokenNs(), events.get(0));
        assertNear(r.firstContentNs(), events.get(1));
        assertThat(r.eventTimesNs()).containsExactly(r.firstTokenNs(), r.firstContentNs());
    }

    @Test
    void continuousUsageGivesTokensPerEvent() throws Exception {
        RequestRecord r = send(tokens(5, 10, 10).withTokensPerEvent(3).withUsage(Script.Usage.CONTINUOUS), params(),
                spec(0));
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(r.eventTokens()).containsExactly(3, 2);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.CONTINUOUS_USAGE);
        assertThat(r.outputTokens()).isEqualTo(5);
        JsonNode body = JSON.readTree(server.requests().get(0).body());
        assertThat(body.path("stream_options").path("continuous_usage_stats").asBoolean()).isTrue();
    }

    @Test
    void withoutUsageEachEventIsOneToken() throws Exception {
        RequestRecord r = send(tokens(3, 10, 5).withUsage(Script.Usage.NONE),
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
    void twoEventsInOneWriteShareATimestampAndCountAsCoalesced() throws Exception {
        RequestRecord r = send(tokens(3, 10, 40).withEventsPerWrite(2), params(), spec(0));
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        long[] t = r.eventTimesNs();
        List<SentEvent> events = written(0);
        assertThat(t).hasSize(3);
        assertThat(t[1]).isEqualTo(t[0]);
        assertNear(t[0], events.get(0));
        assertNear(t[2], events.get(2));
        assertThat(r.coalescedEvents()).isEqualTo(1);
        assertThat(r.eventsPerReadMax()).isEqualTo(2);
    }

    @Test
    void completionsApiSendsThePromptAndCountsTextDeltas() throws Exception {
        // 0 tokens in the script: the request's max_tokens (2)
        RequestRecord r = send(tokens(0, 10, 10), params().withApi(OpenAiApi.COMPLETIONS),
                new RequestSpec(2, "Tell a story", 3, 2, true, false));
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(r.eventTimesNs()).hasSize(2);
        assertThat(r.firstContentNs()).isEqualTo(r.firstTokenNs());
        ReceivedRequest req = server.requests().get(0);
        assertThat(req.path()).isEqualTo("/v1/completions");
        assertThat(req.headers()).doesNotContainKey("authorization");
        JsonNode body = JSON.readTree(req.body());
        assertThat(body.path("prompt").asText()).isEqualTo("Tell a story");
        assertThat(body.path("min_tokens").asInt()).isEqualTo(2);
        assertThat(body.path("ignore_eos").asBoolean()).isTrue();
    }

    @Test
    void http500BecomesAFailedRecordWithStatusAndBody() throws Exception {
        RequestRecord r = send(Script.defaults().withFailure(new Script.Failure.HttpError(500, "engine died\n")),
                params(), spec(0));
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
        RequestRecord r = send(Script.defaults().withFailure(new Script.Failure.HttpError(400, body)), params(), spec(0));
        assertThat(r.httpStatus()).isEqualTo(400);
        assertThat(r.error()).isEqualTo("http_400: " + body.substring(0, 300));
    }

    @Test
    void aResponseThatIsNotAnEventStreamIsMalformed() throws Exception {
        RequestRecord r = send(Script.defaults().withFailure(
                new Script.Failure.NotAnEventStream("application/json", "{\"choices\":[]}")), params(), spec(0));
        assertThat(r.errorKind()).isEqualTo("malformed");
        assertThat(r.error()).contains("application/json").contains("{\"choices\":[]}");
    }

    @Test
    void aConnectionClosedMidStreamFailsButKeepsTheEventsSoFar() throws Exception {
        RequestRecord r = send(tokens(3, 10, 20).withFailure(new Script.Failure.CloseAfter(1)), params(), spec(0));
        assertThat(r.errorKind()).as(r.error()).isEqualTo("closed");
        assertThat(r.eventTimesNs()).hasSize(1);
        assertThat(r.httpStatus()).isEqualTo(200);
    }

    @Test
    void aStalledServerHitsTheRequestTimeout() throws Exception {
        Duration timeout = Duration.ofMillis(300);
        RequestRecord r = send(tokens(3, 10, 10).withStall(new Script.Stall(1, Duration.ofSeconds(30), 1)),
                params().withTimeouts(Duration.ofSeconds(5), timeout), spec(0));
        assertThat(r.errorKind()).as(r.error()).isEqualTo("timeout");
        assertThat(r.error()).isEqualTo("timeout: the server sent nothing for 300 ms in the middle of the response body"
                + " (status 200)");
        long silence = r.doneNs() - r.eventTimesNs()[0];
        // the client measures idleness with a millisecond clock, hence the small allowance below the limit
        assertThat(silence).isBetween(timeout.toNanos() - TimeUnit.MILLISECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void aServerThatNeverAnswersHitsTheRequestTimeout() throws Exception {
        RequestRecord r = send(Script.defaults().withFailure(new Script.Failure.NoAnswer()),
                params().withTimeouts(Duration.ofSeconds(5), Duration.ofMillis(300)), spec(0));
        assertThat(r.errorKind()).as(r.error()).isEqualTo("timeout");
        assertThat(r.error()).isEqualTo("timeout: the server sent nothing for 300 ms before any byte of the response");
        assertThat(r.httpStatus()).isZero();
    }

    @Test
    void anErrorPayloadEndsTheRequestAtOnceEvenIfTheServerKeepsTheStreamOpen() throws Exception {
        RequestRecord r = send(tokens(3, 10, 10).withFailure(new Script.Failure.ErrorThenSilence(1, "KV cache exhausted")),
                params(), spec(0));
        assertThat(r.error()).isEqualTo("stream_error: KV cache exhausted");
        // the error went out in the first token's write; the request timeout is 10 s
        assertThat(r.doneNs() - written(0).get(0).writtenNs()).as("not held until the timeout")
                .isLessThan(TimeUnit.SECONDS.toNanos(5));
    }

    /** SGLang ends a request its scheduler gave up with {@code finish_reason "abort"} ({@code FINISH_ABORT}), then [DONE]. */
    @Test
    void anAbortedStreamIsAFailureThatKeepsItsEvents() throws Exception {
        RequestRecord r = send(tokens(3, 10, 10).withFailure(new Script.Failure.DoneAfter(1, "abort")), params(), spec(0));
        assertThat(r.errorKind()).as(r.toString()).isEqualTo("aborted");
        assertThat(r.eventTimesNs()).hasSize(1);
    }

    @Test
    void aStreamCutAtTheContextLimitIsTruncatedButOneThatReachedMaxTokensIsWhole() throws Exception {
        // spec(0) asks for 16 tokens; the engine says "length" after 2 (its context was full)
        RequestRecord cut = send(tokens(3, 10, 10).withFailure(new Script.Failure.DoneAfter(2, "length")), params(), spec(0));
        assertThat(cut.errorKind()).as(cut.toString()).isEqualTo("truncated");
        assertThat(cut.error()).contains("stopped at 2 of the 16 tokens asked for");
        server.close();
        // "length" at the 16 asked for is a whole answer
        RequestRecord whole = send(tokens(16, 10, 2), params(), spec(0));
        assertThat(whole.succeeded()).as(whole.toString()).isTrue();
        assertThat(whole.outputTokens()).isEqualTo(16);
        server.close();
        // a study that sets max_tokens itself asks for that many
        RequestRecord own = send(tokens(3, 10, 10).withFailure(new Script.Failure.DoneAfter(2, "length")),
                params().withExtraBody("{\"max_tokens\": 2}"), spec(0));
        assertThat(own.succeeded()).as(own.toString()).isTrue();
    }

    @Test
    void aStreamWithoutTokensOrWithoutDoneFails() throws Exception {
        RequestRecord empty = send(tokens(3, 10, 10).withFailure(new Script.Failure.DoneAfter(0, "stop")), params(), spec(0));
        assertThat(empty.errorKind()).isEqualTo("empty_stream");
        server.close();

        RequestRecord cut = send(tokens(3, 10, 10).withFailure(new Script.Failure.EndWithoutDone(1)), params(), spec(0));
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
