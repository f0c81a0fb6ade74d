package io.servebench.load;

import io.servebench.truth.Script;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LoadGeneratorTest {

    private final LoadGenerator generator = new LoadGenerator();
    private TruthServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** {@code warmups} warm-up requests followed by {@code measured} measured ones, indices 0..n-1. */
    private static List<RequestSpec> specs(int warmups, int measured) {
        List<RequestSpec> specs = new ArrayList<>();
        for (int i = 0; i < warmups + measured; i++) {
            specs.add(new RequestSpec(i, "p" + i, 2, 4, false, i < warmups));
        }
        return specs;
    }

    private Recorded run(Script script, List<RequestSpec> specs, LoadParams params,
                           LoadListener listener) throws Exception {
        server = TruthServer.start(script, 0);
        return Recorded.run(generator, new Target(server.baseUri(), "m"), specs, params, listener);
    }

    /** One token {@code millis} after the request, then the end of the stream. */
    private static Script respondAfter(long millis) {
        return Script.defaults().withTtft(Duration.ofMillis(millis)).withTokensPerRequest(1);
    }

    /** The largest number of requests whose [sent, done] intervals overlap. */
    private static int maxOverlap(List<RequestRecord> records) {
        List<long[]> edges = new ArrayList<>();
        for (RequestRecord r : records) {
            edges.add(new long[] {r.sentNs(), 1});
            edges.add(new long[] {r.doneNs(), -1});
        }
        // at equal times, ends before starts
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int now = 0;
        int max = 0;
        for (long[] e : edges) {
            now += (int) e[1];
            max = Math.max(max, now);
        }
        return max;
    }

    @Test
    void constantRateSendsOnAnExactlyEvenScheduleAndMarksWarmups() throws Exception {
        AtomicInteger completions = new AtomicInteger();
        Recorded result = run(respondAfter(0), specs(2, 28),
                LoadParams.of(new ArrivalProfile.Constant(100)), r -> completions.incrementAndGet());

        List<RequestRecord> records = result.records();
        assertThat(records).hasSize(30);
        assertThat(records).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        assertThat(records.stream().mapToLong(RequestRecord::id).toArray())
                .containsExactly(java.util.stream.LongStream.range(0, 30).toArray());
        assertThat(records.stream().filter(RequestRecord::warmup).mapToLong(RequestRecord::id).toArray())
                .containsExactly(0, 1);
        assertThat(completions).hasValue(30);
        for (int i = 1; i < records.size(); i++) {
            assertThat(records.get(i).intendedNs() - records.get(i - 1).intendedNs()).isEqualTo(10_000_000L);
        }
        assertThat(records).allSatisfy(r -> assertThat(r.sentNs()).isGreaterThanOrEqualTo(r.intendedNs()));

        double sendSpan = (records.get(29).sentNs() - records.get(0).sentNs()) / 1e9;
        assertThat(29 / sendSpan).as("achieved send rate, requests/s").isCloseTo(100, within(30.0));

        assertThat(result.measuredStartNs()).isEqualTo(records.get(2).intendedNs());
        assertThat(result.measuredEndNs()).isEqualTo(
                records.stream().skip(2).mapToLong(RequestRecord::doneNs).max().orElseThrow());
    }

    @Test
    void poissonSendsOnTheSeededScheduleExactly() throws Exception {
        ArrivalProfile.Poisson profile = new ArrivalProfile.Poisson(200, 11);
        Recorded result = run(respondAfter(0), specs(0, 20), LoadParams.of(profile), LoadListener.NONE);
        long[] expected = profile.offsetsNs(20);
        long t0 = result.records().get(0).intendedNs();
        long[] actual = result.records().stream().mapToLong(r -> r.intendedNs() - t0).toArray();
        assertThat(actual).isEqualTo(expected);
        assertThat(result.measuredStartNs()).isEqualTo(t0);
    }

    @Test
    void aTraceSendsAtItsOffsetsAndEndsWithItsLastArrival() throws Exception {
        long[] arrivals = {0, 40_000_000, 40_000_000, 95_000_000};
        server = TruthServer.start(respondAfter(0), 0);
        java.util.Iterator<RequestSpec> endless = java.util.stream.IntStream.iterate(0, i -> i + 1)
                .mapToObj(i -> new RequestSpec(i, "p" + i, 2, 4, false, false)).iterator();
        Recorded result = Recorded.run(generator, new Target(server.baseUri(), "m"), endless, 1, 100,
                LoadParams.of(new ArrivalProfile.Trace(arrivals)), LoadListener.NONE);
        long t0 = result.records().get(0).intendedNs();
        assertThat(result.records().stream().mapToLong(r -> r.intendedNs() - t0).toArray()).isEqualTo(arrivals);
        assertThat(result.records()).extracting(RequestRecord::warmup).containsExactly(true, false, false, false);
        assertThat(result.stop().note()).isEmpty();
        assertThatThrownBy(() -> new ArrivalProfile.Trace(new long[] {0, 5, 4}))
                .hasMessageContaining("trace arrival 2 (4 ns) comes before the one before it (5 ns)");
    }

    /** Two conversations: turns 0, 1, 2 and turns 0, 1, as a multi-turn dataset draws them. */
    private static List<RequestSpec> conversations() {
        int[] turns = {0, 1, 2, 0, 1};
        List<RequestSpec> specs = new ArrayList<>();
        for (int i = 0; i < turns.length; i++) {
            specs.add(new RequestSpec(i, "p" + i, 2, 4, false, false, List.of(), null, turns[i]));
        }
        return specs;
    }

    @Test
    void aLaterTurnGoesOutWhenTheTurnBeforeItHasEndedAndTheScheduleTimesOnlyFirstTurns() throws Exception {
        Recorded result = run(respondAfter(30), conversations(), LoadParams.of(new ArrivalProfile.Constant(50)),
                LoadListener.NONE);
        List<RequestRecord> r = result.records();
        assertThat(r).hasSize(5).allSatisfy(x -> assertThat(x.succeeded()).isTrue());
        // first turns 20 ms apart (50 req/s); each later turn is due when its turn before ended, and not sent before
        assertThat(r.get(3).intendedNs() - r.get(0).intendedNs()).isEqualTo(20_000_000L);
        for (int later : new int[] {1, 2, 4}) {
            assertThat(r.get(later).intendedNs()).as("turn %d", later).isEqualTo(r.get(later - 1).doneNs());
            assertThat(r.get(later).sentNs()).isGreaterThanOrEqualTo(r.get(later - 1).doneNs());
        }
        assertThat(result.stop().note()).isEmpty();

        // closed loop: one stream carries a whole conversation before the next one starts
        Recorded closed = Recorded.run(generator, new Target(server.baseUri(), "m"), conversations(),
                LoadParams.of(new ArrivalProfile.Concurrent(1)), LoadListener.NONE);
        List<RequestRecord> c = closed.records();
        for (int i = 1; i < c.size(); i++) {
            assertThat(c.get(i).intendedNs()).isEqualTo(c.get(i - 1).doneNs());
        }
    }

    @Test
    void concurrentNeverExceedsItsStreamsAndStartsEachRequestWhenAStreamFrees() throws Exception {
        Recorded result = run(respondAfter(40), specs(0, 12), LoadParams.of(new ArrivalProfile.Concurrent(3)),
                LoadListener.NONE);
        List<RequestRecord> records = result.records();
        assertThat(records).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        assertThat(server.peakStreams()).isEqualTo(3);
        assertThat(maxOverlap(records)).isLessThanOrEqualTo(3);
        long[] doneTimes = records.stream().mapToLong(RequestRecord::doneNs).toArray();
        for (RequestRecord r : records.subList(3, records.size())) {
            assertThat(Arrays.stream(doneTimes).anyMatch(d -> d == r.intendedNs()))
                    .as("request %d is intended when an earlier one finished", r.id()).isTrue();
        }
        assertThat(records.subList(0, 3)).allSatisfy(r -> assertThat(r.intendedNs()).isEqualTo(records.get(0).intendedNs()));
    }

    @Test
    void theConnectionCapLimitsInFlightRequestsAndTheWaitShowsAsScheduleLag() throws Exception {
        Recorded result = run(respondAfter(100), specs(0, 6),
                LoadParams.of(new ArrivalProfile.Constant(100)).withMaxConnections(2), LoadListener.NONE);
        assertThat(result.records()).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        assertThat(server.peakStreams()).isLessThanOrEqualTo(2);
        RequestRecord last = result.records().get(5);
        // requests 4 and 5 can only go out when the first two pairs (100 ms each) are done
        assertThat(last.sentNs() - last.intendedNs()).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Test
    void failuresAreRecordsAndTheRunStillEnds() throws Exception {
        LoadParams params = LoadParams.of(new ArrivalProfile.Constant(200))
                .withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(200));
        Recorded refused = run(Script.defaults().withFailure(new Script.Failure.HttpError(503, "overloaded")),
                specs(0, 4), params, LoadListener.NONE);
        assertThat(refused.records().stream().map(RequestRecord::error)).containsOnly("http_503: overloaded");
        server.close();
        // the head, then silence past the request timeout
        Recorded stalled = run(Script.defaults().withTtft(Duration.ofSeconds(30)), specs(0, 4), params,
                LoadListener.NONE);
        assertThat(stalled.records().stream().map(RequestRecord::errorKind)).containsOnly("timeout").hasSize(4);
    }

    @Test
    void aFailingListenerDoesNotStopTheRunButIsReported() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> run(respondAfter(0), specs(0, 4), LoadParams.of(new ArrivalProfile.Concurrent(1)),
                r -> {
                    calls.incrementAndGet();
                    throw new IllegalStateException("progress bar broke");
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("LoadListener")
                .hasRootCauseMessage("progress bar broke");
        assertThat(calls).hasValue(4);
    }

    @Test
    void specsAreValidated() {
        Target nowhere = new Target(java.net.URI.create("http://127.0.0.1:9"), "m");
        LoadParams params = LoadParams.of(new ArrivalProfile.Constant(1));
        List<RequestSpec> warmupLate = List.of(new RequestSpec(0, "a", 1, 1, false, false),
                new RequestSpec(1, "b", 1, 1, false, true));
        assertThatThrownBy(() -> generator.run(nowhere, warmupLate, params, LoadListener.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("specs[1]");
        List<RequestSpec> duplicate = List.of(new RequestSpec(4, "a", 1, 1, false, false),
                new RequestSpec(4, "b", 1, 1, false, false));
        assertThatThrownBy(() -> generator.run(nowhere, duplicate, params, LoadListener.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index 4");
    }

    @Test
    void noMeasuredRequestsLeaveNoWindow() throws Exception {
        Recorded result = run(respondAfter(0), specs(2, 0), LoadParams.of(new ArrivalProfile.Constant(50)),
                LoadListener.NONE);
        assertThat(result.records()).hasSize(2);
        assertThat(result.measuredStartNs()).isEqualTo(RequestRecord.NONE);
        assertThat(result.measuredEndNs()).isEqualTo(RequestRecord.NONE);
    }
}
