package io.servebench.load;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StreamAccumulatorTest {

    private final StreamAccumulator acc = new StreamAccumulator(DeltaTokenCounter.ONE_PER_EVENT);

    private void read(long ns, String... events) {
        acc.beginRead(ns);
        for (String e : events) {
            acc.onEvent(e);
        }
    }

    private RequestRecord record() {
        return acc.toRecord(3, false, 1, 2, 999, 11, 200, null);
    }

    @Test
    void roleOnlyAndEmptyChunksAreNotTokenEvents() {
        read(100, role());
        read(150, content(""));
        read(200, content("Hi"));
        read(300, content(" there"));
        read(400, usage(5, 2), "[DONE]");
        RequestRecord r = record();
        assertThat(r.firstTokenNs()).isEqualTo(200);
        assertThat(r.firstContentNs()).isEqualTo(200);
        assertThat(r.endNs()).isEqualTo(300);
        assertThat(r.eventTimesNs()).containsExactly(200, 300);
        assertThat(r.eventTokens()).containsExactly(1, 1);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.EVENTS);
        assertThat(r.outputTokens()).isEqualTo(2);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.USAGE);
        assertThat(r.promptTokens()).isEqualTo(5);
        assertThat(acc.sawDone()).isTrue();
        assertThat(r.succeeded()).isTrue();
    }

    @Test
    void reasoningCountsForTheFirstTokenButNotForTheFirstContent() {
        read(100, reasoning("hmm"));
        read(200, "{\"choices\":[{\"delta\":{\"reasoning\":\"more\"}}]}");
        read(300, content("Answer"));
        RequestRecord r = record();
        assertThat(r.firstTokenNs()).isEqualTo(100);
        assertThat(r.firstContentNs()).isEqualTo(300);
        assertThat(r.eventTimesNs()).containsExactly(100, 200, 300);
    }

    @Test
    void continuousUsageGivesMultiTokenEventsAndAttributesTokensOfTextlessChunksToTheNextEvent() {
        read(100, "{\"choices\":[{\"delta\":{\"role\":\"assistant\"}}],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":0}}");
        read(200, content("a", 3));
        read(300, content("", 4)); // e.g. a token the detokenizer held back
        read(400, content("b", 6));
        read(500, content("c", 6)); // a count that did not grow still means at least one token
        read(600, usage(7, 7), "[DONE]");
        RequestRecord r = record();
        assertThat(r.eventTokens()).containsExactly(3, 3, 1);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.CONTINUOUS_USAGE);
        assertThat(r.outputTokens()).isEqualTo(7);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.USAGE);
    }

    @Test
    void withoutAnyUsageEveryEventIsOneTokenAndTheOutputIsTheirSum() {
        read(100, content("a"));
        read(200, content("b"));
        read(300, content("c"), "[DONE]");
        RequestRecord r = record();
        assertThat(r.eventTokens()).containsExactly(1, 1, 1);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.EVENTS);
        assertThat(r.outputTokens()).isEqualTo(3);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.EVENTS);
        assertThat(r.promptTokens()).as("the client's count when the server sends none").isEqualTo(11);
    }

    @Test
    void usageOnOnlySomeEventsFallsBackToTheCounterForAll() {
        read(100, content("a", 2));
        read(200, content("b"));
        RequestRecord r = record();
        assertThat(r.eventTokens()).containsExactly(1, 1);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.EVENTS);
        assertThat(r.outputTokens()).isEqualTo(2);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.USAGE);
    }

    @Test
    void aTokenizerPlugsInThroughTheCounter() {
        DeltaTokenCounter byWords = new DeltaTokenCounter() {
            @Override
            public int count(String deltaText) {
                return deltaText.strip().split(" +").length;
            }

            @Override
            public TokenSource source() {
                return TokenSource.TOKENIZER;
            }
        };
        StreamAccumulator tokenized = new StreamAccumulator(byWords);
        tokenized.beginRead(100);
        tokenized.onEvent(content("one two three"));
        tokenized.onEvent(content("four"));
        RequestRecord r = tokenized.toRecord(0, false, 0, 0, 1, 0, 200, null);
        assertThat(r.eventTokens()).containsExactly(3, 1);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.TOKENIZER);
        assertThat(r.outputTokens()).isEqualTo(4);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.TOKENIZER);
    }

    @Test
    void eventsFromOneReadShareItsTimeAndAreCountedAsCoalesced() {
        read(100, role(), content("a"));
        read(200, content("b"), content("c"), content("d"));
        read(300, content("e"), usage(1, 5));
        RequestRecord r = record();
        assertThat(r.eventTimesNs()).containsExactly(100, 200, 200, 200, 300);
        assertThat(r.coalescedEvents()).isEqualTo(2);
        assertThat(r.eventsPerReadMax()).isEqualTo(3);
    }

    @Test
    void completionsTextDeltasAreContent() {
        read(100, text("Once"));
        read(200, text(""));
        read(300, text(" upon"));
        RequestRecord r = record();
        assertThat(r.eventTimesNs()).containsExactly(100, 300);
        assertThat(r.firstContentNs()).isEqualTo(100);
    }

    @Test
    void anErrorPayloadFailsTheRequestWithItsMessage() {
        read(100, content("a"));
        read(200, "{\"error\":{\"message\":\"out of KV cache\",\"code\":500}}");
        read(300, content("ignored"));
        assertThat(acc.error()).isEqualTo("stream_error: out of KV cache");
        assertThat(record().eventTimesNs()).containsExactly(100);

        StreamAccumulator vllmStyle = new StreamAccumulator(DeltaTokenCounter.ONE_PER_EVENT);
        vllmStyle.beginRead(1);
        vllmStyle.onEvent("{\"object\":\"error\",\"message\":\"bad\",\"type\":\"BadRequestError\"}");
        assertThat(vllmStyle.error()).isEqualTo("stream_error: bad");
    }

    @Test
    void malformedJsonFailsTheRequest() {
        read(100, "{\"choices\": [");
        assertThat(acc.error()).startsWith("malformed: invalid JSON").contains("{\"choices\": [");
        StreamAccumulator array = new StreamAccumulator(DeltaTokenCounter.ONE_PER_EVENT);
        array.beginRead(1);
        array.onEvent("[1,2]");
        assertThat(array.error()).startsWith("malformed: SSE event is not a JSON object");
    }

    @Test
    void eventsAfterDoneAreIgnored() {
        read(100, content("a"), "[DONE]");
        read(200, content("b"));
        assertThat(record().eventTimesNs()).containsExactly(100);
    }

    @Test
    void aFailureGivenToTheRecordOverridesAndNoEventsLeaveNoTimes() {
        RequestRecord r = acc.toRecord(1, true, 5, RequestRecord.NONE, 9, 4, 0, "connect: refused");
        assertThat(r.error()).isEqualTo("connect: refused");
        assertThat(r.warmup()).isTrue();
        assertThat(r.firstTokenNs()).isEqualTo(RequestRecord.NONE);
        assertThat(r.endNs()).isEqualTo(RequestRecord.NONE);
        assertThat(r.outputTokens()).isZero();
    }

    /** A counter that keeps the texts it is given, so tests can see what the scan decoded. */
    private static final class RecordingCounter implements DeltaTokenCounter {
        final List<String> texts = new ArrayList<>();

        @Override
        public int count(String deltaText) {
            texts.add(deltaText);
            return 1;
        }

        @Override
        public TokenSource source() {
            return TokenSource.TOKENIZER;
        }
    }

    private static void feedBytes(StreamAccumulator accumulator, String event) {
        byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
        accumulator.onEvent(bytes, 0, bytes.length);
    }

    private void feedBytesRead(long ns, String event) {
        acc.beginRead(ns);
        feedBytes(acc, event);
    }

    @Test
    void escapedAndNonAsciiTextReachesTheCounterDecodedFromStringsAndFromBytes() {
        String chunk = "{\"choices\":[{\"delta\":{\"content\":\"a\\\"b\\\\c\\nd\\u00e9\\ud83d\\ude00 é漢😀\"}}]}";
        RecordingCounter counter = new RecordingCounter();
        StreamAccumulator accumulator = new StreamAccumulator(counter);
        accumulator.beginRead(1);
        accumulator.onEvent(chunk);
        feedBytes(accumulator, chunk);
        assertThat(counter.texts).containsExactly("a\"b\\c\ndé😀 é漢😀", "a\"b\\c\ndé😀 é漢😀");
    }

    @Test
    void anEscapedEmptyLookingStringIsNotEmpty() {
        read(100, "{\"choices\":[{\"delta\":{\"content\":\"\\u0000\"}}]}");
        feedBytes(acc, "{\"choices\":[{\"delta\":{\"content\":\"\\n\"}}]}");
        assertThat(record().eventTimesNs()).containsExactly(100, 100);
    }

    @Test
    void fieldsCountInAnyOrderAndNestedLookalikesAreSkipped() {
        RecordingCounter counter = new RecordingCounter();
        StreamAccumulator accumulator = new StreamAccumulator(counter);
        accumulator.beginRead(100);
        feedBytes(accumulator, "{\"usage\":{\"completion_tokens\":3,\"prompt_tokens\":9},\"extra\":{\"choices\":[{\"text\":\"no\"}],"
                + "\"usage\":{\"completion_tokens\":99}},\"choices\":[{\"finish_reason\":null,\"logprobs\":{\"content\":"
                + "[{\"token\":\"no\",\"delta\":{\"content\":\"no\"}}]},\"delta\":{\"tool_calls\":[{\"function\":"
                + "{\"content\":\"no\"}}],\"content\":\"yes\"}},{\"delta\":{\"content\":\"second choice\"}}],\"id\":\"x\"}");
        RequestRecord r = accumulator.toRecord(0, false, 0, 0, 1, 0, 200, null);
        assertThat(counter.texts).containsExactly("yes");
        assertThat(r.outputTokens()).isEqualTo(3);
        assertThat(r.promptTokens()).isEqualTo(9);
        assertThat(r.eventTokensSource()).isEqualTo(TokenSource.CONTINUOUS_USAGE);
    }

    @Test
    void nullsAndWrongTypesCountAsAbsent() {
        feedBytesRead(100, "{\"choices\":[{\"delta\":{\"content\":null,\"reasoning_content\":7}}],"
                + "\"usage\":{\"completion_tokens\":null,\"prompt_tokens\":\"9\"}}");
        feedBytesRead(200, "{\"choices\":null,\"usage\":null,\"error\":null}");
        feedBytesRead(300, "{\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"usage\":{\"completion_tokens\":2.0}}");
        RequestRecord r = record();
        assertThat(acc.error()).isNull();
        assertThat(r.eventTimesNs()).containsExactly(300);
        assertThat(r.outputTokensSource()).isEqualTo(TokenSource.EVENTS);
        assertThat(r.promptTokens()).isEqualTo(11);
    }

    @Test
    void aRepeatedFieldCountsWithItsLastValue() {
        feedBytesRead(100, "{\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"choices\":[]}");
        feedBytesRead(200, "{\"usage\":{\"completion_tokens\":5},\"usage\":{\"prompt_tokens\":4},"
                + "\"choices\":[{\"delta\":{\"content\":\"\",\"content\":\"b\"}}]}");
        RequestRecord r = record();
        assertThat(r.eventTimesNs()).containsExactly(200);
        assertThat(r.outputTokensSource()).as("completion_tokens came with the replaced usage").isEqualTo(TokenSource.EVENTS);
        assertThat(r.promptTokens()).isEqualTo(4);
    }

    @Test
    void theBytePathWordsFailuresAsTheStringPath() {
        feedBytesRead(100, "{\"choices\": [");
        assertThat(acc.error()).isEqualTo("malformed: invalid JSON in SSE event: {\"choices\": [");

        StreamAccumulator error = new StreamAccumulator(DeltaTokenCounter.ONE_PER_EVENT);
        error.beginRead(1);
        feedBytes(error, "{\"error\":{\"code\":500,\"type\":\"x\"}}");
        assertThat(error.error()).isEqualTo("stream_error: {\"code\":500,\"type\":\"x\"}");

        StreamAccumulator array = new StreamAccumulator(DeltaTokenCounter.ONE_PER_EVENT);
        array.beginRead(1);
        feedBytes(array, " [1,2] ");
        assertThat(array.error()).isEqualTo("malformed: SSE event is not a JSON object: [1,2]");
    }

    @Test
    void bytesThatAreNotUtf8AreDecodedWithReplacementAsBefore() {
        RecordingCounter counter = new RecordingCounter();
        StreamAccumulator accumulator = new StreamAccumulator(counter);
        accumulator.beginRead(1);
        byte[] prefix = "{\"choices\":[{\"text\":\"a".getBytes(StandardCharsets.UTF_8);
        byte[] suffix = "\"}]}".getBytes(StandardCharsets.UTF_8);
        byte[] event = Arrays.copyOf(prefix, prefix.length + 1 + suffix.length);
        // a lone continuation byte inside the string
        event[prefix.length] = (byte) 0x80;
        System.arraycopy(suffix, 0, event, prefix.length + 1, suffix.length);
        accumulator.onEvent(event, 0, event.length);
        assertThat(accumulator.error()).isNull();
        assertThat(counter.texts).containsExactly("a\uFFFD");
    }

    @Test
    void doneAndBlankEventsAsBytes() {
        feedBytesRead(100, " \t\u000b ");
        assertThat(acc.isFinished()).isFalse();
        feedBytesRead(100, "\r\n[DONE] ");
        assertThat(acc.sawDone()).isTrue();
    }

    // ---- chunks as vLLM writes them, by hand (not by the servers' codec, which is not what is checked here) ----

    static String role() {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}";
    }

    static String content(String text) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}";
    }

    static String content(String text, int cumulativeCompletionTokens) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}],\"usage\":{\"prompt_tokens\":7,"
                + "\"completion_tokens\":" + cumulativeCompletionTokens + "}}";
    }

    static String reasoning(String text) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"" + text + "\"}}]}";
    }

    static String text(String text) {
        return "{\"choices\":[{\"index\":0,\"text\":\"" + text + "\"}]}";
    }

    static String usage(int promptTokens, int completionTokens) {
        return "{\"choices\":[],\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":"
                + completionTokens + "}}";
    }
}
