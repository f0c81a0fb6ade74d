package io.servebench.metrics;

import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.results.Distribution;
import io.servebench.results.HistogramBucket;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MetricsAggregatorTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final long T0 = 5 * S;

    private final MetricsAggregator aggregator = new MetricsAggregator();

    /** A successful request sent at {@code sent}, intended at {@code intended}, with the given token events. */
    private static RequestRecord request(long id, long intended, long sent, long[] times, int[] tokens) {
        return request(id, intended, sent, times, tokens, times.length > 0 ? times[0] : RequestRecord.NONE, 0);
    }

    private static RequestRecord request(long id, long intended, long sent, long[] times, int[] tokens,
                                         long firstContent, int coalesced) {
        int out = 0;
        for (int n : tokens) {
            out += n;
        }
        long first = times.length > 0 ? times[0] : RequestRecord.NONE;
        long end = times.length > 0 ? times[times.length - 1] : RequestRecord.NONE;
        long done = (times.length > 0 ? end : sent) + MS;
        return new RequestRecord(id, false, intended, sent, first, firstContent, end, done, 100, out,
                TokenSource.USAGE, times, tokens, TokenSource.CONTINUOUS_USAGE, 1, coalesced, 200, null);
    }

    private static RequestRecord failed(long id, long intended, long sent, long done, String error) {
        return new RequestRecord(id, false, intended, sent, RequestRecord.NONE, RequestRecord.NONE, RequestRecord.NONE,
                done, 100, 0, TokenSource.EVENTS, new long[0], new int[0], TokenSource.EVENTS, 0, 0, 500, error);
    }

    private static Distribution dist(RepetitionResult m, Metric metric) {
        return m.distribution(metric).orElseThrow(() -> new AssertionError(metric + " absent"));
    }

    /**
     * A request the client called off is neither a success nor a failure: it counts as cancelled only, in no
     * distribution; a request over its deadline is a failure and counted as timed out too.
     */
    @Test
    void cancelledRequestsAreCountedApartAndTimedOutOnesAreFailures() {
        RepetitionResult m = aggregator.aggregate(List.of(
                request(1, T0, T0, new long[] {T0 + 40 * MS, T0 + 50 * MS}, new int[] {1, 1}),
                failed(2, T0, T0, T0 + 400 * MS, "client_cancel: called off 0.400 s after its send (cancellationRate)"),
                failed(3, T0, T0, T0 + 600 * MS, "deadline: it had not ended 0.600 s after its send (timeoutSeconds)"),
                failed(4, T0, T0, T0 + 10 * MS, "http_500: engine died")));
        assertThat(m.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(1);
        assertThat(m.value(Metric.FAILED_REQUESTS)).hasValue(2);
        assertThat(m.value(Metric.CANCELLED_REQUESTS)).hasValue(1);
        assertThat(m.value(Metric.TIMED_OUT_REQUESTS)).hasValue(1);
        assertThat(m.errorKinds()).containsOnlyKeys("deadline", "http_500");
        assertThat(dist(m, Metric.E2E_LATENCY).count()).isEqualTo(1);
        // the cancelled request was in flight: the window runs to its end
        assertThat(m.value(Metric.DURATION).orElseThrow()).isCloseTo(0.6, within(1e-9));
        RepetitionResult none = aggregator.aggregate(List.of(request(1, T0, T0, new long[] {T0 + 40 * MS}, new int[] {1})));
        assertThat(none.value(Metric.CANCELLED_REQUESTS)).isEmpty();
    }

    @Test
    void ttftUsesFirstTokenEventAndE2eUsesLastTokenEvent() {
        // the role-only chunk is not in the record; the first token event at +40 ms is f
        RequestRecord r = request(1, T0, T0, new long[] {T0 + 40 * MS, T0 + 50 * MS, T0 + 60 * MS}, new int[] {1, 1, 1});
        RepetitionResult m = aggregator.aggregate(List.of(r));

        assertThat(dist(m, Metric.TTFT).mean()).isCloseTo(40.0, within(1e-9));
        assertThat(dist(m, Metric.TTFT).unit()).isEqualTo("ms");
        assertThat(dist(m, Metric.E2E_LATENCY).mean()).isCloseTo(0.060, within(1e-12));
        assertThat(dist(m, Metric.E2E_LATENCY).unit()).isEqualTo("s");
        assertThat(dist(m, Metric.TPOT).mean()).isCloseTo(10.0, within(1e-9)); // (60 − 40) / (3 − 1)
    }

    /** A request whose events were counted one token each (no continuous usage, no tokenizer), its usage {@code out}. */
    private static RequestRecord countedByEvents(long id, long[] times, int out) {
        int[] ones = new int[times.length];
        java.util.Arrays.fill(ones, 1);
        return new RequestRecord(id, false, T0, T0, times[0], times[0], times[times.length - 1],
                times[times.length - 1] + MS, 100, out, TokenSource.USAGE, times, ones, TokenSource.EVENTS, 1, 0, 200, null);
    }

    @Test
    void eventsTakenAsOneTokenEachButCarryingSeveralGiveNoItlNorPeak() {
        long[] times = {T0 + 100 * MS, T0 + 150 * MS, T0 + 200 * MS, T0 + 250 * MS};
        // one token more than the events is an end-of-sequence token without text: the events carry one each
        RepetitionResult one = aggregator.aggregate(List.of(countedByEvents(1, times, 5)));
        assertThat(one.distribution(Metric.ITL)).isPresent();
        assertThat(one.notes()).isEmpty();

        // 16 tokens in 4 events: an ITL of 50 ms "per token" would be the gap between events, 3.75x the real one
        SloParams itlBound = new SloParams(null, null, 100.0, null);
        RepetitionResult several = aggregator.aggregate(List.of(countedByEvents(1, times, 16)), itlBound);
        assertThat(several.distribution(Metric.ITL)).isEmpty();
        assertThat(several.value(Metric.GOODPUT)).isEmpty();
        assertThat(several.value(Metric.SLO_ATTAINMENT)).isEmpty();
        assertThat(dist(several, Metric.TPOT).mean()).isCloseTo(10.0, within(1e-9)); // (250 − 100) / 15
        assertThat(dist(several, Metric.INTER_CHUNK_LATENCY).mean()).isCloseTo(50.0, within(1e-9));
        assertThat(several.notes()).singleElement().asString().contains("16 output tokens in 4 token events (4.00 each)")
                .contains("goodput and SLO attainment");
        // without an ITL bound the SLOs are judged as before
        assertThat(aggregator.aggregate(List.of(countedByEvents(1, times, 16)), new SloParams(200.0, null, null, null))
                .value(Metric.SLO_ATTAINMENT)).hasValue(100.0);
    }

    /** A request whose events a client tokenizer counted ({@code tokens} each), its usage {@code out}. */
    private static RequestRecord countedByTokenizer(long id, long[] times, int[] tokens, int out) {
        return new RequestRecord(id, false, T0, T0, times[0], times[0], times[times.length - 1],
                times[times.length - 1] + MS, 100, out, TokenSource.USAGE, times, tokens, TokenSource.TOKENIZER, 1, 0, 200,
                null);
    }

    @Test
    void aTokenizerWhoseCountsStrayFromTheUsageIsSaidToBeAnothersModel() {
        long[] times = {T0 + 100 * MS, T0 + 150 * MS, T0 + 200 * MS, T0 + 250 * MS};
        // its counts and the usage agree but for an end-of-sequence token: nothing to say
        assertThat(aggregator.aggregate(List.of(countedByTokenizer(1, times, new int[] {2, 3, 2, 3}, 11))).notes())
                .isEmpty();
        // 10 counted where the server counted 14, and 14 where it counted 10: another model's tokenizer either way
        assertThat(aggregator.aggregate(List.of(countedByTokenizer(1, times, new int[] {2, 3, 2, 3}, 14))).notes())
                .singleElement().asString().contains("tokenizer= counted 10 tokens in the streamed text where the"
                        + " server's usage counted 14 (+40%)").contains("the served model's own tokenizer.json");
        assertThat(aggregator.aggregate(List.of(countedByTokenizer(1, times, new int[] {4, 4, 3, 3}, 10))).notes())
                .singleElement().asString().contains("(-29%)");
        // ITL stays, per the tokenizer's counts: an estimate the note qualifies
        assertThat(aggregator.aggregate(List.of(countedByTokenizer(1, times, new int[] {2, 3, 2, 3}, 14)))
                .distribution(Metric.ITL)).isPresent();
    }

    @Test
    void multiTokenChunksSpreadTheGapOverTheirTokens() {
        // 4 events; the last three carry 5 tokens each, 50 ms apart: 10 ms per token, never 0
        long[] times = {T0 + 100 * MS, T0 + 150 * MS, T0 + 200 * MS, T0 + 250 * MS};
        RequestRecord r = request(1, T0, T0, times, new int[] {1, 5, 5, 5});
        RepetitionResult m = aggregator.aggregate(List.of(r));

        Distribution itl = dist(m, Metric.ITL);
        assertThat(itl.count()).isEqualTo(15);
        assertThat(itl.p50()).isCloseTo(10.0, within(0.01));
        assertThat(itl.min()).isCloseTo(10.0, within(1e-9));
        assertThat(itl.mean()).isCloseTo(10.0, within(1e-9));
        Distribution chunk = dist(m, Metric.INTER_CHUNK_LATENCY);
        assertThat(chunk.count()).isEqualTo(3);
        assertThat(chunk.mean()).isCloseTo(50.0, within(1e-9));
        // per-request ITL mean equals TPOT: (250 − 100) / 15
        assertThat(dist(m, Metric.TPOT).mean()).isCloseTo(10.0, within(1e-9));
        assertThat(m.value(Metric.TOTAL_OUTPUT_TOKENS)).hasValue(16.0);
    }

    @Test
    void coalescedEventsAreOneArrivalForItlButZeroGapChunksForInterChunk() {
        // events 2 and 3 were parsed from one read (same timestamp); the same holds for events 0 and 1
        long[] times = {T0 + 20 * MS, T0 + 20 * MS, T0 + 40 * MS, T0 + 40 * MS, T0 + 60 * MS};
        RequestRecord r = request(1, T0, T0, times, new int[] {1, 1, 1, 1, 1}, T0 + 20 * MS, 2);
        RepetitionResult m = aggregator.aggregate(List.of(r));

        Distribution itl = dist(m, Metric.ITL);
        // arrival at 40 ms with 2 tokens → 2 × 10 ms; arrival at 60 ms with 1 token → 20 ms; first arrival none
        assertThat(itl.count()).isEqualTo(3);
        assertThat(itl.min()).isCloseTo(10.0, within(1e-9));
        assertThat(itl.p50()).isCloseTo(10.0, within(0.01));
        assertThat(itl.max()).isCloseTo(20.0, within(1e-9));
        Distribution chunk = dist(m, Metric.INTER_CHUNK_LATENCY);
        assertThat(chunk.count()).isEqualTo(4);
        assertThat(chunk.min()).isZero();
        assertThat(chunk.histogram()).extracting(HistogramBucket::count).containsExactly(2L, 2L);
        assertThat(m.coalescedEvents()).isEqualTo(2);
        assertThat(m.tokenEvents()).isEqualTo(5);
    }

    @Test
    void reasoningEventsCountForTtftButNotForTimeToFirstContent() {
        // reasoning tokens from +30 ms, first content token at +80 ms
        long[] times = {T0 + 30 * MS, T0 + 55 * MS, T0 + 80 * MS, T0 + 90 * MS};
        RequestRecord r = request(1, T0, T0, times, new int[] {1, 1, 1, 1}, T0 + 80 * MS, 0);
        RepetitionResult m = aggregator.aggregate(List.of(r));

        assertThat(dist(m, Metric.TTFT).mean()).isCloseTo(30.0, within(1e-9));
        assertThat(dist(m, Metric.TIME_TO_FIRST_CONTENT).mean()).isCloseTo(80.0, within(1e-9));
        assertThat(dist(m, Metric.ITL).count()).isEqualTo(3);
    }

    @Test
    void clientQueueingMakesFromScheduleMetricsLargerByTheLag() {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            long intended = T0 + i * 100 * MS;
            long lag = (i + 1) * 7 * MS;
            long sent = intended + lag;
            records.add(request(i, intended, sent, new long[] {sent + 30 * MS, sent + 40 * MS}, new int[] {1, 1}));
        }
        RepetitionResult m = aggregator.aggregate(records);

        double meanLagMs = 7 * 5.5;
        assertThat(dist(m, Metric.SCHEDULE_LAG).mean()).isCloseTo(meanLagMs, within(1e-9));
        assertThat(dist(m, Metric.TTFT).mean()).isCloseTo(30.0, within(1e-9));
        assertThat(dist(m, Metric.TTFT_FROM_SCHEDULE).mean()).isCloseTo(30.0 + meanLagMs, within(1e-9));
        assertThat(dist(m, Metric.E2E_FROM_SCHEDULE).mean() - dist(m, Metric.E2E_LATENCY).mean())
                .isCloseTo(meanLagMs / 1000, within(1e-12));
    }

    @Test
    void peakWindowLongerThanTheTrialIsAbsent() {
        RequestRecord r = request(1, T0, T0, new long[] {T0 + 100 * MS, T0 + 200 * MS}, new int[] {1, 1});
        RepetitionResult m = aggregator.aggregate(List.of(r));

        assertThat(m.value(Metric.DURATION).getAsDouble()).isLessThan(1.0);
        assertThat(m.value(Metric.PEAK_OUTPUT_THROUGHPUT)).isEmpty();
        assertThat(m.value(Metric.OUTPUT_THROUGHPUT)).isPresent();
    }

    @Test
    void aBurstOfTokensAtOneInstantIsCountedOverTheWholeWindow() {
        // 2.5 s trial: one request whose 200 tokens arrive in one instant at +1.2 s, another with 10 spread tokens
        RequestRecord burst = request(1, T0, T0, new long[] {T0 + 1200 * MS}, new int[] {200});
        long[] spread = new long[10];
        int[] ones = new int[10];
        for (int i = 0; i < 10; i++) {
            spread[i] = T0 + 100 * MS + i * 240 * MS;
            ones[i] = 1;
        }
        RequestRecord steady = request(2, T0, T0, spread, ones);
        RepetitionResult m = aggregator.aggregate(List.of(burst, steady));

        // the best 1 s window holds the burst and at most 5 of the steady tokens: ≤ 205 tok/s, not 200 / 0 s
        double peak = m.value(Metric.PEAK_OUTPUT_THROUGHPUT).getAsDouble();
        assertThat(peak).isBetween(200.0, 205.0);
        assertThat(peak).isEqualTo(205.0);
    }

    @Test
    void peakWindowStaysInsideTheMeasurementWindow() {
        // tokens only near the end: a window may not stick out past the last completion
        RequestRecord r = request(1, T0, T0, new long[] {T0 + 100 * MS, T0 + 1900 * MS, T0 + 1950 * MS, T0 + 2000 * MS},
                new int[] {1, 10, 10, 10});
        RepetitionResult m = aggregator.aggregate(List.of(r));
        assertThat(m.value(Metric.PEAK_OUTPUT_THROUGHPUT)).hasValue(30.0);
    }

    @Test
    void throughputsUseTheWindowFromFirstIntendedSendToLastCompletion() {
        // intended at T0, sent 0.5 s late; second request done at T0 + 2 s (1 ms after its last event)
        RequestRecord a = request(1, T0, T0 + 500 * MS, new long[] {T0 + 600 * MS, T0 + 700 * MS}, new int[] {1, 3});
        RequestRecord b = request(2, T0 + 1000 * MS, T0 + 1000 * MS, new long[] {T0 + 1500 * MS, T0 + 1999 * MS},
                new int[] {2, 2});
        RepetitionResult m = aggregator.aggregate(List.of(a, b));

        assertThat(m.value(Metric.DURATION).getAsDouble()).isCloseTo(2.0, within(1e-12));
        assertThat(m.value(Metric.REQUEST_THROUGHPUT).getAsDouble()).isCloseTo(1.0, within(1e-12));
        assertThat(m.value(Metric.OUTPUT_THROUGHPUT).getAsDouble()).isCloseTo(4.0, within(1e-12));
        assertThat(m.value(Metric.TOTAL_THROUGHPUT).getAsDouble()).isCloseTo(104.0, within(1e-12));
    }

    @Test
    void concurrencyIsTimeWeightedOverTheWindow() {
        // a: in flight [0, 1 s + 1 ms); b: [0.5 s, 1.5 s + 1 ms); window [0, 1.501 s]
        RequestRecord a = request(1, T0, T0, new long[] {T0 + 1000 * MS}, new int[] {1});
        RequestRecord b = request(2, T0 + 500 * MS, T0 + 500 * MS, new long[] {T0 + 1500 * MS}, new int[] {1});
        RepetitionResult m = aggregator.aggregate(List.of(a, b));

        assertThat(m.value(Metric.MAX_CONCURRENCY)).hasValue(2.0);
        double expected = (1.001 + 1.001) / 1.501;
        assertThat(m.value(Metric.MEAN_CONCURRENCY).getAsDouble()).isCloseTo(expected, within(1e-9));
    }

    @Test
    void failedRequestsAreCountedButExcludedFromLatencies() {
        RequestRecord ok = request(1, T0, T0, new long[] {T0 + 10 * MS, T0 + 20 * MS}, new int[] {1, 1});
        RequestRecord bad = failed(2, T0, T0, T0 + 5 * S, "http_500: internal error");
        RequestRecord timeout = failed(3, T0, T0, T0 + 9 * S, "timeout");
        RepetitionResult m = aggregator.aggregate(List.of(ok, bad, timeout));

        assertThat(m.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(1.0);
        assertThat(m.value(Metric.FAILED_REQUESTS)).hasValue(2.0);
        assertThat(m.errorKinds()).containsEntry("http_500", 1L).containsEntry("timeout", 1L);
        assertThat(dist(m, Metric.E2E_LATENCY).count()).isEqualTo(1);
        assertThat(dist(m, Metric.SCHEDULE_LAG).count()).isEqualTo(1);
        assertThat(m.outputTokenSources()).containsEntry("USAGE", 1L).hasSize(1);
        // the failures were in flight and extend the window
        assertThat(m.value(Metric.DURATION).getAsDouble()).isCloseTo(9.0, within(1e-12));
        assertThat(m.value(Metric.MAX_CONCURRENCY)).hasValue(3.0);
    }

    @Test
    void metricsWithoutSamplesAreAbsentNotZero() {
        // single-token outputs: no TPOT, no ITL; all requests failed: no latency at all
        RequestRecord one = request(1, T0, T0, new long[] {T0 + 10 * MS}, new int[] {1});
        RepetitionResult m = aggregator.aggregate(List.of(one));
        assertThat(m.distribution(Metric.TPOT)).isEmpty();
        assertThat(m.distribution(Metric.ITL)).isEmpty();

        RepetitionResult allFailed = aggregator.aggregate(List.of(failed(1, T0, T0, T0 + S, "connect: refused")));
        assertThat(allFailed.distributions()).isEmpty();
        assertThat(allFailed.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(0.0);
    }

    @Test
    void warmupRecordsAreIgnored() {
        RequestRecord ok = request(1, T0, T0, new long[] {T0 + 10 * MS}, new int[] {1});
        RequestRecord warm = new RequestRecord(0, true, 0, 0, 10 * MS, 10 * MS, 10 * MS, 11 * MS, 5, 1,
                TokenSource.USAGE, new long[] {10 * MS}, new int[] {1}, TokenSource.USAGE, 1, 0, 200, null);
        RepetitionResult m = aggregator.aggregate(List.of(warm, ok));
        assertThat(m.value(Metric.SUCCESSFUL_REQUESTS)).hasValue(1.0);
        assertThat(m.value(Metric.DURATION).getAsDouble()).isCloseTo(0.011, within(1e-12));
    }

    @Test
    void percentilesComeFromTheHistogramMeanAndStdevAreExact() {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 1; i <= 1000; i++) {
            long ttft = i * MS + 123_457; // not on a histogram bucket boundary
            records.add(request(i, T0, T0, new long[] {T0 + ttft}, new int[] {1}));
        }
        Distribution ttft = dist(aggregator.aggregate(records), Metric.TTFT);

        assertThat(ttft.mean()).isCloseTo(500.5 + 0.123457, within(1e-9));
        assertThat(ttft.stdev()).isCloseTo(Math.sqrt(1000.0 * 1001 / 12), within(1e-6));
        // numpy's percentiles of 1.123457, 2.123457, ..., 1000.123457 (np.percentile, linear): the median halfway
        // between the 500th and 501st values, p99 at rank 989.01 from 0; within the histogram's 0.1%
        assertThat(ttft.p50()).isCloseTo(500.623457, within(500 * 1e-3));
        assertThat(ttft.p99()).isCloseTo(990.133457, within(990 * 1e-3));
        assertThat(ttft.min()).isCloseTo(1.123457, within(1e-9));
        assertThat(ttft.max()).isCloseTo(1000.123457, within(1e-9));
        assertThat(ttft.histogram().stream().mapToLong(HistogramBucket::count).sum()).isEqualTo(1000);
    }

    @Test
    void outOfOrderTimestampsNameTheRequest() {
        RequestRecord bad = request(42, T0, T0, new long[] {T0 - MS}, new int[] {1});
        assertThatThrownBy(() -> aggregator.aggregate(List.of(bad)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("request 42").hasMessageContaining("firstTokenNs");
    }

    @Test
    void eventWithoutTokensIsRejected() {
        RequestRecord bad = request(7, T0, T0, new long[] {T0 + MS, T0 + 2 * MS}, new int[] {1, 0});
        assertThatThrownBy(() -> aggregator.aggregate(List.of(bad)))
                .hasMessageContaining("request 7: eventTokens[1] = 0");
    }

    @Test
    void customPeakWindow() {
        RequestRecord r = request(1, T0, T0, new long[] {T0 + 100 * MS, T0 + 150 * MS, T0 + 400 * MS}, new int[] {4, 4, 4});
        RepetitionResult m = new MetricsAggregator(Duration.ofMillis(100)).aggregate(List.of(r));
        assertThat(m.value(Metric.PEAK_OUTPUT_THROUGHPUT)).hasValue(80.0); // 8 tokens in 0.1 s
    }
}
