package io.servebench.load;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SseParserTest {

    private final SseParser parser = new SseParser();
    private final List<String> events = new ArrayList<>();

    private void feed(String s) {
        feed(s.getBytes(StandardCharsets.UTF_8));
    }

    private void feed(byte[] bytes) {
        parser.feed(ByteBuffer.wrap(bytes), events::add);
    }

    @Test
    void dataWithAndWithoutTheSpace() {
        feed("data: {\"a\":1}\n\ndata:{\"b\":2}\n\n");
        assertThat(events).containsExactly("{\"a\":1}", "{\"b\":2}");
    }

    @Test
    void onlyOneLeadingSpaceIsStripped() {
        feed("data:  two spaces\n\n");
        assertThat(events).containsExactly(" two spaces");
    }

    @Test
    void multiLineDataIsJoinedWithNewlines() {
        feed("data: first\ndata: second\ndata:\ndata: fourth\n\n");
        assertThat(events).containsExactly("first\nsecond\n\nfourth");
    }

    @Test
    void commentsAndOtherFieldsAreIgnoredAndEventsWithoutDataAreNotDispatched() {
        feed(": keep-alive\n\nevent: message\nid: 7\nretry: 100\n\nevent: message\n: note\ndata: x\n\n");
        assertThat(events).containsExactly("x");
    }

    @Test
    void fieldsMerelyStartingWithDataAreNotData() {
        feed("database: no\ndata\n\n");
        // "data" alone is a data field with an empty value
        assertThat(events).containsExactly("");
    }

    @Test
    void crLfAndLoneCrEndLinesAlsoWhenSplitAcrossReads() {
        feed("data: a\r\n\r\n");
        feed("data: b\r");
        feed("\n\r");
        feed("\n");
        feed("data: c\r\r");
        assertThat(events).containsExactly("a", "b", "c");
    }

    @Test
    void aDataLinePendingAtTheEndOfAReadSurvivesTheReadBufferBeingReused() {
        byte[] buffer = "data: {\"a\":1}\n".getBytes(StandardCharsets.UTF_8);
        parser.feed(buffer, 0, buffer.length, events::add);
        java.util.Arrays.fill(buffer, (byte) 'x');
        byte[] rest = "\ndata: b\n\n".getBytes(StandardCharsets.UTF_8);
        parser.feed(rest, 0, rest.length, events::add);
        assertThat(events).containsExactly("{\"a\":1}", "b");
    }

    @Test
    void anEventSplitAcrossReadsIsDispatchedOnlyWhenComplete() {
        feed("data: {\"choices\":");
        assertThat(events).isEmpty();
        assertThat(parser.hasPartialEvent()).isTrue();
        feed("[]}\n");
        assertThat(events).isEmpty();
        feed("\n");
        assertThat(events).containsExactly("{\"choices\":[]}");
        assertThat(parser.hasPartialEvent()).isFalse();
    }

    @Test
    void multiByteCharactersSplitAtEveryByteBoundaryAreDecodedIntact() {
        String text = "héllo 漢字 😀 ok";
        byte[] bytes = ("data: " + text + "\n\n").getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            feed(new byte[] {b});
        }
        assertThat(events).containsExactly(text);
    }

    @Test
    void doneIsPassedOnAsData() {
        feed("data: [DONE]\n\n");
        assertThat(events).containsExactly("[DONE]");
    }

    @Test
    void anIncompleteEventAtTheEndIsNotDispatched() {
        feed("data: a\n\ndata: b\n");
        assertThat(events).containsExactly("a");
        assertThat(parser.hasPartialEvent()).isTrue();
    }

    @Test
    void anOversizedEventIsRejected() {
        SseParser small = new SseParser(32);
        small.feed(ByteBuffer.wrap("data: short\n\n".getBytes(StandardCharsets.UTF_8)), events::add);
        assertThatThrownBy(() -> small.feed(ByteBuffer.wrap(("data: " + "x".repeat(40)).getBytes(StandardCharsets.UTF_8)),
                events::add))
                .isInstanceOf(MalformedStreamException.class)
                .hasMessageContaining("32 bytes");
        assertThat(events).containsExactly("short");
    }

    @Test
    void consumesTheWholeBuffer() {
        ByteBuffer buffer = ByteBuffer.wrap("data: a\n\n".getBytes(StandardCharsets.UTF_8));
        parser.feed(buffer, events::add);
        assertThat(buffer.hasRemaining()).isFalse();
    }

    @Test
    void byteListenersGetTheJoinedDataBytesUndecoded() {
        List<String> raw = new ArrayList<>();
        SseParser.Listener bytesOnly = new SseParser.Listener() {
            @Override
            public void onEvent(String data) {
                throw new AssertionError("decoded although the listener takes bytes: " + data);
            }

            @Override
            public void onEvent(byte[] data, int offset, int length) {
                raw.add(java.util.HexFormat.of().formatHex(data, offset, offset + length));
            }
        };
        parser.feed(ByteBuffer.wrap(new byte[] {'d', 'a', 't', 'a', ':', ' ', (byte) 0xC3, '\n', 'd', 'a', 't', 'a', ':',
                (byte) 0xA9, '\n', '\n'}), bytesOnly);
        // one half of a two-byte character on each line: joined, not replaced
        assertThat(raw).containsExactly("c30aa9");
    }

    @Test
    void eventsLongerThanTheBuffersArriveIntactFromReadsOfAnySize() {
        String big = "x".repeat(3000) + "é" + "y".repeat(2000);
        byte[] stream = ("data: " + big + "\ndata: " + big + "\n\n").getBytes(StandardCharsets.UTF_8);
        java.util.Random random = new java.util.Random(3);
        for (int at = 0; at < stream.length; ) {
            int n = Math.min(stream.length - at, 1 + random.nextInt(700));
            feed(java.util.Arrays.copyOfRange(stream, at, at + n));
            at += n;
        }
        assertThat(events).containsExactly(big + "\n" + big);
    }
}
