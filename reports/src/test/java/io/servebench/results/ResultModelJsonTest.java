package io.servebench.results;

import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultModelJsonTest {

    private final ObjectMapper mapper = new ObjectMapper();

    private static RepetitionResult metrics() {
        Distribution ttft = new Distribution("ms", 3, 40, 5, 35, 40, 44, 45, 45, 45, 45,
                List.of(new HistogramBucket(35, 1), new HistogramBucket(40, 1), new HistogramBucket(45, 1)));
        return new RepetitionResult(Map.of(Metric.SUCCESSFUL_REQUESTS.id(), 3.0), Map.of(Metric.TTFT.id(), ttft), 9, 1,
                Map.of("USAGE", 3L), Map.of());
    }

    @Test
    void runResultRoundTripsThroughJacksonKeepingParamOrder() throws Exception {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("engine", "sim");
        params.put("rate", "8");
        params.put("flags", "--max-num-seqs=128");
        params.put("maxNumSeqs", "128");
        BlockResult trial = new BlockResult("a.B.v", "a.B", "v", null, true, params, "t1", "s1", List.of(metrics()), null);
        RunResult run = new RunResult("2026-03-01T12:00:00Z", "0.1.0", "servebench run", EngineMode.SIMULATED, true, List.of(trial));

        RunResult back = mapper.readValue(mapper.writeValueAsString(run), RunResult.class);

        assertThat(back).isEqualTo(run);
        assertThat(back.blocks().get(0).params().keySet()).containsExactly("engine", "rate", "flags", "maxNumSeqs");
        assertThat(back.blocks().get(0).group()).isEmpty();
        assertThat(back.blocks().get(0).repetitions().get(0).value(Metric.DURATION)).isEmpty();
    }

    @Test
    void perTurnMetricsRoundTripInTurnOrderAndOldResultsHaveNone() throws Exception {
        RepetitionResult withTurns = metrics().withTurns(Map.of("10", metrics(), "2", metrics(), "1", metrics()));
        assertThat(withTurns.turns().keySet()).containsExactly("1", "2", "10");
        RepetitionResult back = mapper.readValue(mapper.writeValueAsString(withTurns), RepetitionResult.class);
        assertThat(back).isEqualTo(withTurns);

        String old = mapper.writeValueAsString(metrics()).replace(",\"turns\":{}", "");
        assertThat(old).doesNotContain("turns");
        assertThat(mapper.readValue(old, RepetitionResult.class).turns()).isEmpty();
        assertThatThrownBy(() -> metrics().withTurns(Map.of("0", metrics()))).hasMessageContaining("turn \"0\"");
    }

    @Test
    void aGpuTimelineRoundTripsWithItsGapsAndOldResultsHaveNone() throws Exception {
        RepetitionResult with = metrics().withGpuTimeline(new GpuTimeline(0.1, java.util.Arrays.asList(null, 612.5),
                java.util.Arrays.asList(null, 97.0), List.of(8.0, 10.0)));
        RepetitionResult back = mapper.readValue(mapper.writeValueAsString(with), RepetitionResult.class);
        assertThat(back).isEqualTo(with);
        assertThat(back.gpuTimeline().watts()).containsExactly(null, 612.5);
        String old = mapper.writeValueAsString(metrics()).replace(",\"gpuTimeline\":null", "");
        assertThat(old).doesNotContain("gpuTimeline");
        assertThat(mapper.readValue(old, RepetitionResult.class).gpuTimeline()).isNull();
        assertThatThrownBy(() -> new GpuTimeline(0.1, List.of(1.0), List.of(), List.of(1.0)))
                .hasMessage("a timeline's series have one value per step, got 1, 0 and 1");
    }

    @Test
    void absentMeansAbsent() {
        RepetitionResult m = metrics();
        assertThat(m.distribution(Metric.TPOT)).isEmpty();
        assertThat(m.number(Metric.TPOT, Stat.MEDIAN)).isEmpty();
        assertThat(m.number(Metric.TTFT, Stat.MEDIAN)).hasValue(40.0);
        assertThatThrownBy(() -> new Distribution("ms", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of()))
                .hasMessageContaining("absent");
    }

    @Test
    void invalidInputsAreNamed() {
        assertThatThrownBy(() -> new RepetitionResult(Map.of("ttft", 1.0), Map.of(), 0, 0, Map.of(), Map.of()))
                .hasMessageContaining("\"ttft\" is a DISTRIBUTION metric");
        assertThatThrownBy(() -> new RepetitionResult(Map.of("bogus", 1.0), Map.of(), 0, 0, Map.of(), Map.of()))
                .hasMessageContaining("unknown metric id \"bogus\"");
        assertThatThrownBy(() -> new RunResult("yesterday", "", "", EngineMode.DECLARED, false, List.of()))
                .hasMessageContaining("\"yesterday\" is not an ISO-8601 instant");
        assertThatThrownBy(() -> new BlockResult("a.B.v", "a.B", "v", "", false, Map.of(), "t", "s", List.of(), null))
                .hasMessageContaining("no repetitions and no failure message");
    }

    @Test
    void catalogueLabelsMatchTheReferenceStudy() {
        assertThat(Metric.TTFT.label(Stat.MEAN)).isEqualTo("Mean TTFT (ms)");
        assertThat(Metric.E2E_LATENCY.label(Stat.MEDIAN)).isEqualTo("Median Latency(s)");
        assertThat(Metric.ITL.label(Stat.P99)).isEqualTo("P99 ITL (ms)");
        assertThat(Metric.TOTAL_THROUGHPUT.label()).isEqualTo("Total Token throughput (tok/s)");
        assertThat(Metric.byId("peak_output_throughput")).contains(Metric.PEAK_OUTPUT_THROUGHPUT);
        assertThat(List.of(Metric.values()).stream().map(Metric::id).distinct().count()).isEqualTo(Metric.values().length);
    }
}
