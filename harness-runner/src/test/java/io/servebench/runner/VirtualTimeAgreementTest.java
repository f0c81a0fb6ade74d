package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordReader;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * Every load option on the same seed, once on the real-time simulated engine over sockets and once in virtual time:
 * the same requests sent, warm-up, succeeding and failing, to the request, and latencies that differ only by what
 * real time adds (the client, the sockets, a busy CPU): mean E2E latency within {@value #LATENCY_PERCENT}%, mean
 * TTFT within {@value #TTFT_MS} ms, and under a concurrency cap the mean client queue wait within
 * {@value #QUEUE_WAIT_PERCENT}%. TTFT moves both ways: real time adds the client and the socket to it, but requests the
 * schedule sends at one instant (a burst, the streams of a closed loop freed by one step) reach the engine spread over
 * a few milliseconds by the client and a busy CPU, and the engine, as a real one, starts a step with the first of them
 * and leaves the later ones to the next: smaller prefills than virtual time's, where they arrive together.
 */
// alone: it holds real-time latencies on sockets to within a few percent of virtual time
@Isolated
class VirtualTimeAgreementTest {

    /** How far real time's mean E2E latency may be from virtual time's, %. */
    static final double LATENCY_PERCENT = 5;

    /** How far real time's mean TTFT may be from virtual time's, ms (16 ms apart seen for a burst of 8). */
    static final double TTFT_MS = 25;

    /**
     * How far real time's mean client queue wait under a concurrency cap may be from virtual time's, %: it adds up the
     * ends of the requests before it, each a few ms late in real time.
     */
    static final double QUEUE_WAIT_PERCENT = 10;

    private static final String SHORT = "synthetic:in=fixed(200),out=fixed(40)";

    /** One load option's case: its -p settings over SimStudy.baseline's, and files it needs. */
    record Case(String name, Map<String, String> params) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case of(String name, String... settings) {
        Map<String, String> params = new LinkedHashMap<>(Map.of("dataset", SHORT, "warmup", "0"));
        for (int i = 0; i < settings.length; i += 2) {
            params.put(settings[i], settings[i + 1]);
        }
        return new Case(name, params);
    }

    static Stream<Case> cases() {
        return Stream.of(
                of("constant", "rate", "8", "requests", "40"),
                // arrivals at 40/s of requests that take ~0.35 s want ~14 in flight, twice the cap
                of("maxConcurrency", "rate", "40", "requests", "60", "maxConcurrency", "7"),
                // every request due at once, twice the cap: the first eight are admitted in one step and end in one,
                // and the slots they free go to requests long due
                of("maxConcurrency-burst", "profile", "throughput", "requests", "16", "maxConcurrency", "8"),
                of("durationSeconds", "rate", "20", "requests", "100", "durationSeconds", "1"),
                of("maxErrors", "rate", "10", "requests", "40", "maxErrors", "3", "dataset", "jsonl:FAILING"),
                of("rampUpSeconds", "rate", "20", "requests", "30", "rampUpSeconds", "1"),
                of("warmup", "rate", "16", "requests", "24", "warmup", "3", "warmupSeconds", "0.5"),
                // 40 tokens out, not 10: the throughput step is a burst, whose TTFT real time may lower by up to
                // TTFT_MS (its prefills split); with 10 tokens that alone was 6% of a 0.14 s latency (a fresh-clone run)
                of("sweep", "profile", "sweep", "sweepRates", "2", "requests", "12",
                        "dataset", "synthetic:in=fixed(100),out=fixed(40)"),
                of("trace", "profile", "trace", "requests", "1000", "dataset", "trace:TRACE,timeScale=0.5"),
                of("multi-turn", "rate", "4", "requests", "24",
                        "dataset", "multi-turn:turns=3,in=fixed(60),out=fixed(12)"),
                // conversations at 20/s whose turns take ~0.2 s each want ~12 requests in flight, four times the cap: a
                // later turn waits for a slot from the end of the turn before it, behind the first turns due earlier
                of("multi-turn-maxConcurrency", "rate", "20", "requests", "36", "maxConcurrency", "3",
                        "dataset", "multi-turn:turns=3,in=fixed(60),out=fixed(12)"),
                of("concurrent", "profile", "concurrent", "concurrency", "6", "requests", "30"));
    }

    /** A JSONL set in which every fifth request asks for more tokens than the model's context: the engine refuses it. */
    private static Path failing(Path dir) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            lines.append(String.format("{\"prompt\": \"question %d about the weather\", \"output_tokens\": %d}%n", i,
                    i % 5 == 2 ? 40_000 : 30));
        }
        return Files.writeString(dir.resolve("failing.jsonl"), lines);
    }

    /** A trace of bursts and gaps, 24 lines. */
    private static Path trace(Path dir) throws IOException {
        StringBuilder lines = new StringBuilder();
        long t = 0;
        for (int i = 0; i < 24; i++) {
            t += i % 6 == 0 ? 400 : 25;
            lines.append(String.format("{\"timestamp\": %d, \"input_length\": %d, \"output_length\": %d, \"hash_ids\": [%d]}%n",
                    t, 150 + 5 * i, 20 + i, i));
        }
        return Files.writeString(dir.resolve("trace.jsonl"), lines);
    }

    private static RunOutcome run(Case c, EngineParams.Simulate mode, Path dir, Path out) throws IOException {
        RunOptions.Builder options = RunOptions.builder().include(SimStudy.class, "baseline").simulate(mode)
                .settle(Duration.ZERO).outputDir(out).progress(false)
                // the maxErrors case fails a fifth of its requests on purpose: it is a measurement, not a failed trial
                .maxFailedShare(1);
        for (Map.Entry<String, String> p : c.params().entrySet()) {
            String value = p.getValue().replace("FAILING", failing(dir).toString()).replace("TRACE", trace(dir).toString());
            options.param(p.getKey(), value);
        }
        return new Runner(options.build(), new PrintWriter(new StringWriter(), true)).run();
    }

    /** Each load's records, by its file name ({@code requests/<load>.jsonl.gz}). */
    private static Map<String, List<RequestRecord>> records(Path out) throws IOException {
        Map<String, List<RequestRecord>> byLoad = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(out.resolve("requests")).sorted()) {
            for (Path f : files.toList()) {
                List<RequestRecord> records = new ArrayList<>(RequestRecordReader.read(f));
                records.sort(java.util.Comparator.comparingLong(RequestRecord::id));
                byLoad.put(f.getFileName().toString(), records);
            }
        }
        return byLoad;
    }

    /** The notes of a stop condition, their time left out (an error limit is reached at slightly different times). */
    private static List<String> stops(RepetitionResult r) {
        return r.notes().stream().filter(n -> n.startsWith("stopped") || n.startsWith("aborted"))
                .map(n -> n.replaceAll("[0-9.]+ s\\b", "T s")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void realTimeAndVirtualTimeAgree(Case c, @TempDir Path dir) throws IOException {
        RunOutcome real = run(c, EngineParams.Simulate.IN_PROCESS, dir, dir.resolve("real"));
        RunOutcome virtual = run(c, EngineParams.Simulate.VIRTUAL, dir, dir.resolve("virtual"));

        Map<String, List<RequestRecord>> realRecords = records(dir.resolve("real"));
        Map<String, List<RequestRecord>> virtualRecords = records(dir.resolve("virtual"));
        assertThat(virtualRecords.keySet()).containsExactlyElementsOf(realRecords.keySet());
        realRecords.forEach((load, r) -> {
            List<RequestRecord> v = virtualRecords.get(load);
            assertThat(v).extracting(RequestRecord::id).as(load).containsExactlyElementsOf(r.stream().map(RequestRecord::id).toList());
            assertThat(v).extracting(RequestRecord::warmup).as(load).containsExactlyElementsOf(r.stream().map(RequestRecord::warmup).toList());
            assertThat(v).extracting(RequestRecord::succeeded).as(load).containsExactlyElementsOf(r.stream().map(RequestRecord::succeeded).toList());
            assertThat(v).extracting(RequestRecord::outputTokens).as(load).containsExactlyElementsOf(r.stream().map(RequestRecord::outputTokens).toList());
        });

        List<BlockResult> realBlocks = real.blocks("baseline");
        List<BlockResult> virtualBlocks = virtual.blocks("baseline");
        assertThat(virtualBlocks).hasSameSizeAs(realBlocks);
        for (int b = 0; b < realBlocks.size(); b++) {
            RepetitionResult r = realBlocks.get(b).repetitions().get(0);
            RepetitionResult v = virtualBlocks.get(b).repetitions().get(0);
            String block = c + " " + realBlocks.get(b).displayName();
            for (Metric count : List.of(Metric.SUCCESSFUL_REQUESTS, Metric.FAILED_REQUESTS, Metric.TOTAL_OUTPUT_TOKENS)) {
                assertThat(v.value(count)).as(block + " " + count.label()).isEqualTo(r.value(count));
            }
            assertThat(stops(v)).as(block).isEqualTo(stops(r));
            double realLatency = r.distribution(Metric.E2E_LATENCY).orElseThrow().mean();
            double virtualLatency = v.distribution(Metric.E2E_LATENCY).orElseThrow().mean();
            assertThat(virtualLatency).as(block + " mean latency").isCloseTo(realLatency, withPercentage(LATENCY_PERCENT));
            assertThat(r.number(Metric.TTFT, Stat.MEAN).getAsDouble() - v.number(Metric.TTFT, Stat.MEAN).getAsDouble())
                    .as(block + " mean TTFT, real minus virtual, ms").isBetween(-TTFT_MS, TTFT_MS);
            if (c.params().containsKey("maxConcurrency")) {
                assertThat(v.number(Metric.CLIENT_QUEUE_WAIT, Stat.MEAN).getAsDouble()).as(block + " mean queue wait, ms")
                        .isPositive().isCloseTo(r.number(Metric.CLIENT_QUEUE_WAIT, Stat.MEAN).getAsDouble(),
                                withPercentage(QUEUE_WAIT_PERCENT));
            } else {
                // the virtual client is never late: every request goes out at its intended time
                assertThat(v.number(Metric.SCHEDULE_LAG, Stat.MAX)).as(block).hasValue(0.0);
            }
        }
    }
}
