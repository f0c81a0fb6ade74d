package io.servebench.load;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class Utf8Test {

    /** Whether Java's decoder takes the bytes without replacing anything: the definition Utf8 must match. */
    private static boolean javaDecodesCleanly(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void boundaryCasesAgreeWithJavasDecoder() {
        int[][] cases = {
                {}, {0x41}, {0x00}, {0x7F}, {0x80}, {0xBF}, {0xC0, 0x80}, {0xC1, 0xBF}, {0xC2, 0x80}, {0xDF, 0xBF},
                {0xC2}, {0xE0, 0x9F, 0xBF}, {0xE0, 0xA0, 0x80}, {0xED, 0x9F, 0xBF}, {0xED, 0xA0, 0x80},
                {0xEF, 0xBF, 0xBF}, {0xE2, 0x82}, {0xF0, 0x8F, 0xBF, 0xBF}, {0xF0, 0x90, 0x80, 0x80},
                {0xF4, 0x8F, 0xBF, 0xBF}, {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xFF},
                {0xE2, 0x28, 0xA1}, {0xF0, 0x9F, 0x98}, {0xF0, 0x9F, 0x98, 0x80}};
        for (int[] c : cases) {
            byte[] bytes = new byte[c.length];
            for (int i = 0; i < c.length; i++) {
                bytes[i] = (byte) c[i];
            }
            assertThat(Utf8.isValid(bytes, 0, bytes.length)).as(Arrays.toString(c)).isEqualTo(javaDecodesCleanly(bytes));
        }
    }

    @Test
    void randomBytesAgreeWithJavasDecoder() {
        Random random = new Random(7);
        int valid = 0;
        for (int i = 0; i < 50_000; i++) {
            // short and mostly high bytes, so that both outcomes come up often
            byte[] bytes = new byte[1 + random.nextInt(6)];
            for (int k = 0; k < bytes.length; k++) {
                bytes[k] = (byte) (random.nextInt(4) == 0 ? random.nextInt(0x80) : 0x80 + random.nextInt(0x80));
            }
            boolean expected = javaDecodesCleanly(bytes);
            assertThat(Utf8.isValid(bytes, 0, bytes.length)).as(Arrays.toString(bytes)).isEqualTo(expected);
            if (expected) {
                valid++;
            }
        }
        assertThat(valid).isGreaterThan(1000);
    }

    @Test
    void onlyTheGivenRangeIsChecked() {
        byte[] bytes = {(byte) 0xFF, 'o', 'k', (byte) 0xE2};
        assertThat(Utf8.isValid(bytes, 1, 3)).isTrue();
        assertThat(Utf8.isValid(bytes, 1, 4)).isFalse();
    }
}
