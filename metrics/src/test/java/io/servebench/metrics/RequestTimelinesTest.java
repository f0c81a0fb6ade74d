package io.servebench.metrics;

import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.results.RequestTimeline;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RequestTimelinesTest {

    private static final long MS = 1_000_000L;
    private static final long T0 = 5_000 * MS;

    /** A request intended at {@code at} ms, sent 1 ms later, with token events at the given ms after its send. */
    private static RequestRecord record(long id, boolean warmup, long at, String error, long... eventsAfterSend) {
        long sent = T0 + (at + 1) * MS;
        long[] events = new long[eventsAfterSend.length];
        int[] tokens = new int[events.length];
        for (int i = 0; i < events.length; i++) {
            events[i] = sent + eventsAfterSend[i] * MS;
            tokens[i] = 1;
        }
        long first = events.length > 0 ? events[0] : RequestRecord.NONE;
        long end = events.length > 0 ? events[events.length - 1] : RequestRecord.NONE;
        long done = (end == RequestRecord.NONE ? sent : end) + MS;
        return new RequestRecord(id, warmup, T0 + at * MS, sent, first, first, end, done, 10, events.length,
                TokenSource.USAGE, events, tokens, TokenSource.USAGE, 1, 0, 200, error);
    }

    @Test
    void drawsEachMeasuredRequestFromItsIntendedSendWithItsFirstTokenAndLongGaps() {
        RequestTimelines t = new RequestTimelines(Duration.ofMillis(100), 1000);
        // completion order is not send order; the warm-up request is left out
        t.accept(record(2, false, 50, null, 30, 60, 250, 270));
        t.accept(record(0, true, 0, null, 10));
        t.accept(record(1, false, 10, null, 20, 40));
        t.accept(record(3, false, 60, "client_cancel: called off", 25));
        t.accept(record(4, false, 70, "http_500: boom"));
        RequestTimeline timeline = t.timeline();
        assertThat(timeline.total()).isEqualTo(4);
        assertThat(timeline.gapThresholdMs()).isEqualTo(100);
        assertThat(timeline.requests()).extracting(RequestTimeline.Request::id).containsExactly(1L, 2L, 3L, 4L);
        RequestTimeline.Request first = timeline.requests().get(0);
        // times from request 1's intended send (10 ms)
        assertThat(first.intended()).isZero();
        assertThat(first.sent()).isCloseTo(0.001, within(1e-12));
        assertThat(first.firstToken()).isCloseTo(0.021, within(1e-12));
        assertThat(first.end()).isCloseTo(0.042, within(1e-12));
        assertThat(first.longGaps()).isEmpty();
        // request 2: 60 -> 250 ms after its send is a 190 ms gap, sent at 51 ms, so 0.101 to 0.291 s
        assertThat(timeline.requests().get(1).longGaps()).hasSize(2);
        assertThat(timeline.requests().get(1).longGaps().get(0)).isCloseTo(0.101, within(1e-12));
        assertThat(timeline.requests().get(1).longGaps().get(1)).isCloseTo(0.291, within(1e-12));
        assertThat(timeline.requests()).extracting(RequestTimeline.Request::outcome).containsExactly(
                RequestTimeline.Outcome.SUCCEEDED, RequestTimeline.Outcome.SUCCEEDED, RequestTimeline.Outcome.CANCELLED,
                RequestTimeline.Outcome.FAILED);
        assertThat(timeline.requests().get(3).firstToken()).isNaN();
    }

    @Test
    void aLongTrialIsThinnedToAtMostTheLimitAcrossItsWholeSpanInBoundedMemory() {
        RequestTimelines t = new RequestTimelines(Duration.ofMillis(100), 1000);
        for (int i = 0; i < 50_000; i++) {
            t.accept(record(i, false, i * 10L, null, 20));
        }
        RequestTimeline timeline = t.timeline();
        assertThat(timeline.total()).isEqualTo(50_000);
        assertThat(timeline.requests()).hasSizeBetween(500, 1000);
        // the whole span: the first request and one near the end
        assertThat(timeline.requests().get(0).id()).isZero();
        assertThat(timeline.requests().get(timeline.requests().size() - 1).intended()).isGreaterThan(490.0);
        for (int i = 1; i < timeline.requests().size(); i++) {
            assertThat(timeline.requests().get(i).intended()).isGreaterThan(timeline.requests().get(i - 1).intended());
        }
    }
}
