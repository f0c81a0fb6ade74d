package io.servebench.metrics;

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
 * ({@code golden-metrics/*.expected.json.gz}, written then): the aggregator gives them again.
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

    @ParameterizedTest
    @ValueSource(strings = {"realtime-mtp", "realtime-failures", "realtime-capped", "virtual-reference-8"})
    void theRecordedTrialsGiveTheirRecordedMetrics(String name) throws Exception {
        RepetitionResult actual = new MetricsAggregator().aggregate(records(name), SloSpec.parse("ttft=200,tpot=50"));
        assertThat((Object) JSON.valueToTree(actual)).isEqualTo(JSON.valueToTree(expected(name)));
    }
}
