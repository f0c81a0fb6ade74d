package io.servebench.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reads one HTTP/1.1 response from the bytes of successive socket reads: the status line and headers
 * (skipping 1xx responses), then the body as its framing says (chunked, {@code Content-Length}, or up
 * to the connection's close), handing the body's bytes to the {@link ResponseHandler} as slices of the
 * read buffer, without copying them. Line ends may be CRLF or a bare LF. Only the head and chunk-size
 * lines are buffered, and they are bounded.
 *
 * <p>Used by one I/O thread; {@link #reset} prepares it for the connection's next response.
 */
final class ResponseDecoder {

    /** What {@link #feed} found. */
    enum Outcome { MORE, COMPLETE, ABORTED }

    static final int MAX_HEAD_BYTES = 64 * 1024;
    private static final int MAX_LINE_BYTES = 8 * 1024;

    private enum State { STATUS_LINE, HEADER, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILER, LENGTH, UNTIL_CLOSE, DONE }

    private ResponseHandler handler;
    private State state;
    private byte[] line = new byte[256];
    private int lineLength;
    private int headBytes;
    private int status;
    private boolean http10;
    private String contentType;
    private long contentLength;
    private boolean chunked;
    private boolean otherCoding;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    private long remaining;
    private int leftover;

    /** Starts a new response for {@code h}. */
    void reset(ResponseHandler h) {
        handler = h;
        state = State.STATUS_LINE;
        lineLength = 0;
        headBytes = 0;
        resetHead();
        leftover = 0;
    }

    private void resetHead() {
        status = 0;
        http10 = false;
        contentType = null;
        contentLength = -1;
        chunked = false;
        otherCoding = false;
        connectionClose = false;
        connectionKeepAlive = false;
    }

    /** Whether the body is read up to the connection's close, so that the close ends it properly. */
    boolean endsAtClose() {
        return state == State.UNTIL_CLOSE;
    }

    /** After {@link Outcome#COMPLETE}: whether the connection may carry another request. */
    boolean keepAlive() {
        return leftover == 0 && !connectionClose && (!http10 || connectionKeepAlive) && !otherCoding
                && (chunked || contentLength >= 0 || status == 204 || status == 304);
    }

    /** Where the response stands, for a failure's message. */
    String position() {
        return switch (state) {
            case STATUS_LINE, HEADER -> "before the response head ended";
            case DONE -> "after the response ended";
            default -> "in the middle of the response body (status " + status + ")";
        };
    }

    /**
     * Consumes {@code length} bytes of one read that began at {@code readNs}.
     *
     * @throws HttpProtocolException when the bytes break HTTP/1.1 framing
     */
    Outcome feed(byte[] b, int offset, int length, long readNs) throws HttpProtocolException {
        int p = offset;
        int end = offset + length;
        while (p < end) {
            switch (state) {
                case STATUS_LINE, HEADER, CHUNK_SIZE, CHUNK_END, TRAILER -> {
                    int lf = indexOfLf(b, p, end);
                    int stop = lf < 0 ? end : lf;
                    appendLine(b, p, stop - p);
                    p = lf < 0 ? end : lf + 1;
                    if (lf >= 0) {
                        int len = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
                        lineLength = 0;
                        endLine(len);
                    }
                }
                case CHUNK_DATA, LENGTH -> {
                    int n = (int) Math.min(remaining, end - p);
                    if (n > 0 && !handler.body(b, p, n, readNs)) {
                        return Outcome.ABORTED;
                    }
                    p += n;
                    remaining -= n;
                    if (remaining == 0) {
                        state = state == State.LENGTH ? State.DONE : State.CHUNK_END;
                    }
                }
                case UNTIL_CLOSE -> {
                    if (!handler.body(b, p, end - p, readNs)) {
                        return Outcome.ABORTED;
                    }
                    p = end;
                }
                case DONE -> {
                    leftover = end - p;
                    return Outcome.COMPLETE;
                }
            }
        }
        return state == State.DONE ? Outcome.COMPLETE : Outcome.MORE;
    }

    private void endLine(int len) throws HttpProtocolException {
        switch (state) {
            case STATUS_LINE -> statusLine(len);
            case HEADER -> {
                if (len == 0) {
                    endHead();
                } else {
                    header(len);
                }
            }
            case CHUNK_SIZE -> chunkSize(len);
            case CHUNK_END -> {
                if (len != 0) {
                    throw new HttpProtocolException("a chunk's data is not followed by a line end (got \""
                            + text(0, Math.min(len, 40)) + "\")");
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILER -> {
                if (len == 0) {
                    state = State.DONE;
                }
            }
            default -> throw new IllegalStateException("no line in state " + state);
        }
    }

    private void statusLine(int len) throws HttpProtocolException {
        if (len == 0 && headBytes <= 2) {
            // a stray line end before the status line is tolerated (RFC 9112, 2.2)
            return;
        }
        // HTTP/1.x SSS[ reason]
        if (len < 12 || !startsWith("HTTP/1.") || (line[7] != '0' && line[7] != '1') || line[8] != ' '
                || !isDigit(line[9]) || !isDigit(line[10]) || !isDigit(line[11]) || (len > 12 && line[12] != ' ')) {
            throw new HttpProtocolException("not an HTTP/1.x status line: \"" + text(0, Math.min(len, 80)) + "\"");
        }
        http10 = line[7] == '0';
        status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        state = State.HEADER;
    }

    private void header(int len) throws HttpProtocolException {
        int colon = -1;
        for (int i = 0; i < len; i++) {
            if (line[i] == ':') {
                colon = i;
                break;
            }
        }
        if (colon <= 0) {
            throw new HttpProtocolException("a header line without a name and ':': \"" + text(0, Math.min(len, 80)) + "\"");
        }
        int vs = colon + 1;
        int ve = len;
        while (vs < ve && (line[vs] == ' ' || line[vs] == '\t')) {
            vs++;
        }
        while (ve > vs && (line[ve - 1] == ' ' || line[ve - 1] == '\t')) {
            ve--;
        }
        String name = text(0, colon).toLowerCase(Locale.ROOT);
        switch (name) {
            case "content-type" -> contentType = text(vs, ve - vs);
            case "content-length" -> {
                long n = parseLength(text(vs, ve - vs));
                if (contentLength >= 0 && contentLength != n) {
                    throw new HttpProtocolException("two different Content-Length headers: " + contentLength + " and " + n);
                }
                contentLength = n;
            }
            case "transfer-encoding" -> {
                String codings = text(vs, ve - vs).toLowerCase(Locale.ROOT);
                String[] parts = codings.split(",");
                String last = parts[parts.length - 1].strip();
                chunked = last.equals("chunked");
                otherCoding = !chunked;
            }
            case "connection" -> {
                for (String token : text(vs, ve - vs).toLowerCase(Locale.ROOT).split(",")) {
                    connectionClose |= token.strip().equals("close");
                    connectionKeepAlive |= token.strip().equals("keep-alive");
                }
            }
            default -> { }
        }
    }

    private void endHead() {
        if (status >= 100 && status < 200) {
            // an interim response (e.g. 103 Early Hints): the final one follows
            resetHead();
            state = State.STATUS_LINE;
            return;
        }
        handler.head(status, contentType);
        if (status == 204 || status == 304) {
            state = State.DONE;
        } else if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (otherCoding) {
            // a transfer coding other than chunked last: the body runs to the close (RFC 9112, 6.3)
            state = State.UNTIL_CLOSE;
        } else if (contentLength >= 0) {
            remaining = contentLength;
            state = contentLength == 0 ? State.DONE : State.LENGTH;
        } else {
            state = State.UNTIL_CLOSE;
        }
    }

    private void chunkSize(int len) throws HttpProtocolException {
        long size = 0;
        int i = 0;
        for (; i < len; i++) {
            int d = Character.digit(line[i], 16);
            if (d < 0) {
                break;
            }
            if (size > (Long.MAX_VALUE >> 4)) {
                throw new HttpProtocolException("a chunk size too large: \"" + text(0, Math.min(len, 40)) + "\"");
            }
            size = size * 16 + d;
        }
        // after the digits: nothing, whitespace, or chunk extensions
        if (i == 0 || (i < len && line[i] != ';' && line[i] != ' ' && line[i] != '\t')) {
            throw new HttpProtocolException("a chunk size line that is not hexadecimal: \"" + text(0, Math.min(len, 40)) + "\"");
        }
        if (size == 0) {
            state = State.TRAILER;
        } else {
            remaining = size;
            state = State.CHUNK_DATA;
        }
    }

    private void appendLine(byte[] b, int offset, int length) throws HttpProtocolException {
        boolean inHead = state == State.STATUS_LINE || state == State.HEADER || state == State.TRAILER;
        if (inHead) {
            headBytes += length + 1;
            if (headBytes > MAX_HEAD_BYTES) {
                throw new HttpProtocolException("the response head (or trailer) exceeds " + MAX_HEAD_BYTES + " bytes");
            }
        } else if (lineLength + length > MAX_LINE_BYTES) {
            throw new HttpProtocolException("a chunk size line exceeds " + MAX_LINE_BYTES + " bytes");
        }
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
        }
        System.arraycopy(b, offset, line, lineLength, length);
        lineLength += length;
    }

    private static int indexOfLf(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private boolean startsWith(String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (line[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private String text(int from, int length) {
        return new String(line, from, length, StandardCharsets.ISO_8859_1);
    }

    private static long parseLength(String s) throws HttpProtocolException {
        if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new HttpProtocolException("a Content-Length that is not a number: \"" + s + "\"");
        }
        return Long.parseLong(s);
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }
}
