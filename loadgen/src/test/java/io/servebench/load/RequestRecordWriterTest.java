package io.servebench.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestRecordWriterTest {

    @TempDir
    Path dir;

    private static final RequestRecord OK = new RequestRecord(0, true, 100, 110, 150, 170, 300, 310, 12, 40,
            TokenSource.USAGE, new long[] {150, 170, 300}, new int[] {1, 3, 36}, TokenSource.CONTINUOUS_USAGE,
            2, 1, 200, null);
    private static final RequestRecord FAILED = new RequestRecord(1, false, 200, RequestRecord.NONE,
            RequestRecord.NONE, RequestRecord.NONE, RequestRecord.NONE, 250, 8, 0, TokenSource.EVENTS,
            new long[0], new int[0], TokenSource.EVENTS, 0, 0, 0, "connect: Connection \"refused\"\n");

    @Test
    void roundTripsEveryFieldIncludingAbsentTimesAndErrors() throws IOException {
        Path file = RequestRecordWriter.writeTrial(dir, "vllm-baseline_rate=8", List.of(OK, FAILED));
        assertThat(file).isEqualTo(dir.resolve("requests").resolve("vllm-baseline_rate=8.jsonl.gz"));
        assertThat(RequestRecordReader.read(file)).containsExactly(OK, FAILED);
    }

    @Test
    void writesOneJsonObjectPerLineWithTheDocumentedKeys() throws IOException {
        Path file = dir.resolve("t.jsonl.gz");
        RequestRecordWriter.write(file, List.of(OK, FAILED));
        String text;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String[] lines = text.split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).isEqualTo("{\"id\":0,\"warmup\":true,\"intended_ns\":100,\"sent_ns\":110,"
                + "\"first_token_ns\":150,\"first_content_ns\":170,\"end_ns\":300,\"done_ns\":310,\"prompt_tokens\":12,"
                + "\"output_tokens\":40,\"output_tokens_source\":\"USAGE\",\"events\":[[150,1],[170,3],[300,36]],"
                + "\"events_source\":\"CONTINUOUS_USAGE\",\"events_per_read_max\":2,\"coalesced_events\":1,"
                + "\"status\":200,\"error\":null,\"slot_ns\":null}");
        assertThat(lines[1]).contains("\"sent_ns\":null,\"first_token_ns\":null").contains("\"events\":[]");
    }

    /**
     * The sink holds what a second's records compress to and hands it to the file once the second has passed, not once
     * a record: a file written to a record at a time cost the client a sync flush of deflate and a write to the disk a
     * record. What reached the file is readable while the sink is open, as from a harness killed mid-trial.
     */
    @Test
    void recordsReachTheFileOnceASecondNotOnceARecord() throws Exception {
        Path file = dir.resolve("live.jsonl.gz");
        try (RequestRecordWriter.Sink sink = RequestRecordWriter.open(file)) {
            long header = Files.size(file);
            sink.onComplete(OK);
            sink.onComplete(FAILED);
            assertThat(Files.size(file)).as("bytes on disk after two records within the second").isEqualTo(header);
            Thread.sleep(RequestRecordWriter.FLUSH_NANOS / 1_000_000 + 100);
            sink.onComplete(OK);
            assertThat(RequestRecordReader.readRecovered(file)).containsExactly(OK, FAILED, OK);
        }
    }

    /**
     * A file whose writer was killed ends after a sync flush, without gzip's trailer, perhaps in the middle of a line:
     * every complete line before the cut is read, however few (they once fell with the reader's read-ahead into the cut).
     */
    @Test
    void aFileCutOffAfterItsLastFlushGivesEveryCompleteLine() throws IOException {
        Path file = dir.resolve("cut.jsonl.gz");
        GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(file), true);
        out.write((RequestRecordWriter.line(OK) + "\n" + RequestRecordWriter.line(FAILED) + "\n{\"id\":2,\"warm")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
        assertThat(RequestRecordReader.readRecovered(file)).containsExactly(OK, FAILED);
        assertThatThrownBy(() -> RequestRecordReader.read(file)).isInstanceOf(IOException.class);
        out.close();
    }

    @Test
    void aBrokenLineIsReportedWithFileAndLine() throws IOException {
        Path file = dir.resolve("bad.jsonl.gz");
        try (var out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write("{\"id\":1}\n".getBytes(StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> RequestRecordReader.read(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("bad.jsonl.gz line 1")
                .hasMessageContaining("missing key 'events'");
    }

    @Test
    void trialNamesThatAreNotPlainFileNamesAreRejected() {
        assertThatThrownBy(() -> RequestRecordWriter.writeTrial(dir, "../escape", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'../escape'");
        assertThatThrownBy(() -> RequestRecordWriter.writeTrial(dir, "a/b", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
