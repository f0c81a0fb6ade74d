package io.servebench.http;

import io.servebench.wire.http.Origin;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The bytes of one request, head and body, laid out before its send time so that sending is a single
 * socket write. Immutable; {@link #bytes()} gives a fresh view each time.
 */
public final class PreparedRequest {

    private final byte[] bytes;
    private final int headLength;

    private PreparedRequest(byte[] bytes, int headLength) {
        this.bytes = bytes;
        this.headLength = headLength;
    }

    /** Starts a {@code POST} of {@code path} (absolute, with any query) to {@code origin}. */
    public static Builder post(Origin origin, String path) {
        return new Builder(origin, path);
    }

    /** A read-only view of the whole request, positioned at its first byte. */
    ByteBuffer bytes() {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    /** Total size in bytes, head and body. */
    public int size() {
        return bytes.length;
    }

    /** The request head as text (request line and headers), for tests and diagnostics. */
    public String head() {
        return new String(bytes, 0, headLength, StandardCharsets.US_ASCII);
    }

    /** Adds headers, then {@link #body}. */
    public static final class Builder {
        private final StringBuilder head = new StringBuilder(256);

        private Builder(Origin origin, String path) {
            Objects.requireNonNull(origin, "origin");
            if (path == null || !path.startsWith("/")) {
                throw new IllegalArgumentException("the request path must start with '/', got " + path);
            }
            requireToken("path", path);
            head.append("POST ").append(path).append(" HTTP/1.1\r\nHost: ").append(origin.hostHeader()).append("\r\n");
        }

        /**
         * Adds a header.
         *
         * @throws IllegalArgumentException when the name is not an HTTP token or the value holds a line break or
         *                                  another control character (which would split the head)
         */
        public Builder header(String name, String value) {
            if (name == null || name.isEmpty() || !name.chars().allMatch(Builder::isTokenChar)) {
                throw new IllegalArgumentException("header name " + name + " is not an HTTP token");
            }
            Objects.requireNonNull(value, "value");
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
                    throw new IllegalArgumentException("the value of header " + name
                            + " holds a control or non-Latin-1 character at index " + i);
                }
            }
            head.append(name).append(": ").append(value).append("\r\n");
            return this;
        }

        /** Ends the request with {@code body} sent as {@code contentType}, with its {@code Content-Length}. */
        public PreparedRequest body(String contentType, byte[] body) {
            header("Content-Type", contentType);
            head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
            byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
            byte[] all = new byte[headBytes.length + body.length];
            System.arraycopy(headBytes, 0, all, 0, headBytes.length);
            System.arraycopy(body, 0, all, headBytes.length, body.length);
            return new PreparedRequest(all, headBytes.length);
        }

        private static void requireToken(String what, String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c <= 0x20 || c >= 0x7f) {
                    throw new IllegalArgumentException("the request " + what + " holds a space, control or non-ASCII"
                            + " character at index " + i + ": " + s);
                }
            }
        }

        private static boolean isTokenChar(int c) {
            return c > 0x20 && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
        }
    }
}
