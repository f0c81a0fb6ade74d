package io.servebench.truth;

import io.servebench.wire.openai.StreamChunks;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * One streaming response as the {@link Script} lays it out: which token events exist, which write
 * carries which of them, when each write is due, and the bytes of each write.
 *
 * <p>Not thread-safe: used by the server's event loop only.
 */
final class StreamResponse {

    private static final String DONE = StreamChunks.DONE;
    private static final String LAST_CHUNK = "0\r\n\r\n";
    private static final String TOKEN_TEXT = " tok";

    private final Script script;
    private final boolean chat;
    private final StreamChunks chunks;
    /** The event being built, and its text: reused from event to event. */
    private final StringBuilder event = new StringBuilder(256);
    private final StringBuilder text = new StringBuilder(64);
    private final long created = Instant.now().getEpochSecond();
    private final RequestTruth truth;
    private final int promptTokens;
    /** The last token event's {@code finish_reason}. */
    private final String finishReason;
    private final int[] eventTokens;
    private final boolean[] eventReasoning;
    /** When each event's write was due by the script. */
    private final long[] eventDueNs;
    /** Events that are written at all: fewer than planned when the script fails the response part-way. */
    private final int eventLimit;
    private final int writeCount;
    private final long firstDueNs;
    private final long gapNs;
    private final long stallNs;

    private int nextWrite;
    private int queuedEvents;
    private int stampedEvents;
    private int cumulativeTokens;

    /**
     * @param arrival      the request's arrival number over the server's life, from 1 (for the stall)
     * @param tokens       tokens the response carries, {@code >= 1}
     * @param promptTokens reported in usage
     * @param finishReason the last token event's {@code finish_reason}: {@code "length"} when it reached the request's
     *                     {@code max_tokens}, else {@code "stop"}, as vLLM reports them
     */
    StreamResponse(Script script, boolean chat, RequestTruth truth, String requestId, long arrival, long receivedNs,
                   int tokens, int promptTokens, String finishReason) {
        this.script = script;
        this.chat = chat;
        this.truth = truth;
        this.chunks = new StreamChunks(chat, (chat ? "chatcmpl-" : "cmpl-") + requestId, created, TruthServer.MODEL);
        this.promptTokens = promptTokens;
        this.finishReason = finishReason;
        int reasoningTokens = chat ? Math.min(script.reasoningTokens(), tokens) : 0;
        int perEvent = script.tokensPerEvent();
        int reasoningEvents = ceilDiv(reasoningTokens, perEvent);
        int contentEvents = ceilDiv(tokens - reasoningTokens, perEvent);
        eventTokens = new int[reasoningEvents + contentEvents];
        eventReasoning = new boolean[eventTokens.length];
        eventDueNs = new long[eventTokens.length];
        fill(0, reasoningEvents, reasoningTokens, perEvent, true);
        fill(reasoningEvents, contentEvents, tokens - reasoningTokens, perEvent, false);
        eventLimit = script.failure().eventLimit(eventTokens.length);
        int writes = ceilDiv(eventLimit, script.eventsPerWrite());
        boolean tailOnlyWrite = writes == 0 && !(script.failure() instanceof Script.Failure.CloseAfter);
        writeCount = tailOnlyWrite ? 1 : writes;
        firstDueNs = receivedNs + script.ttft().toNanos();
        gapNs = script.gap().toNanos();
        stallNs = script.stall().appliesTo(arrival) ? script.stall().length().toNanos() : 0;
        truth.respond(200, tokens);
    }

    /** The head and, when the script has one, the role-only chunk: written at once. */
    ByteBuffer head() {
        StringBuilder sb = new StringBuilder(256);
        sb.append("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\ncache-control: no-cache\r\n")
                .append("transfer-encoding: chunked\r\n\r\n");
        byte[] headBytes = sb.toString().getBytes(StandardCharsets.US_ASCII);
        if (!script.roleChunk() || !chat) {
            return ByteBuffer.wrap(headBytes);
        }
        byte[] role = chunk(chunks.role(new StringBuilder(), null).toString());
        ByteBuffer b = ByteBuffer.allocate(headBytes.length + role.length);
        return b.put(headBytes).put(role).flip();
    }

    /** Whether the connection is closed right after the head (a close after zero events). */
    boolean closesAfterHead() {
        return writeCount == 0;
    }

    boolean hasNextWrite() {
        return nextWrite < writeCount;
    }

    /** When the next write is due ({@link System#nanoTime()} time). */
    long nextDueNs() {
        long at = firstDueNs + nextWrite * gapNs;
        int firstEvent = nextWrite * script.eventsPerWrite();
        return firstEvent >= script.stall().afterEvent() ? at + stallNs : at;
    }

    /**
     * The bytes of the next write, laid out in {@code out} (cleared first) with {@code scratch} as working
     * space; the view is valid until either changes. Its events count as queued until {@link #flushed}
     * stamps them.
     */
    ByteBuffer nextWrite(AsciiBytes out, AsciiBytes scratch) {
        out.clear();
        int from = nextWrite * script.eventsPerWrite();
        int to = Math.min(eventLimit, from + script.eventsPerWrite());
        long due = nextDueNs();
        nextWrite++;
        for (int e = from; e < to; e++) {
            eventDueNs[e] = due;
            cumulativeTokens += eventTokens[e];
            appendChunk(out, scratch.clear().append(tokenEvent(e)));
        }
        queuedEvents = to;
        if (nextWrite == writeCount) {
            appendTail(out, scratch);
        }
        return out.view();
    }

    /** What follows the last token event, as the script's failure has it. */
    private void appendTail(AsciiBytes out, AsciiBytes scratch) {
        Script.Failure failure = script.failure();
        if (failure instanceof Script.Failure.CloseAfter) {
            return;
        }
        if (failure instanceof Script.Failure.EndWithoutDone) {
            out.append(LAST_CHUNK);
            return;
        }
        String errorMessage = failure instanceof Script.Failure.ErrorPayload p ? p.message()
                : failure instanceof Script.Failure.ErrorThenSilence p ? p.message() : null;
        if (errorMessage != null) {
            appendChunk(out, scratch.clear().append(StreamChunks.error(event.delete(0, event.length()), errorMessage,
                    "InternalServerError", 500)));
            if (failure instanceof Script.Failure.ErrorThenSilence) {
                return;
            }
        } else if (script.usage() != Script.Usage.NONE) {
            appendChunk(out, scratch.clear().append(chunks.usage(event.delete(0, event.length()), usage())));
        }
        appendChunk(out, scratch.clear().append(DONE));
        out.append(LAST_CHUNK);
    }

    /** Whether the response's last write has been queued. */
    boolean allQueued() {
        return nextWrite == writeCount;
    }

    /** The bytes queued so far have all been handed to the kernel at {@code nowNs}: stamps their events. */
    void flushed(long nowNs) {
        for (; stampedEvents < queuedEvents; stampedEvents++) {
            truth.eventWritten(nowNs, eventDueNs[stampedEvents], eventTokens[stampedEvents], eventReasoning[stampedEvents]);
        }
        if (allQueued()) {
            if (script.failure() instanceof Script.Failure.CloseAfter c) {
                truth.finish("closed: the script closed the connection after " + c.afterEvents() + " token events");
            } else if (script.failure() instanceof Script.Failure.ErrorPayload p) {
                truth.finish("stream_error: " + p.message());
            } else if (script.failure() instanceof Script.Failure.ErrorThenSilence p) {
                truth.finish("stream_error: " + p.message());
            } else if (script.failure() instanceof Script.Failure.EndWithoutDone e) {
                truth.finish("incomplete: the body ended without [DONE] after " + e.afterEvents() + " token events");
            } else {
                truth.finish(null);
            }
        }
    }

    /** Whether the connection is closed once this response's bytes are flushed. */
    boolean closesConnection() {
        return script.failure() instanceof Script.Failure.CloseAfter;
    }

    /** Whether the response never ends once its bytes are written: the connection waits for the client to leave. */
    boolean staysOpen() {
        return script.failure() instanceof Script.Failure.ErrorThenSilence;
    }

    RequestTruth truth() {
        return truth;
    }

    /** Token event {@code e} as its SSE event, in the reused builder. */
    private StringBuilder tokenEvent(int e) {
        text.setLength(0);
        for (int i = 0; i < eventTokens[e]; i++) {
            text.append(TOKEN_TEXT);
        }
        event.setLength(0);
        return chunks.token(event, text, eventReasoning[e], e == eventLimit - 1 ? lastFinishReason() : null,
                script.usage() == Script.Usage.CONTINUOUS ? usage() : null);
    }

    /** The last event's {@code finish_reason}: none when the script breaks the stream off, the script's when it ends it early. */
    private String lastFinishReason() {
        if (script.failure() instanceof Script.Failure.DoneAfter d) {
            return d.finishReason();
        }
        return script.failure() instanceof Script.Failure.Never ? finishReason : null;
    }

    private StreamChunks.Usage usage() {
        return new StreamChunks.Usage(promptTokens, cumulativeTokens);
    }

    private void fill(int start, int count, int tokens, int perEvent, boolean reasoning) {
        for (int i = 0; i < count; i++) {
            eventTokens[start + i] = Math.min(perEvent, tokens - i * perEvent);
            eventReasoning[start + i] = reasoning;
        }
    }

    private static void appendChunk(StringBuilder sb, String data) {
        // the chunk size counts bytes; the payload is ASCII apart from escaped ids, which jsonEscape keeps ASCII
        sb.append(Integer.toHexString(data.length())).append("\r\n").append(data).append("\r\n");
    }

    private static void appendChunk(AsciiBytes out, AsciiBytes data) {
        out.appendHex(data.length()).append("\r\n").append(data).append("\r\n");
    }

    private static byte[] chunk(String data) {
        StringBuilder sb = new StringBuilder(data.length() + 16);
        appendChunk(sb, data);
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** JSON string content, ASCII only (so chunk sizes in characters are sizes in bytes). */
    static String jsonEscape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
