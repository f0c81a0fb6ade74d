package io.servebench.metrics;

import io.servebench.measure.SloParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordReader;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recorded trials (real time on the simulated engine with MTP, with failures, under a concurrency cap; a reference
 * trial of 1,000 requests in virtual time) and the metrics the aggregator of 80655de computed from them
 * ({@code golden-metrics/*.expected.json.gz}, written then): the aggregator gives them again. Written again for issue
 * 37, when every percentile moved to numpy's estimator (checked against numpy itself in {@code NumpyPercentilesTest})
 * and each error kind gained its first message: every other number of the files was the same to the last digit.
 */
class GoldenMetricsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static List<RequestRecord> records(String name) throws Exception {
        Path file = Path.of(GoldenMetricsTest.class.getResource("/golden-metrics/" + name + ".jsonl.gz").toURI());
        return RequestRecordReader.read(file);
    }

    static RepetitionResult expected(String name) throws Exception {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(Path.of(GoldenMetricsTest.class
                .getResource("/golden-metrics/" + name + ".expected.json.gz").toURI())))) {
            return JSON.readValue(in, RepetitionResult.class);
        }
    }

    private static final SloParams SLO = SloParams.parse("ttft=200,tpot=50");

    @ParameterizedTest
    @ValueSource(strings = {"realtime-mtp", "realtime-failures", "realtime-capped", "virtual-reference-8"})
    void theRecordedTrialsGiveTheirRecordedMetricsWhenTakenAtOnce(String name) throws Exception {
        RepetitionResult actual = new MetricsAggregator().aggregate(records(name), SLO);
        assertSame(name, JSON.valueToTree(actual), JSON.valueToTree(expected(name)));
    }

    /**
     * The same records as a run hands them over: each request sent at its send time, each completing at its end, the
     * clock at that moment; the aggregation keeps only what a request in flight could precede.
     */
    @ParameterizedTest
    @ValueSource(strings = {"realtime-mtp", "realtime-failures", "realtime-capped", "virtual-reference-8"})
    void theRecordedTrialsGiveTheirRecordedMetricsWhenTakenAsTheyComplete(String name) throws Exception {
        List<RequestRecord> records = records(name);
        // the moments of the run in time order: (time, +1 = sent / -1 = completed, record)
        List<Object[]> moments = new java.util.ArrayList<>();
        for (RequestRecord r : records) {
            moments.add(new Object[] {r.intendedNs(), 1, r});
            moments.add(new Object[] {r.doneNs(), -1, r});
        }
        moments.sort(java.util.Comparator.<Object[]>comparingLong(m -> (Long) m[0]).thenComparing(m -> -(Integer) m[1]));
        long[] now = {Long.MIN_VALUE};
        MetricsAggregator.Running running = new MetricsAggregator().start(SLO, () -> now[0]);
        for (Object[] m : moments) {
            now[0] = (Long) m[0];
            RequestRecord r = (RequestRecord) m[2];
            if ((Integer) m[1] > 0) {
                running.onSend(r.id());
            } else {
                running.onComplete(r);
            }
        }
        RepetitionResult actual = running.finish();
        assertThat(actual.notes()).as("nothing came in after it was taken").isEmpty();
        assertSame(name, JSON.valueToTree(actual), JSON.valueToTree(expected(name)));
    }

    /**
     * Equal trees, a number but a sum of fractions to the last digit (counts, histograms, percentiles, extremes,
     * peaks); a mean, a standard deviation or a ratio of sums, whose rounding depends on the order the samples are
     * added in, within one part in 10^12.
     */
    private static void assertSame(String path, JsonNode actual, JsonNode expected) {
        if (expected.isNumber() && actual.isNumber()) {
            double e = expected.asDouble();
            assertThat(actual.asDouble()).as(path).isCloseTo(e, org.assertj.core.api.Assertions.within(1e-12 * Math.abs(e)));
            return;
        }
        assertThat(actual.getNodeType()).as(path).isEqualTo(expected.getNodeType());
        if (expected.isContainerNode()) {
            assertThat(actual.size()).as(path + " size").isEqualTo(expected.size());
            if (expected.isArray()) {
                for (int i = 0; i < expected.size(); i++) {
                    assertSame(path + "[" + i + "]", actual.get(i), expected.get(i));
                }
            } else {
                expected.fieldNames().forEachRemaining(f -> assertSame(path + "." + f, actual.path(f), expected.get(f)));
            }
        } else {
            assertThat(actual).as(path).isEqualTo(expected);
        }
    }
}
