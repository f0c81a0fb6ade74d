package io.servebench.execution;

import io.servebench.load.ArrivalProfile;
import io.servebench.load.Interruption;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadListener;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.OpenAiApi;
import io.servebench.load.RecordCollector;
import io.servebench.load.Recorded;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordReader;
import io.servebench.load.RequestRecordWriter;
import io.servebench.load.Spread;
import io.servebench.load.StopConditions;
import io.servebench.load.Target;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.results.RepetitionResult;
import io.servebench.truth.ReceivedRequest;
import io.servebench.truth.Script;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Closed-loop synchronous sends, the concurrency cap, stop conditions, warm-up time, and what goes over the wire. */
class LoadGeneratorStopsTest {

    private final LoadGenerator generator = new LoadGenerator();
    private TruthServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static List<RequestSpec> specs(int n) {
        return IntStream.range(0, n).mapToObj(i -> new RequestSpec(i, "p" + i, 2, 4, false, false)).toList();
    }

    /** One token {@code millis} after the request, then the end of the stream. */
    private static Script respondAfter(long millis) {
        return Script.defaults().withTtft(Duration.ofMillis(millis)).withTokensPerRequest(1);
    }

    private Recorded run(Script script, List<RequestSpec> specs, LoadParams params) throws Exception {
        server = TruthServer.start(script, 0);
        return Recorded.run(generator, new Target(server.baseUri(), "m"), specs, params, LoadListener.NONE);
    }

    @Test
    void synchronousNeverHasMoreThanOneRequestInFlight() throws Exception {
        Recorded result = run(respondAfter(15), specs(6), LoadParams.of(new ArrivalProfile.Synchronous()));
        List<RequestRecord> records = result.records();
        assertThat(records).hasSize(6).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        assertThat(server.peakStreams()).isEqualTo(1);
        for (int i = 1; i < records.size(); i++) {
            assertThat(records.get(i).intendedNs()).isEqualTo(records.get(i - 1).doneNs());
            assertThat(records.get(i).sentNs()).isGreaterThanOrEqualTo(records.get(i - 1).doneNs());
        }
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.COMPLETED);
        assertThat(result.stop().note()).isEmpty();
    }

    @Test
    void theConcurrencyCapQueuesRequestsAndRecordsTheirWaitAsClientQueueing() throws Exception {
        ArrivalProfile capped = new ArrivalProfile.Capped(new ArrivalProfile.Throughput(), 2);
        Recorded result = run(respondAfter(80), specs(6), LoadParams.of(capped));
        List<RequestRecord> records = result.records();
        assertThat(records).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        assertThat(server.peakStreams()).isLessThanOrEqualTo(2);
        assertThat(records).allSatisfy(r -> {
            assertThat(r.slotNs()).isGreaterThanOrEqualTo(r.intendedNs());
            assertThat(r.sentNs()).isGreaterThanOrEqualTo(r.slotNs());
        });
        // the third pair can only start when the first two pairs (80 ms each) are done
        RequestRecord last = records.get(5);
        assertThat(last.slotNs() - last.intendedNs()).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(150));

        RepetitionResult metrics = new MetricsAggregator().aggregate(records);
        double maxWaitMs = metrics.distribution(Metric.CLIENT_QUEUE_WAIT).orElseThrow().get(Stat.MAX);
        assertThat(maxWaitMs).isCloseTo((last.slotNs() - last.intendedNs()) / 1e6, within(maxWaitMs * 0.002 + 0.01));
        // latency from schedule includes the queue wait; latency from send does not
        double e2eFromSchedule = metrics.distribution(Metric.E2E_FROM_SCHEDULE).orElseThrow().get(Stat.MAX);
        double e2e = metrics.distribution(Metric.E2E_LATENCY).orElseThrow().get(Stat.MAX);
        assertThat(e2eFromSchedule - e2e).isGreaterThan(0.15);
    }

    @Test
    void withoutACapNoQueueWaitIsRecorded() throws Exception {
        Recorded result = run(respondAfter(0), specs(3), LoadParams.of(new ArrivalProfile.Constant(100)));
        assertThat(result.records()).allSatisfy(r -> assertThat(r.slotNs()).isEqualTo(RequestRecord.NONE));
        assertThat(new MetricsAggregator().aggregate(result.records()).distribution(Metric.CLIENT_QUEUE_WAIT)).isEmpty();
    }

    @Test
    void aDurationLimitStopsSendingButLetsInFlightRequestsFinish() throws Exception {
        LoadParams params = LoadParams.of(new ArrivalProfile.Constant(50))
                .withStop(new StopConditions(Duration.ofMillis(200), 0));
        Recorded result = run(respondAfter(150), specs(100), params);
        // intended sends at 0, 20, ..., 180 ms fall before the limit, 200 ms does not; on a loaded machine the
        // last one or two may be sent only after the limit, and so not at all
        int sent = result.records().size();
        assertThat(sent).isBetween(8, 10);
        assertThat(result.records()).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.DURATION);
        assertThat(result.stop().note()).hasValue("stopped after 0.200 s (duration limit): " + sent + " of 100 requests sent");
    }

    @Test
    void aClosedLoopDurationLimitUsesTheClock() throws Exception {
        LoadParams params = LoadParams.of(new ArrivalProfile.Concurrent(2))
                .withStop(new StopConditions(Duration.ofMillis(150), 0));
        Recorded result = run(respondAfter(40), specs(1000), params);
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.DURATION);
        RequestRecord lastSent = result.records().stream().max((a, b) -> Long.compare(a.sentNs(), b.sentNs())).orElseThrow();
        long t0 = result.records().get(0).intendedNs();
        assertThat(lastSent.intendedNs() - t0).isLessThan(TimeUnit.MILLISECONDS.toNanos(150));
        assertThat(result.records().size()).isLessThan(1000);
    }

    @Test
    void anErrorLimitAbortsSendingAndSaysSo() throws Exception {
        LoadParams params = LoadParams.of(new ArrivalProfile.Concurrent(1)).withStop(new StopConditions(null, 3));
        Recorded result = run(Script.defaults().withFailure(new Script.Failure.HttpError(500, "boom")), specs(50), params);
        assertThat(result.records()).hasSize(3).allSatisfy(r -> assertThat(r.errorKind()).isEqualTo("http_500"));
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.ERRORS);
        assertThat(result.stop().note().orElseThrow()).startsWith("aborted after 3 failed requests (error limit)")
                .endsWith("3 of 50 requests sent");
    }

    @Test
    void warmupSecondsMarksTheRequestsDueInThemAndSendsTheMeasuredOnesOnTop() throws Exception {
        server = TruthServer.start(respondAfter(0), 0);
        LoadParams params = LoadParams.of(new ArrivalProfile.Constant(100)).withWarmupTime(Duration.ofMillis(95));
        Recorded result = Recorded.run(generator, new Target(server.baseUri(), "m"), specs(1000).iterator(), 1, 5, params,
                LoadListener.NONE);
        List<RequestRecord> records = result.records();
        // due at 0, 10, ..., 90 ms: ten warm-up requests, then five measured ones
        assertThat(records).hasSize(15);
        assertThat(records.stream().filter(RequestRecord::warmup).count()).isEqualTo(10);
        assertThat(records.subList(10, 15)).noneMatch(RequestRecord::warmup);
        assertThat(result.measuredStartNs()).isEqualTo(records.get(10).intendedNs());
    }

    @Test
    void everyRequestCarriesItsIdTheApiKeyAndTheExtraBody() throws Exception {
        LoadParams params = LoadParams.of(new ArrivalProfile.Constant(200)).withApiKey("sk-test-123")
                .withApi(OpenAiApi.COMPLETIONS).withExtraBody("{\"temperature\": 0, \"top_k\": 5}");
        Recorded result = run(respondAfter(0), specs(3), params);
        assertThat(result.records()).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        Map<String, ReceivedRequest> received = new java.util.HashMap<>();
        server.requests().forEach(r -> received.put(r.requestId(), r));
        assertThat(received).containsOnlyKeys("0", "1", "2");
        ReceivedRequest first = received.get("0");
        assertThat(first.path()).isEqualTo("/v1/completions");
        assertThat(first.headers()).containsEntry("authorization", "Bearer sk-test-123");
        assertThat(first.body()).contains("\"temperature\":0").contains("\"top_k\":5").contains("\"prompt\":\"p0\"");
        assertThat(params.toString()).contains("apiKey=<redacted>").doesNotContain("sk-test-123");
    }

    @Test
    void recordsKeepTheirSlotThroughTheFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Recorded result = run(respondAfter(0), specs(2),
                LoadParams.of(new ArrivalProfile.Capped(new ArrivalProfile.Constant(100), 1)));
        java.nio.file.Path file = RequestRecordWriter.writeTrial(dir, "t", result.records());
        List<RequestRecord> back = new ArrayList<>(RequestRecordReader.read(file));
        assertThat(back).isEqualTo(result.records());
        assertThat(back.get(0).slotNs()).isNotEqualTo(RequestRecord.NONE);
    }

    /**
     * Runs {@code specs} on another thread and interrupts it {@code afterMs} after it began; the run's result, and how
     * long it took from the interruption to return, ms.
     */
    private Object[] interruptedAfter(Script script, List<RequestSpec> specs, LoadParams params, long afterMs)
            throws Exception {
        server = TruthServer.start(script, 0);
        Interruption interruption = new Interruption();
        RecordCollector records = new RecordCollector(LoadListener.NONE);
        java.util.concurrent.CompletableFuture<LoadResult> run = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                generator.run(List.of(new Target(server.baseUri(), "m")), Spread.roundRobin(1), specs.iterator(), 0,
                        specs.size(), params, records, interruption));
        Thread.sleep(afterMs);
        long interruptedNs = System.nanoTime();
        interruption.interrupt("SIGINT");
        LoadResult result = run.get(30, TimeUnit.SECONDS);
        return new Object[] {new Recorded(result, records.records()), (System.nanoTime() - interruptedNs) / 1e6};
    }

    @Test
    void anInterruptionStopsSendingAndCallsOffTheRequestsInFlight() throws Exception {
        // two requests a second whose answers take 5 s: at 1.2 s, three are in flight and seventeen still to send
        Object[] out = interruptedAfter(respondAfter(5000), specs(20),
                LoadParams.of(new ArrivalProfile.Constant(2)), 1200);
        Recorded result = (Recorded) out[0];
        assertThat((double) out[1]).as("ms from the interruption to the run's end").isLessThan(1000);
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.INTERRUPTED);
        assertThat(result.stop().note()).hasValueSatisfying(n -> assertThat(n).startsWith("interrupted at 1.")
                .contains("(SIGINT): 3 of 20 requests sent, those in flight called off"));
        assertThat(result.records()).hasSize(3).allSatisfy(r -> {
            assertThat(r.cancelledByClient()).as(r.toString()).isTrue();
            assertThat(r.error()).contains("the run was interrupted (SIGINT)");
        });
    }

    @Test
    void anInterruptionWakesASenderWaitingForItsNextSendTime() throws Exception {
        // one request every 4 s, answered at once: the sender waits for the second when the run is interrupted
        Object[] out = interruptedAfter(respondAfter(5), specs(5), LoadParams.of(new ArrivalProfile.Constant(0.25)), 800);
        Recorded result = (Recorded) out[0];
        assertThat((double) out[1]).as("ms from the interruption to the run's end").isLessThan(1000);
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.INTERRUPTED);
        assertThat(result.records()).singleElement().satisfies(r -> assertThat(r.succeeded()).isTrue());
    }

    @Test
    void anInterruptionWakesAClosedLoopWaitingForAFreeStream() throws Exception {
        // two streams whose answers take 5 s: the sender waits for a stream to free when the run is interrupted
        Object[] out = interruptedAfter(respondAfter(5000), specs(10), LoadParams.of(new ArrivalProfile.Concurrent(2)), 800);
        Recorded result = (Recorded) out[0];
        assertThat((double) out[1]).as("ms from the interruption to the run's end").isLessThan(1000);
        assertThat(result.stop().reason()).isEqualTo(LoadResult.StopReason.INTERRUPTED);
        assertThat(result.records()).hasSize(2).allSatisfy(r -> assertThat(r.cancelledByClient()).isTrue());
    }

    @Test
    void anInterruptionAfterTheLastSendCutsTheLoadShortAllTheSame() throws Exception {
        // every request sent at once; the interruption comes while they are all in flight
        Object[] out = interruptedAfter(respondAfter(5000), specs(4), LoadParams.of(new ArrivalProfile.Throughput()), 800);
        Recorded result = (Recorded) out[0];
        assertThat(result.stop().reason()).as("sent everything, but called off its requests")
                .isEqualTo(LoadResult.StopReason.INTERRUPTED);
        assertThat(result.records()).hasSize(4).allSatisfy(r -> assertThat(r.cancelledByClient()).isTrue());
    }
}
