package io.servebench.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Interprets the SSE events of one streaming completion (chat or completions API) and keeps what the
 * metrics need: when each token event arrived, how many tokens it carried, the usage counts, and
 * whether the stream ended properly.
 *
 * <p>A <em>token event</em> is a chunk with non-empty {@code choices[0].delta.content},
 * {@code delta.reasoning_content}, {@code delta.reasoning} or {@code choices[0].text}; role-only,
 * empty and usage-only chunks are not. Every event parsed from one network read is stamped with that
 * read's time (see {@link #beginRead(long)}), so events that arrive together share a timestamp and
 * are counted as coalesced.
 *
 * <p>Tokens per event: when every token event carries cumulative {@code usage.completion_tokens}
 * (continuous usage stats), an event carries the growth of that count since the previous token event
 * (at least 1), so tokens that arrived in chunks without text are attributed to the next token event;
 * otherwise the {@link DeltaTokenCounter} decides. Output tokens are the last
 * {@code usage.completion_tokens} seen, else the sum over events.
 *
 * <p>Not thread-safe: one instance per response, fed by one thread at a time.
 */
public final class StreamAccumulator implements SseParser.Listener {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_QUOTED_CHARS = 120;
    private static final int DEFAULT_CAPACITY = 64;

    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final DeltaTokenCounter counter;
    // ONE_PER_EVENT counts 1 without looking at the text, so for it no text is ever decoded
    private final boolean countsText;
    private final ChunkScan scan;

    private long readNs = RequestRecord.NONE;
    private int readTokenEvents;
    private int eventsPerReadMax;
    private int coalescedEvents;

    private long firstTokenNs = RequestRecord.NONE;
    private long firstContentNs = RequestRecord.NONE;
    private long[] eventTimesNs;
    private int[] usageTokens;
    private int[] counterTokens;
    private int events;
    private boolean everyEventHadUsage = true;
    private int attributedCompletionTokens;

    private int lastCompletionTokens = -1;
    private int promptTokens = -1;
    private FinishReason finishReason = FinishReason.NONE;
    private boolean done;
    private String error;

    /** @param counter counts an event's tokens when the server sends no continuous usage */
    public StreamAccumulator(DeltaTokenCounter counter) {
        this(counter, DEFAULT_CAPACITY);
    }

    /**
     * @param counter        counts an event's tokens when the server sends no continuous usage
     * @param expectedEvents how many token events to make room for (e.g. the request's {@code max_tokens}):
     *                       a response of exactly that many hands its arrays to the record without a copy
     */
    public StreamAccumulator(DeltaTokenCounter counter, int expectedEvents) {
        this.counter = Objects.requireNonNull(counter, "counter");
        int capacity = Math.max(1, expectedEvents);
        this.eventTimesNs = new long[capacity];
        this.usageTokens = new int[capacity];
        this.counterTokens = new int[capacity];
        this.countsText = counter != DeltaTokenCounter.ONE_PER_EVENT;
        this.scan = new ChunkScan(countsText);
    }

    /** A new network read begins at {@code nowNs}: the events parsed until the next call share this time. */
    public void beginRead(long nowNs) {
        readNs = nowNs;
        readTokenEvents = 0;
    }

    /**
     * Interprets one SSE event's data (see {@link #onEvent(byte[], int, int)}, the path the client takes).
     * Events after {@code [DONE]} or after a failure are ignored.
     */
    @Override
    public void onEvent(String data) {
        if (isFinished()) {
            return;
        }
        String trimmed = data.strip();
        if (trimmed.isEmpty()) {
            return;
        }
        if (trimmed.equals("[DONE]")) {
            done = true;
            return;
        }
        boolean isObject;
        try (JsonParser p = JSON.getFactory().createParser(trimmed)) {
            isObject = scan.scan(p);
        } catch (IOException e) {
            // the input is in memory: every IOException is a parse error
            fail("malformed: invalid JSON in SSE event: " + quote(trimmed));
            return;
        }
        if (!isObject) {
            // whether the value is at least valid JSON takes reading all of it; rare enough for a tree
            failNotAnObject(trimmed);
            return;
        }
        if (scan.mayBeError()) {
            String serverError = serverError(trimmed);
            if (serverError != null) {
                fail("stream_error: " + serverError);
                return;
            }
        }
        apply();
    }

    /**
     * Interprets one SSE event's data given as UTF-8 bytes, with the same outcome as
     * {@link #onEvent(String)} on their decoding: an ordinary chunk is scanned straight from the bytes
     * ({@link ChunkScan#scan(byte[], int, int)}), with nothing allocated unless a {@link DeltaTokenCounter}
     * other than {@link DeltaTokenCounter#ONE_PER_EVENT} needs the text; anything else (not valid UTF-8,
     * not an object, invalid JSON, an error payload, a form the byte scan leaves to Jackson) is decoded and
     * takes the {@code String} path, which words every failure.
     */
    @Override
    public void onEvent(byte[] data, int offset, int length) {
        if (isFinished()) {
            return;
        }
        int start = offset;
        int end = offset + length;
        while (start < end && isAsciiWhitespace(data[start])) {
            start++;
        }
        while (end > start && isAsciiWhitespace(data[end - 1])) {
            end--;
        }
        if (start == end) {
            return;
        }
        if (Arrays.equals(data, start, end, DONE, 0, DONE.length)) {
            done = true;
            return;
        }
        if (data[start] == '{' && Utf8.isValid(data, start, end) && scan.scan(data, start, end) && !scan.mayBeError()) {
            apply();
            return;
        }
        onEvent(new String(data, offset, length, StandardCharsets.UTF_8));
    }

    /** Ends the request with {@code error} ({@code kind: detail}) unless it has already ended. */
    public void fail(String error) {
        if (!isFinished()) {
            this.error = error;
        }
    }

    /** {@code data: [DONE]} arrived or the request failed: nothing more will be recorded. */
    public boolean isFinished() {
        return done || error != null;
    }

    /** Whether {@code data: [DONE]} arrived. */
    public boolean sawDone() {
        return done;
    }

    /** When the first token event was read, {@link RequestRecord#NONE} before it. */
    long firstTokenNs() {
        return firstTokenNs;
    }

    /** Number of token events so far. */
    public int tokenEvents() {
        return events;
    }

    /** The failure recorded so far ({@code kind: detail}), or {@code null}. */
    public String error() {
        return error;
    }

    /**
     * The record of this response.
     *
     * @param id                 the request's id
     * @param warmup             whether it was a warm-up request
     * @param intendedNs         its intended send time
     * @param sentNs             when it was handed to the connection, {@link RequestRecord#NONE} if never
     * @param doneNs             when the response ended or failed
     * @param clientPromptTokens the client's prompt token count, used when the server sent no usage
     * @param httpStatus         the response status, 0 when none arrived
     * @param failure            the failure to record, overriding any seen in the stream; {@code null} for none
     */
    public RequestRecord toRecord(long id, boolean warmup, long intendedNs, long sentNs, long doneNs,
                                  int clientPromptTokens, int httpStatus, String failure) {
        long[] times = exactly(eventTimesNs);
        int[] tokens;
        TokenSource eventSource;
        if (events > 0 && everyEventHadUsage) {
            tokens = exactly(usageTokens);
            eventSource = TokenSource.CONTINUOUS_USAGE;
        } else {
            tokens = exactly(counterTokens);
            eventSource = counter.source();
        }
        int outputTokens;
        TokenSource outputSource;
        if (lastCompletionTokens >= 0) {
            outputTokens = lastCompletionTokens;
            outputSource = TokenSource.USAGE;
        } else {
            outputTokens = Arrays.stream(tokens).sum();
            outputSource = eventSource;
        }
        long endNs = events == 0 ? RequestRecord.NONE : times[events - 1];
        return new RequestRecord(id, warmup, intendedNs, sentNs, firstTokenNs, firstContentNs, endNs, doneNs,
                promptTokens >= 0 ? promptTokens : clientPromptTokens, outputTokens, outputSource, times, tokens,
                eventSource, eventsPerReadMax, coalescedEvents, httpStatus, failure != null ? failure : error);
    }

    // the record owns what it is given: this accumulator must not be fed after toRecord
    private long[] exactly(long[] a) {
        return a.length == events ? a : Arrays.copyOf(a, events);
    }

    private int[] exactly(int[] a) {
        return a.length == events ? a : Arrays.copyOf(a, events);
    }

    /** Records what the last scanned chunk says. */
    private void apply() {
        if (scan.hasCompletionTokens()) {
            lastCompletionTokens = scan.completionTokens();
        }
        if (scan.hasPromptTokens()) {
            promptTokens = scan.promptTokens();
        }
        if (scan.hasContent() || scan.hasReasoning()) {
            addTokenEvent(scan.hasContent(), scan.hasCompletionTokens());
        }
        if (scan.finishReason() != FinishReason.NONE) {
            finishReason = scan.finishReason();
            if (finishReason == FinishReason.ABORT) {
                // SGLang's scheduler gave the request up (overload, say): what came so far is not a whole answer
                fail("aborted: the engine aborted the request (finish_reason \"abort\") after " + events + " token events");
            }
        }
    }

    /** The last {@code finish_reason} the stream gave, {@link FinishReason#NONE} before one. */
    FinishReason finishReason() {
        return finishReason;
    }

    private void addTokenEvent(boolean hasContent, boolean chunkHasUsage) {
        if (readNs == RequestRecord.NONE) {
            throw new IllegalStateException("beginRead must be called before events are fed");
        }
        if (events == eventTimesNs.length) {
            int grown = events * 2;
            eventTimesNs = Arrays.copyOf(eventTimesNs, grown);
            usageTokens = Arrays.copyOf(usageTokens, grown);
            counterTokens = Arrays.copyOf(counterTokens, grown);
        }
        eventTimesNs[events] = readNs;
        counterTokens[events] = countsText ? Math.max(1, counter.count(scan.generatedText())) : 1;
        if (chunkHasUsage) {
            int n = Math.max(1, lastCompletionTokens - attributedCompletionTokens);
            usageTokens[events] = n;
            attributedCompletionTokens += n;
        } else {
            everyEventHadUsage = false;
        }
        events++;
        if (firstTokenNs == RequestRecord.NONE) {
            firstTokenNs = readNs;
        }
        if (hasContent && firstContentNs == RequestRecord.NONE) {
            firstContentNs = readNs;
        }
        if (readTokenEvents > 0) {
            coalescedEvents++;
        }
        readTokenEvents++;
        eventsPerReadMax = Math.max(eventsPerReadMax, readTokenEvents);
    }

    private void failNotAnObject(String trimmed) {
        try {
            JSON.readTree(trimmed);
        } catch (JsonProcessingException e) {
            fail("malformed: invalid JSON in SSE event: " + quote(trimmed));
            return;
        }
        fail("malformed: SSE event is not a JSON object: " + quote(trimmed));
    }

    /**
     * The message of an error payload ({@code {"error": ...}} or {@code {"object": "error", ...}}), else
     * null; {@code trimmed} is a JSON object.
     */
    private static String serverError(String trimmed) {
        JsonNode chunk;
        try {
            chunk = JSON.readTree(trimmed);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a chunk the scan read as JSON failed to parse as a tree: " + quote(trimmed), e);
        }
        JsonNode err = chunk.get("error");
        if (err != null && !err.isNull()) {
            if (err.isTextual()) {
                return err.textValue();
            }
            JsonNode message = err.get("message");
            return message != null && message.isTextual() ? message.textValue() : err.toString();
        }
        if ("error".equals(chunk.path("object").asText(null))) {
            JsonNode message = chunk.get("message");
            return message != null && message.isTextual() ? message.textValue() : chunk.toString();
        }
        return null;
    }

    /** The ASCII characters {@link String#strip()} removes ({@link Character#isWhitespace}). */
    private static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x1F);
    }

    private static String quote(String s) {
        return s.length() <= MAX_QUOTED_CHARS ? s : s.substring(0, MAX_QUOTED_CHARS) + "...";
    }
}
