package io.servebench.truth;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A reusable, growable byte buffer that ASCII text and numbers are appended to without making
 * {@code String}s: the event loop lays out every write in one, so a token event costs no allocation.
 * Not thread-safe.
 */
final class AsciiBytes {

    private byte[] bytes = new byte[1024];
    private int length;
    private ByteBuffer view = ByteBuffer.wrap(bytes);

    AsciiBytes clear() {
        length = 0;
        return this;
    }

    int length() {
        return length;
    }

    /** Appends {@code s}, whose characters must all be ASCII. */
    AsciiBytes append(CharSequence s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            bytes[length++] = (byte) s.charAt(i);
        }
        return this;
    }

    AsciiBytes append(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, bytes, length, b.length);
        length += b.length;
        return this;
    }

    AsciiBytes append(AsciiBytes other) {
        ensure(other.length);
        System.arraycopy(other.bytes, 0, bytes, length, other.length);
        length += other.length;
        return this;
    }

    AsciiBytes append(char c) {
        ensure(1);
        bytes[length++] = (byte) c;
        return this;
    }

    /** Appends {@code n} in decimal. */
    AsciiBytes append(long n) {
        if (n < 0) {
            append('-');
            n = -n;
        }
        ensure(20);
        int start = length;
        do {
            bytes[length++] = (byte) ('0' + n % 10);
            n /= 10;
        } while (n > 0);
        reverse(start, length - 1);
        return this;
    }

    /** Appends {@code n >= 0} in lower-case hexadecimal, as HTTP chunk sizes are written. */
    AsciiBytes appendHex(int n) {
        ensure(8);
        int start = length;
        do {
            bytes[length++] = (byte) Character.forDigit(n & 0xf, 16);
            n >>>= 4;
        } while (n > 0);
        reverse(start, length - 1);
        return this;
    }

    /** A view of the bytes, valid until the next change (the same object each time: it is reused). */
    ByteBuffer view() {
        if (view.array() != bytes) {
            view = ByteBuffer.wrap(bytes);
        }
        return view.limit(length).position(0);
    }

    private void reverse(int i, int j) {
        for (; i < j; i++, j--) {
            byte t = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = t;
        }
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
