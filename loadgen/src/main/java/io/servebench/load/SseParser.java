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
         * bytes overrides this to skip decoding. The array (the parser's buffer or the caller's input) is valid
         * only during the call. By default the bytes are decoded (malformed sequences replaced) and passed on.
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
    /** The input of the {@link #feed} in progress. */
    private byte[] input;
    /** A pending event's single data line, still where it lies in {@link #input}. */
    private boolean sliced;
    private int sliceOffset;
    private int sliceLength;

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
        if (bytes.hasArray()) {
            feed(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining(), listener);
        } else {
            byte[] copy = new byte[bytes.remaining()];
            bytes.duplicate().get(copy);
            feed(copy, 0, copy.length, listener);
        }
        bytes.position(bytes.limit());
    }

    /**
     * Parses {@code length} bytes of {@code bytes} from {@code offset} and hands each event they complete
     * to {@code listener} before returning.
     *
     * @throws MalformedStreamException when an event grows beyond the size limit
     */
    public void feed(byte[] bytes, int offset, int length, Listener listener) {
        int position = offset;
        int limit = offset + length;
        input = bytes;
        try {
            while (position < limit) {
                if (previousWasCr) {
                    previousWasCr = false;
                    if (bytes[position] == '\n') {
                        // second half of a \r\n whose \r already ended the line
                        position++;
                        continue;
                    }
                }
                int end = position;
                byte b = 0;
                while (end < limit && (b = bytes[end]) != '\n' && b != '\r') {
                    end++;
                }
                if (end == limit) {
                    appendToLine(bytes, position, end - position);
                    break;
                }
                previousWasCr = b == '\r';
                if (lineLength == 0) {
                    // the whole line is in this input: read it where it lies
                    countEventBytes(end - position);
                    endLine(bytes, position, end - position, listener);
                } else {
                    appendToLine(bytes, position, end - position);
                    endLine(line, 0, lineLength, listener);
                }
                lineLength = 0;
                position = end + 1;
            }
        } finally {
            // the input is the caller's buffer, reused once this returns: a data line still pending moves here
            keepSlice();
            input = null;
        }
    }

    /** Whether bytes of an event that has not ended yet are buffered (a stream cut off mid-event leaves some). */
    public boolean hasPartialEvent() {
        return lineLength > 0 || eventHasData;
    }

    private void appendToLine(byte[] bytes, int offset, int length) {
        countEventBytes(length);
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
        }
        System.arraycopy(bytes, offset, line, lineLength, length);
        lineLength += length;
    }

    private void countEventBytes(int length) {
        eventBytes += length;
        if (eventBytes > maxEventBytes) {
            throw new MalformedStreamException("an SSE event exceeds " + maxEventBytes + " bytes without ending");
        }
    }

    private void endLine(byte[] l, int offset, int length, Listener listener) {
        eventBytes++;
        if (length == 0) {
            dispatch(listener);
            return;
        }
        if (l[offset] != ':' && isDataField(l, offset, length)) {
            int valueStart = length > 4 ? 5 : 4;
            if (valueStart < length && l[offset + valueStart] == ' ') {
                valueStart++;
            }
            int from = offset + valueStart;
            int valueLength = length - valueStart;
            if (!eventHasData && l == input) {
                // the usual event, one data line: handed over from the input itself if the event ends in it
                sliceOffset = from;
                sliceLength = valueLength;
                sliced = true;
            } else {
                keepSlice();
                if (eventHasData) {
                    appendToData(NEWLINE, 0, 1);
                }
                appendToData(l, from, valueLength);
            }
            eventHasData = true;
        }
    }

    private void appendToData(byte[] bytes, int offset, int length) {
        if (dataLength + length > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, dataLength + length));
        }
        System.arraycopy(bytes, offset, data, dataLength, length);
        dataLength += length;
    }

    /** Copies a data line still read from the input into the event's own buffer. */
    private void keepSlice() {
        if (sliced) {
            sliced = false;
            appendToData(input, sliceOffset, sliceLength);
        }
    }

    /** The field name is {@code data}: the line is exactly {@code data} or starts with {@code data:}. */
    private static boolean isDataField(byte[] l, int offset, int length) {
        return length >= 4 && l[offset] == 'd' && l[offset + 1] == 'a' && l[offset + 2] == 't' && l[offset + 3] == 'a'
                && (length == 4 || l[offset + 4] == ':');
    }

    private void dispatch(Listener listener) {
        eventBytes = 0;
        if (!eventHasData) {
            return;
        }
        eventHasData = false;
        if (sliced) {
            sliced = false;
            listener.onEvent(input, sliceOffset, sliceLength);
            return;
        }
        int length = dataLength;
        dataLength = 0;
        listener.onEvent(data, 0, length);
    }
}
