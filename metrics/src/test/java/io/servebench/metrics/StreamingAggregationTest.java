package io.servebench.metrics;

import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Taking records as they complete, with the clock of a run, gives what taking them at once gives: the peak output
 * throughput and the peak concurrency too, whose events and intervals are let go as the watermark passes them. And a
 * long load's slices hold the requests that completed in them.
 */
class StreamingAggregationTest {

    /** Requests of random lengths sent at random gaps, some overlapping, some alone, with bursts of tokens. */
    private static List<RequestRecord> randomRun(SplittableRandom random, int n) {
        List<RequestRecord> records = new ArrayList<>();
        long t = 1_000_000_000L;
        for (int id = 0; id < n; id++) {
            t += random.nextLong(random.nextInt(5) == 0 ? 2_000_000_000L : 50_000_000L);
            long sent = t + random.nextLong(1_000_000);
            int events = 1 + random.nextInt(40);
            long[] times = new long[events];
            int[] tokens = new int[events];
            long at = sent + random.nextLong(1, 200_000_000);
            int total = 0;
            for (int k = 0; k < events; k++) {
                times[k] = at;
                tokens[k] = 1 + random.nextInt(3);
                total += tokens[k];
                // several events in one read now and then
                at += random.nextInt(4) == 0 ? 0 : random.nextLong(1, 80_000_000);
            }
            long done = times[events - 1] + random.nextLong(1_000_000);
            records.add(new RequestRecord(id, id < 3, t, sent, times[0], times[0], times[events - 1], done, 10, total,
                    TokenSource.USAGE, times, tokens, TokenSource.USAGE, 1, 0, 200, null));
        }
        return records;
    }

    @Test
    void recordsTakenAsTheyCompleteGiveWhatRecordsTakenAtOnceGive() {
        SplittableRandom random = new SplittableRandom(11);
        for (int run = 0; run < 20; run++) {
            List<RequestRecord> records = randomRun(random, 300);
            RepetitionResult atOnce = new MetricsAggregator().aggregate(records);
            List<long[]> moments = new ArrayList<>();
            for (int i = 0; i < records.size(); i++) {
                moments.add(new long[] {records.get(i).intendedNs(), +1, i});
                moments.add(new long[] {records.get(i).doneNs(), -1, i});
            }
            moments.sort(Comparator.<long[]>comparingLong(m -> m[0]).thenComparingLong(m -> -m[1]));
            long[] now = {Long.MIN_VALUE};
            MetricsAggregator.Running running = new MetricsAggregator().start(SloParams.NONE, () -> now[0]);
            for (long[] m : moments) {
                now[0] = m[0];
                if (m[1] > 0) {
                    running.onSend(records.get((int) m[2]).id());
                } else {
                    running.onComplete(records.get((int) m[2]));
                }
            }
            RepetitionResult streamed = running.finish();
            assertThat(streamed.notes()).isEmpty();
            for (Metric m : List.of(Metric.PEAK_OUTPUT_THROUGHPUT, Metric.MAX_CONCURRENCY, Metric.SUCCESSFUL_REQUESTS,
                    Metric.TOTAL_OUTPUT_TOKENS, Metric.DURATION)) {
                assertThat(streamed.value(m)).as("run %d %s", run, m).isEqualTo(atOnce.value(m));
            }
            assertThat(streamed.value(Metric.MEAN_CONCURRENCY).orElseThrow()).as("run %d", run)
                    .isCloseTo(atOnce.value(Metric.MEAN_CONCURRENCY).orElseThrow(), org.assertj.core.api.Assertions.within(1e-9));
        }
    }

    @Test
    void aRequestSentAndNeverCompletedHoldsEveryLaterPointUntilItIsWithdrawn() {
        List<RequestRecord> records = randomRun(new SplittableRandom(5), 300);
        long[] now = {Long.MIN_VALUE};
        MetricsAggregator.Running running = new MetricsAggregator().start(SloParams.NONE, () -> now[0]);
        long first = records.stream().mapToLong(RequestRecord::intendedNs).min().orElseThrow();
        long last = records.stream().mapToLong(RequestRecord::doneNs).max().orElseThrow();
        now[0] = first - 1;
        // a request whose truth never comes (a warm-up's, in loadcheck): sent before all the others
        running.onSend(9_999);
        for (RequestRecord r : records) {
            running.onSend(r.id());
        }
        now[0] = last + 1;
        long events = 0;
        for (RequestRecord r : records) {
            running.onComplete(r);
            events += r.warmup() || !r.succeeded() ? 0 : r.eventTimesNs().length;
        }
        assertThat(running.heldPoints()).as("everything after the lost request's send").isGreaterThanOrEqualTo(events);
        running.withdraw(9_999);
        assertThat(running.heldPoints()).as("only what an edge before the last completion still needs")
                .isLessThan(events / 10);
    }

    @Test
    void aSliceHoldsTheRequestsThatCompletedInItAndClosesTwoSlicesLater() {
        List<Map.Entry<Integer, RepetitionResult>> closed = new ArrayList<>();
        SliceMetrics slices = new SliceMetrics(10_000_000_000L, closed::add);
        long origin = 5_000_000_000L;
        // one request completing every second for 45 s: slices of 10 s from the first one's intended send
        for (int i = 0; i < 45; i++) {
            long sent = origin + i * 1_000_000_000L;
            long done = sent + 500_000_000L;
            slices.onComplete(new RequestRecord(i, false, sent, sent, sent + 100_000_000L, sent + 100_000_000L, done - 1,
                    done, 10, 2, TokenSource.USAGE, new long[] {sent + 100_000_000L, done - 1}, new int[] {1, 1},
                    TokenSource.USAGE, 1, 0, 200, null));
            if (i == 25) {
                // slice 2 (20-30 s) is running: slices 0 holds its ten, and closed when slice 2 began
                assertThat(closed).extracting(Map.Entry::getKey).containsExactly(0);
            }
        }
        Map<String, RepetitionResult> result = slices.finish();
        assertThat(result).containsOnlyKeys("0", "10", "20", "30", "40");
        assertThat(result.get("0").value(Metric.SUCCESSFUL_REQUESTS)).hasValue(10);
        assertThat(result.get("0").value(Metric.DURATION)).hasValue(10);
        assertThat(result.get("40").value(Metric.SUCCESSFUL_REQUESTS)).hasValue(5);
        // the last slice ends with its last completion, 4.5 s in
        assertThat(result.get("40").value(Metric.DURATION).orElseThrow()).isCloseTo(4.5, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(result.get("10").distribution(Metric.E2E_LATENCY).orElseThrow().mean()).isCloseTo(0.5,
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(result.get("10").distribution(Metric.E2E_LATENCY).orElseThrow().histogram()).isEmpty();
        assertThat(closed).hasSize(5);
    }
}
