package io.servebench.microbenchmarks;

import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordWriter;
import io.servebench.load.TokenSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;

/**
 * What the request records cost per token event, the listener thread's largest share of the client's CPU: a record
 * holds every event's time, so its JSON and its compression run per event. {@code writeRecord} is the records' writer
 * as a run uses it (JSON, gzip at its level, a file); {@code deflate} compresses the same records' JSON lines, as that
 * writer holds them, at deflate's {@code level} ({@link Deflating}), to compare the default 6 with the fastest, 1,
 * that the writer uses. Each operation is one record of {@value #EVENTS} events; the score is time per event.
 *
 * <p>{@code java -jar microbenchmarks/target/microbenchmarks.jar RecordCompression -f 1 -wi 3 -i 5}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecordCompressionBenchmark {

    static final int EVENTS = 100;
    private static final int RECORDS = 256;

    private RequestRecord[] records;
    private byte[][] lines;
    private Path dir;
    private RequestRecordWriter.Sink sink;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        records = new RequestRecord[RECORDS];
        SplittableRandom random = new SplittableRandom(42);
        long start = 636_801_856_045L;
        for (int i = 0; i < RECORDS; i++) {
            records[i] = record(i, start + i * 10_000_000L, random);
        }
        dir = Files.createTempDirectory("record-compression");
        // the lines as the writer writes them: written once, read back
        Path file = dir.resolve("lines.jsonl.gz");
        try (RequestRecordWriter.Sink once = RequestRecordWriter.open(file)) {
            for (RequestRecord r : records) {
                once.onComplete(r);
            }
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            List<String> text = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            lines = text.stream().map(l -> (l + "\n").getBytes(StandardCharsets.UTF_8))
                    .toArray(byte[][]::new);
        }
        if (lines.length != RECORDS) {
            throw new IllegalStateException("the writer wrote " + lines.length + " lines for " + RECORDS + " records");
        }
        sink = RequestRecordWriter.open(dir.resolve("records.jsonl.gz"));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        sink.close();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /** The writer as a run uses it. */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long writeRecord() {
        sink.onComplete(records[next++ & (RECORDS - 1)]);
        return sink.written();
    }

    /** A deflate stream at one level, fed as the writer's gzip stream is. */
    @State(Scope.Thread)
    public static class Deflating {
        @Param({"1", "6"})
        public int level;

        private Deflater deflater;
        private final byte[] out = new byte[64 * 1024];

        @Setup(Level.Trial)
        public void setUp() {
            deflater = new Deflater(level, true);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            deflater.end();
        }
    }

    /** One record's JSON line through deflate at the state's level, output discarded. */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long deflate(Deflating d) {
        d.deflater.setInput(lines[next++ & (RECORDS - 1)]);
        long produced = 0;
        while (!d.deflater.needsInput()) {
            produced += d.deflater.deflate(d.out, 0, d.out.length, Deflater.NO_FLUSH);
        }
        return produced;
    }

    /** A record of {@value #EVENTS} events about 10 ms apart, with the jitter of a real stream. */
    private static RequestRecord record(int id, long intendedNs, SplittableRandom random) {
        long sent = intendedNs + random.nextLong(20_000, 2_000_000);
        long first = sent + random.nextLong(30_000_000, 60_000_000);
        long[] times = new long[EVENTS];
        int[] tokens = new int[EVENTS];
        long t = first;
        for (int i = 0; i < EVENTS; i++) {
            times[i] = t;
            tokens[i] = 1;
            t += random.nextLong(8_000_000, 12_000_000);
        }
        long end = times[EVENTS - 1];
        return new RequestRecord(id, false, intendedNs, sent, first, first, end, end + random.nextLong(10_000, 90_000), 200,
                EVENTS, TokenSource.USAGE, times, tokens, TokenSource.USAGE, 1, 0, 200, null);
    }
}
