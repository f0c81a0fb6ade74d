package io.servebench.load;

import io.servebench.truth.Script;
import io.servebench.truth.TruthRecord;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Requests called off by the client, against the ground-truth server: the server sees the client go away at the
 * delay (its own record of when), the records keep their partial timings and are cancelled, not successes; a
 * request over its whole-life limit fails as a deadline while the others finish.
 */
class CancellationTest {

    private static final long MS = 1_000_000L;
    /** How late a call-off may reach the server: a scheduler's wake-up, a loop's turn, the kernel's FIN. */
    private static final long LATE_NS = 150 * MS;

    private TruthServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static RequestSpec spec(int index) {
        return new RequestSpec(index, "Say hi", 4, 64, false, false);
    }

    /** 20 one-token events, the first 100 ms after the request, then 50 ms apart: about 1.05 s a request. */
    private static Script slow() {
        return Script.defaults().withTokensPerRequest(20).withTtft(Duration.ofMillis(100)).withGap(Duration.ofMillis(50));
    }

    private List<RequestRecord> sendAll(LoadParams params, int requests) throws Exception {
        server = TruthServer.start(slow(), 0);
        try (StreamingClient client = new StreamingClient(new Target(server.baseUri(), "m"), params)) {
            List<CompletableFuture<RequestRecord>> sent = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                sent.add(client.send(spec(i), System.nanoTime()));
            }
            List<RequestRecord> out = new ArrayList<>();
            for (CompletableFuture<RequestRecord> f : sent) {
                out.add(f.get(20, TimeUnit.SECONDS));
            }
            return out;
        }
    }

    private static LoadParams params(Cancellation c) {
        return LoadParams.of(new ArrivalProfile.Concurrent(8)).withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10))
                .withCancellation(c);
    }

    /** The server's record of {@code r}; an abandoned response never finishes, so it is taken as it stands. */
    private TruthRecord truth(RequestRecord r) {
        return server.awaitTruth(Long.toString(r.id()), Duration.ofMillis(300)).orElseThrow();
    }

    @Test
    void aRequestCalledOffAfterItsSendClosesItsConnectionAtTheDelayAndKeepsWhatItGot() throws Exception {
        List<RequestRecord> records = sendAll(params(new Cancellation(100, Duration.ofMillis(400), false, null)), 1);
        RequestRecord r = records.get(0);
        assertThat(r.cancelledByClient()).as(r.error()).isTrue();
        assertThat(r.succeeded()).isFalse();
        assertThat(r.error()).isEqualTo("client_cancel: called off 0.400 s after its send (cancellationRate)");
        // its partial timings: the first token at 100 ms and the events until the call-off
        assertThat(r.firstTokenNs() - r.sentNs()).isBetween(90 * MS, 400 * MS);
        assertThat(r.eventTimesNs().length).isBetween(4, 12);
        assertThat(r.doneNs() - r.sentNs()).isBetween(400 * MS, 400 * MS + LATE_NS);
        // the server saw the client go away then, with the response unfinished
        TruthRecord t = truth(r);
        assertThat(t.finished()).isFalse();
        assertThat(t.error()).startsWith("client_closed");
        assertThat(t.failedNs() - r.sentNs()).isBetween(400 * MS, 400 * MS + LATE_NS);
        assertThat(t.events()).hasSizeLessThan(20);
    }

    @Test
    void afterTheFirstTokenTheDelayRunsFromIt() throws Exception {
        RequestRecord r = sendAll(params(new Cancellation(100, Duration.ofMillis(300), true, null)), 1).get(0);
        assertThat(r.error()).isEqualTo("client_cancel: called off 0.300 s after its first token (cancellationRate)");
        assertThat(r.doneNs() - r.firstTokenNs()).isBetween(300 * MS, 300 * MS + LATE_NS);
        assertThat(truth(r).failedNs() - r.firstTokenNs()).isBetween(300 * MS - 5 * MS, 300 * MS + LATE_NS);
    }

    /** Which requests are called off is each request's own draw: the share holds, the others end normally. */
    @Test
    void aShareIsCalledOffAndTheRestFinish() throws Exception {
        Cancellation half = new Cancellation(50, Duration.ofMillis(200), false, null);
        List<RequestRecord> records = sendAll(params(half), 40);
        long chosen = IntStream.range(0, 40).filter(half::cancels).count();
        // the draw is a coin per index: 40 of them land near 20
        assertThat(chosen).isBetween(12L, 28L);
        for (RequestRecord r : records) {
            if (half.cancels(r.id())) {
                assertThat(r.cancelledByClient()).as("request %d: %s", r.id(), r.error()).isTrue();
            } else {
                assertThat(r.succeeded()).as("request %d: %s", r.id(), r.error()).isTrue();
                assertThat(r.outputTokens()).isEqualTo(20);
            }
        }
    }

    /**
     * The simulated engine, as vLLM and SGLang abort a request whose client went away, takes it out of its batch and
     * lets go of its KV cache: once the 8 requests of 4,000 tokens each are called off, it generates no more tokens.
     */
    @Test
    void theSimulatedEngineStopsWorkingOnARequestWhoseClientLeft() throws Exception {
        try (io.servebench.sim.SimulatedEngine engine = io.servebench.sim.SimulatedEngine.startRecording(
                io.servebench.sim.SimParams.fromFlags(io.servebench.sim.SimDialect.VLLM, "Qwen/Qwen3.5-9B",
                        List.of("--max-model-len=8192")), 0, 7);
             StreamingClient client = new StreamingClient(new Target(engine.baseUri(), engine.model()),
                     params(new Cancellation(100, Duration.ofMillis(500), false, null)))) {
            List<CompletableFuture<RequestRecord>> sent = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                sent.add(client.send(new RequestSpec(i, "Tell me a long story", 5, 4000, true, false), System.nanoTime()));
            }
            for (CompletableFuture<RequestRecord> f : sent) {
                assertThat(f.get(10, TimeUnit.SECONDS).cancelledByClient()).isTrue();
            }
            Thread.sleep(200);
            double atCallOff = generated(engine);
            Thread.sleep(500);
            assertThat(generated(engine)).as("tokens generated after the call-off").isEqualTo(atCallOff);
            assertThat(atCallOff).isLessThan(8 * 4000 / 4.0);
            assertThat(engine.groundTruth("0").orElseThrow().error()).startsWith("client disconnected");
        }
    }

    /** The engine's {@code vllm:generation_tokens_total}, read from its /metrics page as a scraper would. */
    private static double generated(io.servebench.sim.SimulatedEngine engine) throws Exception {
        String page = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(engine.metricsUri()).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        return page.lines().filter(l -> l.startsWith("vllm:generation_tokens_total"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElseThrow();
    }

    @Test
    void aRequestOverItsTimeoutFailsAsADeadlineAndTheLoadGoesOn() throws Exception {
        // 1.05 s a request against a 0.6 s limit
        List<RequestRecord> records = sendAll(params(new Cancellation(0, Duration.ZERO, false, Duration.ofMillis(600))), 3);
        for (RequestRecord r : records) {
            assertThat(r.timedOut()).as(r.error()).isTrue();
            assertThat(r.cancelledByClient()).isFalse();
            assertThat(r.error()).isEqualTo("deadline: it had not ended 0.600 s after its send (timeoutSeconds)");
            assertThat((r.doneNs() - r.sentNs()) / 1e6).isCloseTo(600, within(LATE_NS / 1e6));
        }
    }
}
