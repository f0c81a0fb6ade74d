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
 * {@code id}, {@code retry}) are read and ignored. An event's data is handed over as bytes only once the event is
 * complete (and decoded as UTF-8 only for listeners that take a {@code String}), so a multi-byte character or
 * an event split across reads is reassembled intact. An event left incomplete
 * when the stream ends is never dispatched ({@link #hasPartialEvent()} says whether there was one).
 *
 * <p>Not thread-safe: one parser per response, fed by one thread at a time.
 */
public final class SseParser {

    /** Receives the joined {@code data} of each complete event, in order. */
    @FunctionalInterface
    public interface Listener {
        void onEvent(String data);

        /**
         * The same event as its UTF-8 bytes, which is what the parser calls: a listener that can work on
         * bytes overrides this to skip decoding. The array is the parser's own buffer, valid only during
         * the call. By default the bytes are decoded (malformed sequences replaced) and passed on.
         */
        default void onEvent(byte[] data, int offset, int length) {
            onEvent(new String(data, offset, length, StandardCharsets.UTF_8));
        }
    }

    /** Default bound on one event's size, so that a server that never sends a line end cannot exhaust memory. */
    public static final int DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024;

    private static final byte[] NEWLINE = {'\n'};

    private final int maxEventBytes;
    private byte[] line = new byte[512];
    private int lineLength;
    private byte[] data = new byte[512];
    private int dataLength;
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
        int position = bytes.position();
        int limit = bytes.limit();
        while (position < limit) {
            if (previousWasCr) {
                previousWasCr = false;
                if (bytes.get(position) == '\n') {
                    // second half of a \r\n whose \r already ended the line
                    position++;
                    continue;
                }
            }
            // absolute gets and one bulk copy per line: much cheaper than a relative get per byte
            int end = position;
            byte b = 0;
            while (end < limit && (b = bytes.get(end)) != '\n' && b != '\r') {
                end++;
            }
            appendToLine(bytes, position, end - position);
            if (end == limit) {
                position = limit;
                bytes.position(position);
                break;
            }
            position = end + 1;
            bytes.position(position);
            previousWasCr = b == '\r';
            endLine(listener);
        }
    }

    /** Whether bytes of an event that has not ended yet are buffered (a stream cut off mid-event leaves some). */
    public boolean hasPartialEvent() {
        return lineLength > 0 || eventHasData;
    }

    private void appendToLine(ByteBuffer bytes, int offset, int length) {
        eventBytes += length;
        if (eventBytes > maxEventBytes) {
            throw new MalformedStreamException("an SSE event exceeds " + maxEventBytes + " bytes without ending");
        }
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
        }
        bytes.get(offset, line, lineLength, length);
        lineLength += length;
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
                appendToData(NEWLINE, 0, 1);
            }
            appendToData(line, valueStart, lineLength - valueStart);
            eventHasData = true;
        }
        lineLength = 0;
    }

    private void appendToData(byte[] bytes, int offset, int length) {
        if (dataLength + length > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, dataLength + length));
        }
        System.arraycopy(bytes, offset, data, dataLength, length);
        dataLength += length;
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
        int length = dataLength;
        dataLength = 0;
        eventHasData = false;
        listener.onEvent(data, 0, length);
    }
}
