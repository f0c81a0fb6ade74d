package io.servebench.load;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Writes per-request records as gzip-compressed JSON lines: one object per request, one request per line,
 * so that any tool can re-derive every metric. Keys (timestamps are {@link System#nanoTime()} values,
 * {@code null} when the moment did not happen):
 * {@code id, warmup, intended_ns, sent_ns, first_token_ns, first_content_ns, end_ns, done_ns,
 * prompt_tokens, output_tokens, output_tokens_source, events ([[t_ns, tokens], ...]), events_source,
 * events_per_read_max, coalesced_events, status, error, slot_ns} ({@code error} null when the request succeeded;
 * {@code slot_ns} null when the profile had no concurrency cap).
 * {@link RequestRecordReader} reads them back. A run streams them as its requests complete ({@link Sink}).
 */
public final class RequestRecordWriter {

    static final String ID = "id";
    static final String WARMUP = "warmup";
    static final String INTENDED_NS = "intended_ns";
    static final String SENT_NS = "sent_ns";
    static final String FIRST_TOKEN_NS = "first_token_ns";
    static final String FIRST_CONTENT_NS = "first_content_ns";
    static final String END_NS = "end_ns";
    static final String DONE_NS = "done_ns";
    static final String PROMPT_TOKENS = "prompt_tokens";
    static final String OUTPUT_TOKENS = "output_tokens";
    static final String OUTPUT_TOKENS_SOURCE = "output_tokens_source";
    static final String EVENTS = "events";
    static final String EVENTS_SOURCE = "events_source";
    static final String EVENTS_PER_READ_MAX = "events_per_read_max";
    static final String COALESCED_EVENTS = "coalesced_events";
    static final String STATUS = "status";
    static final String ERROR = "error";
    static final String SLOT_NS = "slot_ns";

    /** Trial names become file names: keep them to a portable, separator-free alphabet. */
    private static final Pattern TRIAL_NAME = Pattern.compile("[A-Za-z0-9._=+-]+");

    private static final JsonFactory JSON = new JsonFactory();

    private RequestRecordWriter() {
    }

    /**
     * Writes {@code records} to {@code runDir/requests/<trial>.jsonl.gz}, creating the folder.
     *
     * @param trial the trial's name: letters, digits and {@code . _ = + -} only
     * @return the file written
     */
    public static Path writeTrial(Path runDir, String trial, List<RequestRecord> records) throws IOException {
        Path file = trialFile(runDir, trial);
        write(file, records);
        return file;
    }

    /** {@code runDir/requests/<trial>.jsonl.gz}, the folder created. */
    public static Path trialFile(Path runDir, String trial) throws IOException {
        if (trial == null || !TRIAL_NAME.matcher(trial).matches() || trial.startsWith(".")) {
            throw new IllegalArgumentException("trial name must consist of letters, digits and . _ = + - and not start"
                    + " with '.', got " + (trial == null ? "null" : "'" + trial + "'"));
        }
        return Files.createDirectories(runDir.resolve("requests")).resolve(trial + ".jsonl.gz");
    }

    /** Writes {@code records} to {@code file} (replacing it) in the order given. */
    public static void write(Path file, List<RequestRecord> records) throws IOException {
        Sink sink = open(file);
        records.forEach(sink::onComplete);
        sink.close();
        if (sink.stopReason().isPresent()) {
            throw new IOException(sink.stopReason().get());
        }
    }

    /**
     * A sink that writes to {@code file} (replacing it) each record as it completes; one that could not open the file
     * says why in its {@link Sink#stopReason()}.
     */
    public static Sink open(Path file) {
        return new Sink(file);
    }

    /**
     * Writes records as their requests complete, a line each, in completion order, so that a run keeps no record in
     * memory. What was written reaches the file at least every {@link #FLUSH_NANOS} ns (a gzip sync flush): a harness
     * killed mid-trial leaves a file whose lines up to the last second are readable ({@link
     * RequestRecordReader#readRecovered}). A write that fails (the disk is full) is not retried: the sink stops writing
     * and asks the run to stop sending ({@link #stopReason()}). Thread-safe.
     */
    public static final class Sink implements LoadListener, java.io.Closeable {

        private final Path file;
        /** The file's own stream: closed whatever the compressed one does when the disk is full. */
        private final OutputStream raw;
        private final OutputStream out;
        private final JsonGenerator json;
        private long flushedNs = System.nanoTime();
        private long written;
        private volatile String failure;

        private Sink(Path file) {
            this.file = file;
            OutputStream raw = null;
            OutputStream opened = null;
            JsonGenerator generator = null;
            try {
                raw = Files.newOutputStream(file);
                opened = new FastestGzip(raw);
                generator = JSON.createGenerator(opened, JsonEncoding.UTF8);
                generator.setRootValueSeparator(null);
                // a record's flush moves its bytes into the gzip stream and no further: passed on, it sync-flushed
                // deflate and wrote the file once a record, where FLUSH_NANOS asks for once a second
                generator.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
            } catch (IOException e) {
                // a disk that is full already: the run stops before its first request, as when it fills up later
                failure = "writing " + file.getFileName() + " failed at its start: " + e.getMessage();
                closeQuietly(raw);
                raw = null;
                opened = null;
            }
            this.raw = raw;
            this.out = opened;
            this.json = generator;
        }

        private static void closeQuietly(OutputStream stream) {
            if (stream != null) {
                try {
                    stream.close();
                } catch (IOException ignored) {
                    // nothing more can be lost: the stream failed already
                }
            }
        }

        @Override
        public synchronized void onComplete(RequestRecord record) {
            if (failure != null) {
                return;
            }
            try {
                writeRecord(json, record);
                json.flush();
                out.write('\n');
                written++;
                if (System.nanoTime() - flushedNs >= FLUSH_NANOS) {
                    out.flush();
                    flushedNs = System.nanoTime();
                }
            } catch (IOException e) {
                failure = "writing " + file.getFileName() + " failed after " + written + " records: " + e.getMessage();
            }
        }

        /** Why writing stopped ({@code writing ... failed after 1200 records: No space left on device}), if it did. */
        @Override
        public Optional<String> stopReason() {
            return Optional.ofNullable(failure);
        }

        /** How many records reached the file's stream. */
        public synchronized long written() {
            return written;
        }

        /** Ends the file; a failure to is one more {@link #stopReason()}, not an exception. */
        @Override
        public synchronized void close() {
            if (out == null) {
                return;
            }
            try {
                json.close();
                out.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = "writing " + file.getFileName() + " failed at its end: " + e.getMessage();
                }
            } finally {
                // a compressed stream whose last block did not fit leaves its file open: what was written stays
                closeQuietly(raw);
            }
        }
    }

    /**
     * A gzip stream at deflate's fastest level, sync-flushable. A record holds every token event's time, so the
     * records are compressed per event: at the default level 6 that cost the client 0.73 us per event, at level 1
     * 0.14 us, for files 17% larger (a 100 req/s x 100 token run's records, docs/measurement-truth.md).
     */
    private static final class FastestGzip extends GZIPOutputStream {
        FastestGzip(OutputStream raw) throws IOException {
            super(raw, 64 * 1024, true);
            def.setLevel(Deflater.BEST_SPEED);
        }
    }

    /** One record as one line of JSON, as the files hold it (without the line end). */
    static String line(RequestRecord record) {
        java.io.StringWriter text = new java.io.StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            writeRecord(json, record);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("a record did not write to a string", e);
        }
        return text.toString();
    }

    /** How often a sink's written records reach the file at the latest, ns. */
    static final long FLUSH_NANOS = 1_000_000_000L;

    private static void writeRecord(JsonGenerator json, RequestRecord r) throws IOException {
        json.writeStartObject();
        json.writeNumberField(ID, r.id());
        json.writeBooleanField(WARMUP, r.warmup());
        writeTime(json, INTENDED_NS, r.intendedNs());
        writeTime(json, SENT_NS, r.sentNs());
        writeTime(json, FIRST_TOKEN_NS, r.firstTokenNs());
        writeTime(json, FIRST_CONTENT_NS, r.firstContentNs());
        writeTime(json, END_NS, r.endNs());
        writeTime(json, DONE_NS, r.doneNs());
        json.writeNumberField(PROMPT_TOKENS, r.promptTokens());
        json.writeNumberField(OUTPUT_TOKENS, r.outputTokens());
        json.writeStringField(OUTPUT_TOKENS_SOURCE, r.outputTokensSource().name());
        json.writeArrayFieldStart(EVENTS);
        for (int i = 0; i < r.eventTimesNs().length; i++) {
            json.writeStartArray();
            json.writeNumber(r.eventTimesNs()[i]);
            json.writeNumber(r.eventTokens()[i]);
            json.writeEndArray();
        }
        json.writeEndArray();
        json.writeStringField(EVENTS_SOURCE, r.eventTokensSource().name());
        json.writeNumberField(EVENTS_PER_READ_MAX, r.eventsPerReadMax());
        json.writeNumberField(COALESCED_EVENTS, r.coalescedEvents());
        json.writeNumberField(STATUS, r.httpStatus());
        json.writeStringField(ERROR, r.error());
        writeTime(json, SLOT_NS, r.slotNs());
        json.writeEndObject();
    }

    private static void writeTime(JsonGenerator json, String key, long ns) throws IOException {
        if (ns == RequestRecord.NONE) {
            json.writeNullField(key);
        } else {
            json.writeNumberField(key, ns);
        }
    }
}
