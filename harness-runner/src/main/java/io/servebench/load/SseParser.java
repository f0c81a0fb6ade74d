package io.servebench.load;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A byte-level parser of {@code text/event-stream} bodies, fed one network read at a time.
 *
 * <p>It follows the WHATWG server-sent events rules that matter to a streaming client: lines end with
 * {@code \n}, {@code \r\n} or {@code \r} (also when the two bytes of {@code \r\n} arrive in different
 * reads); a blank line ends an event; lines starting with {@code :} are comments; {@code data:} is
 * followed by an optional single space; several {@code data} lines of one event are joined with
 * {@code \n}; an event without {@code data} lines is not dispatched; other fields ({@code event},
 * {@code id}, {@code retry}) are read and ignored. Lines are decoded as UTF-8 only once complete, so a
 * multi-byte character or an event split across reads is reassembled intact. An event left incomplete
 * when the stream ends is never dispatched ({@link #hasPartialEvent()} says whether there was one).
 *
 * <p>Not thread-safe: one parser per response, fed by one thread at a time.
 */
public final class SseParser {

    /** Receives the joined {@code data} of each complete event, in order. */
    @FunctionalInterface
    public interface Listener {
        void onEvent(String data);
    }

    /** Default bound on one event's size, so that a server that never sends a line end cannot exhaust memory. */
    public static final int DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024;

    private final int maxEventBytes;
    private byte[] line = new byte[512];
    private int lineLength;
    private final StringBuilder data = new StringBuilder();
    private boolean eventHasData;
    private int eventBytes;
    private boolean previousWasCr;

    public SseParser() {
        this(DEFAULT_MAX_EVENT_BYTES);
    }

    /** @param maxEventBytes the largest event accepted, in bytes of the stream (line ends included) */
    public SseParser(int maxEventBytes) {
        if (maxEventBytes < 1) {
            throw new IllegalArgumentException("maxEventBytes must be >= 1, got " + maxEventBytes);
        }
        this.maxEventBytes = maxEventBytes;
    }

    /**
     * Parses all remaining bytes of {@code bytes} (consuming them) and hands each event they complete to
     * {@code listener} before returning.
     *
     * @throws MalformedStreamException when an event grows beyond the size limit
     */
    public void feed(ByteBuffer bytes, Listener listener) {
        while (bytes.hasRemaining()) {
            byte b = bytes.get();
            if (previousWasCr) {
                previousWasCr = false;
                if (b == '\n') {
                    // second half of a \r\n whose \r already ended the line
                    continue;
                }
            }
            if (b == '\n' || b == '\r') {
                previousWasCr = b == '\r';
                endLine(listener);
            } else {
                appendToLine(b);
            }
        }
    }

    /** Whether bytes of an event that has not ended yet are buffered (a stream cut off mid-event leaves some). */
    public boolean hasPartialEvent() {
        return lineLength > 0 || eventHasData;
    }

    private void appendToLine(byte b) {
        if (++eventBytes > maxEventBytes) {
            throw new MalformedStreamException("an SSE event exceeds " + maxEventBytes + " bytes without ending");
        }
        if (lineLength == line.length) {
            line = Arrays.copyOf(line, line.length * 2);
        }
        line[lineLength++] = b;
    }

    private void endLine(Listener listener) {
        eventBytes++;
        if (lineLength == 0) {
            dispatch(listener);
            return;
        }
        if (line[0] != ':' && isDataField()) {
            int valueStart = lineLength > 4 ? 5 : 4;
            if (valueStart < lineLength && line[valueStart] == ' ') {
                valueStart++;
            }
            if (eventHasData) {
                data.append('\n');
            }
            data.append(new String(line, valueStart, lineLength - valueStart, StandardCharsets.UTF_8));
            eventHasData = true;
        }
        lineLength = 0;
    }

    /** The field name is {@code data}: the line is exactly {@code data} or starts with {@code data:}. */
    private boolean isDataField() {
        return lineLength >= 4 && line[0] == 'd' && line[1] == 'a' && line[2] == 't' && line[3] == 'a'
                && (lineLength == 4 || line[4] == ':');
    }

    private void dispatch(Listener listener) {
        eventBytes = 0;
        if (!eventHasData) {
            return;
        }
        String event = data.toString();
        data.setLength(0);
        eventHasData = false;
        listener.onEvent(event);
    }
}
