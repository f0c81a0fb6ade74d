package io.servebench.metrics;

import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class GoodputTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /** Sent at {@code sent}, first token {@code ttftMs} later, then {@code tokens − 1} more events {@code gapMs} apart. */
    private static RequestRecord request(long id, long sent, long ttftMs, int tokens, long gapMs, int perRead) {
        long[] times = new long[tokens];
        int[] counts = new int[tokens];
        for (int i = 0; i < tokens; i++) {
            times[i] = sent + ttftMs * MS + i * gapMs * MS;
            counts[i] = 1;
        }
        return new RequestRecord(id, false, sent, sent, times[0], times[0], times[tokens - 1], times[tokens - 1] + MS, 10,
                tokens, TokenSource.USAGE, times, counts, TokenSource.CONTINUOUS_USAGE, perRead, 0, 200, null);
    }

    private static RequestRecord failed(long id, long sent) {
        return new RequestRecord(id, false, sent, sent, RequestRecord.NONE, RequestRecord.NONE, RequestRecord.NONE,
                sent + 5 * MS, 10, 0, TokenSource.EVENTS, new long[0], new int[0], TokenSource.EVENTS, 0, 0, 500, "http_500");
    }

    /** Four requests one second apart: TTFT 100/300/100/— ms, ITL 10/10/60/— ms; the last one fails. */
    private static List<RequestRecord> records() {
        return List.of(request(0, 0, 100, 11, 10, 1), request(1, S, 300, 11, 10, 3), request(2, 2 * S, 100, 11, 60, 2),
                failed(3, 3 * S));
    }

    @Test
    void goodputCountsRequestsMeetingEveryStatedSloPerSecondOfTheWindow() {
        RepetitionResult m = new MetricsAggregator().aggregate(records(), SloParams.parse("ttft=200,itl=50"));
        // only request 0 meets both; the window is 0 → 3.005 s (the failed request's done)
        assertThat(m.value(Metric.GOODPUT).orElseThrow()).isCloseTo(1 / 3.005, within(1e-9));
        assertThat(m.value(Metric.SLO_ATTAINMENT).orElseThrow()).isCloseTo(25.0, within(1e-9));

        RepetitionResult ttftOnly = new MetricsAggregator().aggregate(records(), SloParams.parse("ttft=200"));
        assertThat(ttftOnly.value(Metric.SLO_ATTAINMENT).orElseThrow()).isCloseTo(50.0, within(1e-9));
        // TPOT of request 2 is 60 ms, of the others 10 ms; E2E is 200, 400 and 700 ms
        assertThat(new MetricsAggregator().aggregate(records(), SloParams.parse("tpot=50,e2e=500"))
                .value(Metric.SLO_ATTAINMENT).orElseThrow()).isCloseTo(50.0, within(1e-9));
        assertThat(new MetricsAggregator().aggregate(records(), SloParams.parse("e2e=300"))
                .value(Metric.SLO_ATTAINMENT).orElseThrow()).isCloseTo(25.0, within(1e-9));
    }

    @Test
    void goodputIsAbsentWithoutAnSloNeverZero() {
        RepetitionResult m = new MetricsAggregator().aggregate(records());
        assertThat(m.value(Metric.GOODPUT)).isEmpty();
        assertThat(m.value(Metric.SLO_ATTAINMENT)).isEmpty();
        // with an SLO nobody meets, it is a real zero
        RepetitionResult strict = new MetricsAggregator().aggregate(records(), SloParams.parse("ttft=1"));
        assertThat(strict.value(Metric.GOODPUT).orElseThrow()).isZero();
    }

    @Test
    void sendRatesAndEventsPerRead() {
        RepetitionResult m = new MetricsAggregator().aggregate(records());
        // 4 sends over 3 s
        assertThat(m.value(Metric.ACHIEVED_SEND_RATE).orElseThrow()).isCloseTo(1.0, within(1e-12));
        assertThat(m.value(Metric.SCHEDULED_SEND_RATE).orElseThrow()).isCloseTo(1.0, within(1e-12));
        assertThat(m.value(Metric.EVENTS_PER_READ_MAX).orElseThrow()).isEqualTo(3.0);
        assertThat(new MetricsAggregator().aggregate(List.of(failed(0, 0))).value(Metric.ACHIEVED_SEND_RATE)).isEmpty();
    }

    @Test
    void sloParamsParseOverridesAndRejectBadInput() {
        SloParams declared = SloParams.parse("ttft=200, tpot=50");
        assertThat(declared).isEqualTo(new SloParams(200.0, 50.0, null, null));
        assertThat(declared.toString()).isEqualTo("ttft=200,tpot=50");
        assertThat(declared.overriddenBy(SloParams.parse("tpot=20,e2e=1500.5")).toString())
                .isEqualTo("ttft=200,tpot=20,e2e=1500.5");
        assertThat(SloParams.NONE.stated()).isFalse();
        assertThatThrownBy(() -> SloParams.parse("latency=5")).hasMessageContaining("expected NAME=MS with NAME one of");
        assertThatThrownBy(() -> SloParams.parse("ttft=fast")).hasMessageContaining("\"fast\" is not a number")
                .hasMessageContaining("expected e.g. ttft=200, ttft=200ms or ttft=0.2s");
        // a unit, as people write a latency: milliseconds or seconds
        assertThat(SloParams.parse("ttft=500ms,e2e=2.5s")).isEqualTo(new SloParams(500.0, null, null, 2500.0));
        assertThatThrownBy(() -> SloParams.parse("ttft=5m")).hasMessageContaining("\"5m\" is not a number");
        assertThatThrownBy(() -> SloParams.parse("ttft=0")).hasMessageContaining("ttft = 0.0 ms is out of range");
        assertThatThrownBy(() -> SloParams.parse("ttft=1,ttft=2")).hasMessageContaining("given twice");
        // vllm bench serve --goodput ttft:200 tpot:50 e2el:3000, pasted: KEY:VALUE pairs in ms, E2E latency as e2el
        // (vLLM's parse_goodput and check_goodput_args)
        assertThat(SloParams.parse("ttft:200 tpot:50 e2el:3000")).isEqualTo(new SloParams(200.0, 50.0, null, 3000.0));
        assertThat(SloParams.parse("ttft : 200 ,  itl = 40")).isEqualTo(new SloParams(200.0, null, 40.0, null));
        assertThatThrownBy(() -> SloParams.parse("ttft:200 e2e:1 e2el:2")).hasMessageContaining("SLO e2e is given twice");
    }
}
