package io.servebench.load;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * Writes per-request records as gzip-compressed JSON lines: one object per request, one request per line,
 * so that any tool can re-derive every metric. Keys (timestamps are {@link System#nanoTime()} values,
 * {@code null} when the moment did not happen):
 * {@code id, warmup, intended_ns, sent_ns, first_token_ns, first_content_ns, end_ns, done_ns,
 * prompt_tokens, output_tokens, output_tokens_source, events ([[t_ns, tokens], ...]), events_source,
 * events_per_read_max, coalesced_events, status, error, slot_ns} ({@code error} null when the request succeeded;
 * {@code slot_ns} null when the profile had no concurrency cap).
 * {@link RequestRecordReader} reads them back.
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
        if (trial == null || !TRIAL_NAME.matcher(trial).matches() || trial.startsWith(".")) {
            throw new IllegalArgumentException("trial name must consist of letters, digits and . _ = + - and not start"
                    + " with '.', got " + (trial == null ? "null" : "'" + trial + "'"));
        }
        Path dir = Files.createDirectories(runDir.resolve("requests"));
        Path file = dir.resolve(trial + ".jsonl.gz");
        write(file, records);
        return file;
    }

    /** Writes {@code records} to {@code file} (replacing it) in the order given. */
    public static void write(Path file, List<RequestRecord> records) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file), 64 * 1024);
             JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.setRootValueSeparator(null);
            for (RequestRecord r : records) {
                writeRecord(json, r);
                json.flush();
                out.write('\n');
            }
        }
    }

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
