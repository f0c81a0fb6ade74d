package io.servebench.metrics;

import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.results.Distribution;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Every distribution's percentiles are numpy's ({@code np.percentile}, as {@code vllm bench serve} reports them), within
 * the 0.1% of the 3-significant-digit histogram they are kept in: the golden trials' own latencies, read from their
 * records, given to numpy 2.4.6 (E2E {@code end_ns - sent_ns}, TTFT {@code first_token_ns - sent_ns}, of the measured
 * successful requests).
 */
class NumpyPercentilesTest {

    private static final double[] P = {50, 90, 95, 99, 99.9};

    @Test
    void theRealTimeTrialsPercentilesAreNumpys() throws Exception {
        check("realtime-mtp", new double[] {2.0731827355, 4.7893550278, 6.14595139015, 9.25199912306, 14.89967687526609},
                new double[] {45.541575, 56.7051814, 61.5493067, 69.65290257, 70.86274805});
    }

    @Test
    void theVirtualReferenceTrialsPercentilesAreNumpys() throws Exception {
        check("virtual-reference-8", new double[] {2.044750545, 4.9467805564, 6.3813752951, 10.62176448354, 17.85582809935},
                new double[] {39.340303, 51.8014886, 58.3094598, 64.74461693, 65.626177773});
    }

    private static void check(String name, double[] e2eSeconds, double[] ttftMs) throws Exception {
        RepetitionResult r = new MetricsAggregator().aggregate(GoldenMetricsTest.records(name), SloParams.NONE);
        Distribution e2e = r.distribution(Metric.E2E_LATENCY).orElseThrow();
        Distribution ttft = r.distribution(Metric.TTFT).orElseThrow();
        for (int i = 0; i < P.length; i++) {
            assertThat(e2e.get(stat(P[i]))).as(name + " E2E p" + P[i]).isCloseTo(e2eSeconds[i], within(1e-3 * e2eSeconds[i]));
            assertThat(ttft.get(stat(P[i]))).as(name + " TTFT p" + P[i]).isCloseTo(ttftMs[i], within(1e-3 * ttftMs[i]));
        }
    }

    private static io.servebench.measure.Stat stat(double p) {
        return switch ((int) Math.round(p * 10)) {
            case 500 -> io.servebench.measure.Stat.MEDIAN;
            case 900 -> io.servebench.measure.Stat.P90;
            case 950 -> io.servebench.measure.Stat.P95;
            case 990 -> io.servebench.measure.Stat.P99;
            default -> io.servebench.measure.Stat.P999;
        };
    }
}
