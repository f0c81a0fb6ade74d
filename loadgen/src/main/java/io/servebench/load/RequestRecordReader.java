package io.servebench.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static io.servebench.load.RequestRecordWriter.*;

/** Reads the files {@link RequestRecordWriter} writes. */
public final class RequestRecordReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestRecordReader() {
    }

    /**
     * All records of {@code file}, in file order.
     *
     * @throws IOException when the file cannot be read or a line is not a complete record (the message names
     *                     the file, the line and the key)
     */
    public static List<RequestRecord> read(Path file) throws IOException {
        return read(file, false);
    }

    /**
     * The records of a file its writer did not finish (the harness was killed while the trial ran): every complete
     * line up to where the compressed stream or the last line breaks off.
     *
     * @throws IOException when the file cannot be read or a complete line is not a record
     */
    public static List<RequestRecord> readRecovered(Path file) throws IOException {
        return read(file, true);
    }

    /**
     * Each record of a file its writer may not have finished, as {@link #readRecovered(Path)} reads them, handed to
     * {@code each} one at a time: a long trial's records need not fit in memory together.
     */
    public static void readRecovered(Path file, java.util.function.Consumer<RequestRecord> each) throws IOException {
        read(file, true, each);
    }

    private static List<RequestRecord> read(Path file, boolean cutOff) throws IOException {
        List<RequestRecord> records = new ArrayList<>();
        read(file, cutOff, records::add);
        return records;
    }

    private static void read(Path file, boolean cutOff, java.util.function.Consumer<RequestRecord> each)
            throws IOException {
        // the file is a resource of its own: a GZIP header that does not read (a file cut off at its start) throws
        // from the decompressor's constructor, and must not leave the file open
        try (java.io.InputStream raw = Files.newInputStream(file);
             java.io.InputStream gzip = new GZIPInputStream(raw);
             BufferedReader in = new BufferedReader(new InputStreamReader(cutOff ? new EndsWhereCut(gzip) : gzip,
                     StandardCharsets.UTF_8))) {
            String line;
            String next = in.readLine();
            int lineNumber = 0;
            while ((line = next) != null) {
                lineNumber++;
                next = in.readLine();
                if (line.isBlank()) {
                    continue;
                }
                RequestRecord record;
                try {
                    record = parse(JSON.readTree(line));
                } catch (JsonProcessingException | IllegalArgumentException e) {
                    if (cutOff && next == null) {
                        // the line the writer was in the middle of
                        break;
                    }
                    throw new IOException(file + " line " + lineNumber + ": not a request record: " + e.getMessage(), e);
                }
                each.accept(record);
            }
        }
    }

    /**
     * A decompressed stream that ends where the compressed one breaks off, rather than throwing there. A reader above it
     * fills its buffer ahead of the lines it returns, and an error in that fill would drop the complete lines already
     * decompressed with it: a killed run's last records, or a short file's every one.
     */
    private static final class EndsWhereCut extends java.io.FilterInputStream {
        private boolean cut;

        EndsWhereCut(java.io.InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (cut) {
                return -1;
            }
            try {
                return super.read(b, off, len);
            } catch (java.io.EOFException | java.util.zip.ZipException e) {
                cut = true;
                return -1;
            }
        }

        @Override
        public int available() throws IOException {
            return cut ? 0 : super.available();
        }
    }

    /** The record one line of a records file (or {@link RequestRecordWriter#line}) holds. */
    static RequestRecord line(String line) throws IOException {
        return parse(JSON.readTree(line));
    }

    private static RequestRecord parse(JsonNode n) {
        JsonNode events = required(n, EVENTS);
        if (!events.isArray()) {
            throw new IllegalArgumentException("'" + EVENTS + "' must be an array of [t_ns, tokens] pairs");
        }
        long[] times = new long[events.size()];
        int[] tokens = new int[events.size()];
        for (int i = 0; i < events.size(); i++) {
            JsonNode pair = events.get(i);
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isIntegralNumber() || !pair.get(1).isIntegralNumber()) {
                throw new IllegalArgumentException("'" + EVENTS + "'[" + i + "] must be [t_ns, tokens], got " + pair);
            }
            times[i] = pair.get(0).longValue();
            tokens[i] = pair.get(1).intValue();
        }
        JsonNode error = required(n, ERROR);
        return new RequestRecord(
                integer(n, ID),
                bool(n, WARMUP),
                time(n, INTENDED_NS), time(n, SENT_NS), time(n, FIRST_TOKEN_NS), time(n, FIRST_CONTENT_NS),
                time(n, END_NS), time(n, DONE_NS),
                (int) integer(n, PROMPT_TOKENS), (int) integer(n, OUTPUT_TOKENS),
                TokenSource.valueOf(required(n, OUTPUT_TOKENS_SOURCE).asText()),
                times, tokens,
                TokenSource.valueOf(required(n, EVENTS_SOURCE).asText()),
                (int) integer(n, EVENTS_PER_READ_MAX), (int) integer(n, COALESCED_EVENTS),
                (int) integer(n, STATUS),
                error.isNull() ? null : error.asText(),
                // files written before the concurrency cap existed have no slot_ns
                n.has(SLOT_NS) ? time(n, SLOT_NS) : RequestRecord.NONE);
    }

    private static JsonNode required(JsonNode n, String key) {
        JsonNode v = n.get(key);
        if (v == null) {
            throw new IllegalArgumentException("missing key '" + key + "'");
        }
        return v;
    }

    private static long integer(JsonNode n, String key) {
        JsonNode v = required(n, key);
        if (!v.isIntegralNumber()) {
            throw new IllegalArgumentException("'" + key + "' must be an integer, got " + v);
        }
        return v.longValue();
    }

    private static boolean bool(JsonNode n, String key) {
        JsonNode v = required(n, key);
        if (!v.isBoolean()) {
            throw new IllegalArgumentException("'" + key + "' must be true or false, got " + v);
        }
        return v.booleanValue();
    }

    private static long time(JsonNode n, String key) {
        JsonNode v = required(n, key);
        return v.isNull() ? RequestRecord.NONE : integer(n, key);
    }
}
