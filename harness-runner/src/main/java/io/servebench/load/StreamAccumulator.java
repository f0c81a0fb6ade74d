package io.servebench.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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

    private final DeltaTokenCounter counter;

    private long readNs = RequestRecord.NONE;
    private int readTokenEvents;
    private int eventsPerReadMax;
    private int coalescedEvents;

    private long firstTokenNs = RequestRecord.NONE;
    private long firstContentNs = RequestRecord.NONE;
    private long[] eventTimesNs = new long[64];
    private int[] usageTokens = new int[64];
    private int[] counterTokens = new int[64];
    private int events;
    private boolean everyEventHadUsage = true;
    private int attributedCompletionTokens;

    private int lastCompletionTokens = -1;
    private int promptTokens = -1;
    private boolean done;
    private String error;

    /** @param counter counts an event's tokens when the server sends no continuous usage */
    public StreamAccumulator(DeltaTokenCounter counter) {
        this.counter = Objects.requireNonNull(counter, "counter");
    }

    /** A new network read begins at {@code nowNs}: the events parsed until the next call share this time. */
    public void beginRead(long nowNs) {
        readNs = nowNs;
        readTokenEvents = 0;
    }

    /** Interprets one SSE event's data. Events after {@code [DONE]} or after a failure are ignored. */
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
        JsonNode chunk;
        try {
            chunk = JSON.readTree(trimmed);
        } catch (JsonProcessingException e) {
            fail("malformed: invalid JSON in SSE event: " + quote(trimmed));
            return;
        }
        if (chunk == null || !chunk.isObject()) {
            fail("malformed: SSE event is not a JSON object: " + quote(trimmed));
            return;
        }
        String serverError = serverError(chunk);
        if (serverError != null) {
            fail("stream_error: " + serverError);
            return;
        }
        JsonNode usage = chunk.path("usage");
        boolean chunkHasUsage = usage.path("completion_tokens").isIntegralNumber();
        if (chunkHasUsage) {
            lastCompletionTokens = usage.get("completion_tokens").intValue();
        }
        if (usage.path("prompt_tokens").isIntegralNumber()) {
            promptTokens = usage.get("prompt_tokens").intValue();
        }
        JsonNode choice = chunk.path("choices").path(0);
        JsonNode delta = choice.path("delta");
        String content = nonEmptyText(delta.path("content"));
        if (content == null) {
            content = nonEmptyText(choice.path("text"));
        }
        String reasoning = nonEmptyText(delta.path("reasoning_content"));
        if (reasoning == null) {
            reasoning = nonEmptyText(delta.path("reasoning"));
        }
        if (content != null || reasoning != null) {
            addTokenEvent(content != null, reasoning == null ? content : content == null ? reasoning : reasoning + content,
                    chunkHasUsage);
        }
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
        long[] times = Arrays.copyOf(eventTimesNs, events);
        int[] tokens;
        TokenSource eventSource;
        if (events > 0 && everyEventHadUsage) {
            tokens = Arrays.copyOf(usageTokens, events);
            eventSource = TokenSource.CONTINUOUS_USAGE;
        } else {
            tokens = Arrays.copyOf(counterTokens, events);
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

    private void addTokenEvent(boolean hasContent, String text, boolean chunkHasUsage) {
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
        counterTokens[events] = Math.max(1, counter.count(text));
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

    /** The message of an error payload ({@code {"error": ...}} or {@code {"object": "error", ...}}), else null. */
    private static String serverError(JsonNode chunk) {
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

    private static String nonEmptyText(JsonNode node) {
        return node.isTextual() && !node.textValue().isEmpty() ? node.textValue() : null;
    }

    private static String quote(String s) {
        return s.length() <= MAX_QUOTED_CHARS ? s : s.substring(0, MAX_QUOTED_CHARS) + "...";
    }
}
