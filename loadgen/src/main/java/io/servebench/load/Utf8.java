package io.servebench.load;

/** Strict UTF-8 validation, without decoding. */
final class Utf8 {

    private Utf8() {
    }

    /**
     * Whether {@code bytes[from, to)} is well-formed UTF-8 (RFC 3629): exactly the input that Java's UTF-8
     * decoder turns into a {@code String} without replacing anything. Overlong forms, UTF-16 surrogates
     * (U+D800..U+DFFF), code points above U+10FFFF, stray continuation bytes and truncated sequences are
     * not.
     */
    static boolean isValid(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to) {
            int b = bytes[i];
            if (b >= 0) {
                i++;
                continue;
            }
            b &= 0xFF;
            int length;
            int min2 = 0x80;
            int max2 = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                length = 2;
            } else if (b >= 0xE0 && b <= 0xEF) {
                length = 3;
                if (b == 0xE0) {
                    min2 = 0xA0; // below: overlong
                } else if (b == 0xED) {
                    max2 = 0x9F; // above: surrogates
                }
            } else if (b >= 0xF0 && b <= 0xF4) {
                length = 4;
                if (b == 0xF0) {
                    min2 = 0x90; // below: overlong
                } else if (b == 0xF4) {
                    max2 = 0x8F; // above: beyond U+10FFFF
                }
            } else {
                // a continuation byte, C0/C1 (always overlong) or F5..FF
                return false;
            }
            if (i + length > to) {
                return false;
            }
            int second = bytes[i + 1] & 0xFF;
            if (second < min2 || second > max2) {
                return false;
            }
            for (int k = 2; k < length; k++) {
                if ((bytes[i + k] & 0xC0) != 0x80) {
                    return false;
                }
            }
            i += length;
        }
        return true;
    }
}
