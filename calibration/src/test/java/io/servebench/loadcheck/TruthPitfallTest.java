package io.servebench.loadcheck;

import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadParams;
import io.servebench.load.Recorded;
import io.servebench.load.RequestRecord;
import io.servebench.load.Target;
import io.servebench.load.TokenSource;
import io.servebench.measure.Metric;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.results.Distribution;
import io.servebench.results.RepetitionResult;
import io.servebench.truth.Script;
import io.servebench.truth.SentEvent;
import io.servebench.truth.ServerTruth;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The measurement pitfalls, one per test: the load generator and the metrics aggregator against the
 * ground-truth server, compared with the metrics of the truth itself (the server's write times run
 * through the same aggregator, see {@link TruthComparison#asRequestRecord}).
 *
 * <p>Tolerances: on loopback a client reads an event well under a millisecond after the server's write
 * returns, but this machine is shared, so latency medians may differ from the truth by up to
 * {@link #LATENCY_TOL_MS} (send → server read, write → client read, and thread wake-ups on a busy core)
 * and per-token ITL medians by {@link #ITL_TOL_MS}. Every scripted time is several times these, so each
 * pitfall (e.g. ITL 0 or ITL per event instead of per token) lies far outside them. Counts are exact.
 */
class TruthPitfallTest {

    private static final double LATENCY_TOL_MS = 5;
    private static final double ITL_TOL_MS = 1.5;

    private TruthServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Measured and true metrics of one run. */
    /** @param truths what the server wrote for each request, by id */
    private record Run(Recorded load, RepetitionResult measured, RepetitionResult truth, TruthComparison comparison,
                       java.util.Map<String, ServerTruth> truths) {
        Distribution measured(Metric m) {
            return measured.distribution(m).orElseThrow(() -> new AssertionError("no measured " + m));
        }

        Distribution truth(Metric m) {
            return truth.distribution(m).orElseThrow(() -> new AssertionError("no true " + m));
        }

        List<RequestRecord> records() {
            return load.records();
        }
    }

    private Run run(Script script, int requests, LoadParams params) throws IOException {
        return run(script, requests, params, 1);
    }

    private Run run(Script script, int requests, LoadParams params, int serverLoops) throws IOException {
        server = TruthServer.start(script, 0, serverLoops);
        List<RequestSpec> specs = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            specs.add(new RequestSpec(i, "a prompt of six words here", 6, 8, true, false));
        }
        java.util.Map<String, ServerTruth> truths = new java.util.concurrent.ConcurrentHashMap<>();
        TruthComparison comparison = new TruthComparison((id, wait) -> {
            Optional<? extends ServerTruth> t = server.takeTruth(id, wait);
            t.ifPresent(found -> truths.put(id, found));
            return t;
        }, java.time.Duration.ofSeconds(2), System::nanoTime);
        Recorded load = Recorded.run(new LoadGenerator(), new Target(server.baseUri(), TruthServer.MODEL), specs, params,
                comparison);
        comparison.close();
        return new Run(load, new MetricsAggregator().aggregate(load.records()), comparison.truth(), comparison, truths);
    }

    private Run run(Script script, int requests) throws IOException {
        return run(script, requests, constant(20));
    }

    private static LoadParams constant(double rate) {
        return LoadParams.of(new ArrivalProfile.Constant(rate)).withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));
    }

    private static void assertAllSucceeded(Run run) {
        assertThat(run.records()).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        assertThat(run.comparison().unmatched()).as("requests whose events do not match the truth's").isZero();
    }

    private static void assertMedianNear(Run run, Metric m, double tolMs) {
        Distribution d = run.measured(m);
        // E2E latencies are kept in seconds, the others in milliseconds
        double tol = d.unit().equals("s") ? tolMs / 1000 : tolMs;
        assertThat(d.p50()).as("median " + m.id() + " (" + d.unit() + ") vs the truth's").isCloseTo(run.truth(m).p50(), within(tol));
    }

    @Test
    void aServerOnSeveralEventLoopsKeepsEveryStreamsTruth() throws IOException {
        // connections are dealt out over three loops, each with its own due writes
        Run run = run(Script.defaults().withTokensPerRequest(8).withGap(Duration.ofMillis(5)), 90, constant(150), 3);

        assertAllSucceeded(run);
        assertThat(run.comparison().unmatched()).isZero();
        assertThat(run.records()).allSatisfy(r -> assertThat(r.outputTokens()).isEqualTo(8));
        assertThat(server.requestsReceived()).isEqualTo(90);
        assertThat(server.peakStreams()).isGreaterThan(1);
        assertThat(server.cpuNs()).isPositive();
        assertMedianNear(run, Metric.TTFT, LATENCY_TOL_MS);
        assertMedianNear(run, Metric.ITL, ITL_TOL_MS);
    }

    @Test
    void multiTokenChunksGiveItlPerTokenAndOutputTokensFromUsage() throws IOException {
        // 4 tokens per event, 20 ms apart: ITL is 5 ms per token, not 20 ms per event and not 0
        Run run = run(Script.defaults().withTokensPerEvent(4).withTokensPerRequest(40).withGap(Duration.ofMillis(20))
                .withUsage(Script.Usage.CONTINUOUS), 6);

        assertAllSucceeded(run);
        assertThat(run.records()).allSatisfy(r -> {
            assertThat(r.outputTokens()).isEqualTo(40);
            assertThat(r.outputTokensSource()).isEqualTo(TokenSource.USAGE);
            assertThat(r.eventTokens()).containsOnly(4);
            assertThat(r.eventTokensSource()).isEqualTo(TokenSource.CONTINUOUS_USAGE);
        });
        assertThat(run.measured(Metric.ITL).p50()).as("per-token ITL (ms)").isCloseTo(5.0, within(ITL_TOL_MS));
        assertMedianNear(run, Metric.ITL, ITL_TOL_MS);
        assertThat(run.measured(Metric.INTER_CHUNK_LATENCY).p50()).as("per-event gap (ms)").isCloseTo(20.0, within(ITL_TOL_MS * 4));
        assertMedianNear(run, Metric.TPOT, ITL_TOL_MS);
        assertMedianNear(run, Metric.TTFT, LATENCY_TOL_MS);
        assertMedianNear(run, Metric.E2E_LATENCY, LATENCY_TOL_MS);
    }

    @Test
    void multiTokenChunksWithoutPerEventCountsLeaveItlAndPeakOutRatherThanGiveThemPerEvent() throws IOException {
        // 4 tokens per event, 20 ms apart, and only a final usage: each event counts as one token, so a per-token ITL
        // taken from them would be 20 ms where the truth is 5, and the peak would count events
        Run run = run(Script.defaults().withTokensPerEvent(4).withTokensPerRequest(40).withGap(Duration.ofMillis(20))
                .withUsage(Script.Usage.FINAL), 30);

        assertAllSucceeded(run);
        assertThat(run.records()).allSatisfy(r -> {
            assertThat(r.outputTokens()).isEqualTo(40);
            assertThat(r.outputTokensSource()).isEqualTo(TokenSource.USAGE);
            assertThat(r.eventTokensSource()).isEqualTo(TokenSource.EVENTS);
        });
        assertThat(run.truth(Metric.ITL).p50()).as("the truth's per-token ITL (ms)").isCloseTo(5.0, within(0.5));
        assertThat(run.measured.distribution(Metric.ITL)).as("per-token ITL").isEmpty();
        assertThat(run.truth.value(Metric.PEAK_OUTPUT_THROUGHPUT)).as("the truth's peak (a window over 1 s)").isPresent();
        assertThat(run.measured.value(Metric.PEAK_OUTPUT_THROUGHPUT)).as("peak output throughput").isEmpty();
        assertThat(run.measured.notes()).anySatisfy(n -> assertThat(n).contains("1200 output tokens in 300 token events")
                .contains("ITL and the peak output throughput").contains("continuousUsage=true"));
        assertMedianNear(run, Metric.TPOT, ITL_TOL_MS);
        assertThat(run.measured(Metric.INTER_CHUNK_LATENCY).p50()).as("per-event gap (ms)").isCloseTo(20.0, within(ITL_TOL_MS * 4));
        double trueThroughput = run.truth.value(Metric.OUTPUT_THROUGHPUT).orElseThrow();
        assertThat(run.measured.value(Metric.OUTPUT_THROUGHPUT)).hasValueCloseTo(trueThroughput, within(trueThroughput * 0.05));
    }

    @Test
    void oneTokenPerEventWithOnlyAFinalUsageKeepsItlAndPeak() throws IOException {
        // short answers, one token an event, counted one each: the ITL is per token, and stays
        Run run = run(Script.defaults().withTokensPerRequest(4).withGap(Duration.ofMillis(10))
                .withUsage(Script.Usage.FINAL), 30);

        assertAllSucceeded(run);
        assertThat(run.measured.distribution(Metric.ITL)).isPresent();
        assertThat(run.measured.value(Metric.PEAK_OUTPUT_THROUGHPUT)).isPresent();
        assertMedianNear(run, Metric.ITL, ITL_TOL_MS);
    }

    @Test
    void eventsCoalescedIntoOneReadShareItsTimestampAndStillGiveNonZeroItl() throws IOException {
        // 4 events (one token each, each its own HTTP chunk) per socket write, writes 20 ms apart
        Run run = run(Script.defaults().withEventsPerWrite(4).withTokensPerRequest(32).withGap(Duration.ofMillis(20)), 6);

        assertAllSucceeded(run);
        assertThat(run.records()).allSatisfy(r -> {
            long[] t = r.eventTimesNs();
            assertThat(t).hasSize(32);
            for (int k = 0; k < t.length; k++) {
                if (k % 4 != 0) {
                    assertThat(t[k]).as("event %d of %s shares the read of event %d", k, r, k - k % 4).isEqualTo(t[k - k % 4]);
                }
            }
            assertThat(r.eventsPerReadMax()).isGreaterThanOrEqualTo(4);
            assertThat(r.coalescedEvents()).isGreaterThanOrEqualTo(24);
        });
        assertThat(run.measured.coalescedEvents()).isGreaterThanOrEqualTo(6 * 24);
        assertThat(run.measured(Metric.ITL).p50()).as("ITL of 4 tokens read together 20 ms apart (ms)").isCloseTo(5.0, within(ITL_TOL_MS));
        assertMedianNear(run, Metric.ITL, ITL_TOL_MS);
        assertMedianNear(run, Metric.TPOT, ITL_TOL_MS);
    }

    @Test
    void aWriteLargerThanTheClientsReadBufferIsStampedWhenItsBytesArrive() throws IOException {
        // 8 events of 1,000 tokens (4 kB each) in one 32 kB write: the client needs several socket reads for it,
        // and the server's non-blocking write may itself go out in parts. Each event must be stamped when its
        // bytes arrived: never before the server wrote it, and not later than a read's handling takes
        Run run = run(Script.defaults().withTokensPerEvent(1000).withTokensPerRequest(8_000).withEventsPerWrite(8)
                .withUsage(Script.Usage.CONTINUOUS), 6);

        assertAllSucceeded(run);
        assertThat(run.records()).allSatisfy(r -> {
            assertThat(r.eventTimesNs()).hasSize(8);
            assertThat(r.outputTokens()).isEqualTo(8_000);
            assertThat(r.eventsPerReadMax()).isGreaterThan(1);
        });
        // an event's bytes cannot arrive before its write began, at or after the write's due time: its stamp is at most a
        // read's span early (bytes handled within 1 ms of a read share its stamp, ReadClock.MAX_READ_SPAN_NS). The
        // server notes a write only when all of it has gone to the kernel, which a 32 kB write in parts, or the server
        // thread waiting for a CPU, can leave milliseconds after its first bytes arrived: no lower bound from that note
        for (RequestRecord r : run.records()) {
            List<SentEvent> sent = run.truths().get(Long.toString(r.id())).events();
            for (int k = 0; k < sent.size(); k++) {
                assertThat(r.eventTimesNs()[k] - sent.get(k).dueNs()).as("client stamp - due time of its write (ns)")
                        .isGreaterThan(-1_500_000L);
            }
        }
        SignedSamples delays = run.comparison().eventDelays();
        // the first requests meet a cold JVM, whose handling of 32 kB of chunks can take a few milliseconds
        assertThat(delays.max()).as("latest client stamp - server write (ns)")
                .isLessThan(2 * LATENCY_TOL_MS * 1_000_000);
    }

    @Test
    void roleOnlyFirstChunkDoesNotStartTtft() throws IOException {
        // the role chunk goes out with the head at once; the first token 80 ms later
        Run run = run(Script.defaults().withRoleChunk(true).withTtft(Duration.ofMillis(80)).withTokensPerRequest(5), 5);

        assertAllSucceeded(run);
        assertThat(run.truth(Metric.TTFT).p50()).isGreaterThanOrEqualTo(80);
        assertMedianNear(run, Metric.TTFT, LATENCY_TOL_MS);
        assertThat(run.measured(Metric.TTFT).min()).as("shortest TTFT (ms)").isGreaterThan(80 - LATENCY_TOL_MS);
    }

    @Test
    void reasoningTokensCountForTtftButNotForTimeToFirstContent() throws IOException {
        // 10 reasoning events 10 ms apart before the content: first content about 100 ms after the first token
        Run run = run(Script.defaults().withReasoningTokens(10).withTokensPerRequest(15), 5);

        assertAllSucceeded(run);
        assertMedianNear(run, Metric.TTFT, LATENCY_TOL_MS);
        assertMedianNear(run, Metric.TIME_TO_FIRST_CONTENT, LATENCY_TOL_MS);
        assertThat(run.measured(Metric.TIME_TO_FIRST_CONTENT).p50() - run.measured(Metric.TTFT).p50())
                .as("reasoning phase (ms)").isCloseTo(100.0, within(LATENCY_TOL_MS * 2));
        assertThat(run.records()).allSatisfy(r -> assertThat(r.outputTokens()).isEqualTo(15));
    }

    @Test
    void missingUsageCountsOutputTokensFromEvents() throws IOException {
        Run run = run(Script.defaults().withUsage(Script.Usage.NONE).withTokensPerRequest(12), 5);

        assertAllSucceeded(run);
        assertThat(run.records()).allSatisfy(r -> {
            assertThat(r.outputTokens()).isEqualTo(12);
            assertThat(r.outputTokensSource()).isEqualTo(TokenSource.EVENTS);
            assertThat(r.eventTokensSource()).isEqualTo(TokenSource.EVENTS);
        });
        assertThat(run.measured.outputTokenSources()).containsEntry("EVENTS", 5L);
        assertMedianNear(run, Metric.TPOT, ITL_TOL_MS);
    }

    @Test
    void aConcurrencyCapMakesRequestsQueueAndTheWaitShowsFromTheSchedule() throws IOException {
        // 12 requests at 100/s through 2 connections, each request about 20 + 9 * 10 = 110 ms long:
        // the client can only start one every 55 ms, so the last one waits about 12 * 55 - 110 = 550 ms
        Run run = run(Script.defaults().withTokensPerRequest(10), 12, constant(100).withMaxConnections(2));

        assertAllSucceeded(run);
        assertThat(server.peakStreams()).isEqualTo(2);
        assertMedianNear(run, Metric.TTFT, LATENCY_TOL_MS);
        assertMedianNear(run, Metric.E2E_LATENCY, LATENCY_TOL_MS);
        assertThat(run.measured(Metric.SCHEDULE_LAG).max()).as("longest wait for a connection (ms)").isGreaterThan(400);
        for (RequestRecord r : run.records()) {
            long lag = r.sentNs() - r.intendedNs();
            assertThat((r.firstTokenNs() - r.intendedNs()) - (r.firstTokenNs() - r.sentNs())).isEqualTo(lag);
        }
        assertThat(run.measured(Metric.TTFT_FROM_SCHEDULE).max()).isGreaterThan(run.measured(Metric.TTFT).max() + 300);
        assertThat(run.measured(Metric.E2E_FROM_SCHEDULE).p50()).isGreaterThan(run.measured(Metric.E2E_LATENCY).p50() + 0.1);
    }

    @Test
    void aTwoSecondStallShowsInTheTailOfLatencyFromSchedule() throws IOException {
        // every 10th request stalls 2 s after its 3rd token: 2 of 20 requests, so P99 and max are the stalls
        Script script = Script.defaults().withTokensPerRequest(6)
                .withStall(new Script.Stall(3, Duration.ofSeconds(2), 10));
        Run run = run(script, 20, constant(20));

        assertAllSucceeded(run);
        Distribution e2e = run.measured(Metric.E2E_FROM_SCHEDULE);
        assertThat(e2e.unit()).isEqualTo("s");
        assertThat(e2e.p99()).as("P99 E2E from schedule (s)").isGreaterThanOrEqualTo(2.0);
        assertThat(e2e.max()).isGreaterThanOrEqualTo(2.0);
        assertThat(e2e.p50()).as("median E2E from schedule (s)").isLessThan(0.2);
        assertThat(run.measured(Metric.ITL).max()).as("the stall as one ITL gap (ms)").isGreaterThanOrEqualTo(2000);
        assertThat(e2e.max()).isCloseTo(run.truth(Metric.E2E_FROM_SCHEDULE).max(), within(LATENCY_TOL_MS / 1000));
    }

    @Test
    void serverFailuresBecomeFailedRecordsAndErrorCounts() throws IOException {
        RepetitionResult http500 = run(Script.defaults().withFailure(new Script.Failure.HttpError(500,
                "{\"object\":\"error\",\"message\":\"boom\"}")), 3).measured;
        stop();
        RepetitionResult closed = run(Script.defaults().withTokensPerRequest(10)
                .withFailure(new Script.Failure.CloseAfter(3)), 3).measured;
        stop();
        RepetitionResult payload = run(Script.defaults().withTokensPerRequest(10)
                .withFailure(new Script.Failure.ErrorPayload(3, "engine dead")), 3).measured;

        assertThat(http500.errorKinds()).containsExactlyEntriesOf(java.util.Map.of("http_500", 3L));
        assertThat(closed.errorKinds()).containsOnlyKeys("closed");
        assertThat(closed.errorKinds().get("closed")).isEqualTo(3L);
        assertThat(payload.errorKinds()).containsExactlyEntriesOf(java.util.Map.of("stream_error", 3L));
        for (RepetitionResult m : List.of(http500, closed, payload)) {
            assertThat(m.value(Metric.FAILED_REQUESTS)).hasValue(3);
            assertThat(m.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(0);
            assertThat(m.distribution(Metric.TTFT)).isEmpty();
        }
    }
}
