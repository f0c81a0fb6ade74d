package io.servebench.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The streaming scan of {@link StreamAccumulator} against the JSON-tree interpretation it replaced
 * ({@link #treeOutcome}, kept here as the reference), on thousands of seeded random chunks: fields in any
 * order, repeated, of the wrong type or null, nested values to skip, escapes and non-ASCII text, and the
 * same chunks with random bytes inserted, deleted or cut off (invalid JSON, invalid UTF-8, odd
 * whitespace). Each is fed as a {@code String} and as bytes, once with a counter that reads the text and
 * once with {@link DeltaTokenCounter#ONE_PER_EVENT}.
 */
class StreamAccumulatorEquivalenceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one event does to a fresh accumulator; -1 for a count that was not sent. */
    record Outcome(String error, boolean done, boolean tokenEvent, boolean content, String text,
                   int completionTokens, int promptTokens, String finishReason) {
        Outcome withoutText() {
            return new Outcome(error, done, tokenEvent, content, null, completionTokens, promptTokens, finishReason);
        }
    }

    @Test
    void randomChunksAndTheirCorruptionsAreInterpretedAsTheTreeDid() {
        Random random = new Random(20240611L);
        int corrupted = 0;
        int byteScanned = 0;
        for (int i = 0; i < 6000; i++) {
            byte[] chunk = randomChunk(random).getBytes(StandardCharsets.UTF_8);
            assertEquivalent(chunk);
            if (new ChunkScan(true).scan(chunk, 0, chunk.length)) {
                byteScanned++;
            }
            byte[] mutated = mutate(random, chunk);
            assertEquivalent(mutated);
            if (!treeOutcome(decode(mutated)).equals(treeOutcome(decode(chunk)))) {
                corrupted++;
            }
        }
        // the mutations must reach the failure paths often, or the comparison proves little about them
        assertThat(corrupted).isGreaterThan(1500);
        // and the byte scan must take most intact chunks itself, or the comparison proves little about it
        assertThat(byteScanned).isGreaterThan(4000);
    }

    @Test
    void edgeCasesAreInterpretedAsTheTreeDid() {
        List<String> cases = List.of(
                "", "  \t", "[DONE]", " [DONE]\r\n", "\u2003[DONE]\u2003", "\u000b{\"choices\":[{\"text\":\"a\"}]}",
                "\u2003{\"choices\":[{\"text\":\"a\"}]}", "{\"choices\":[{\"text\":\"a\"}]}\u2003",
                "\ufeff{\"choices\":[{\"text\":\"a\"}]}", "{\"choices\":[{\"text\":\"a\"}]} trailing junk",
                "{\"choices\":[{\"text\":\"a\"}]}}", "{}", "{", "null", "\"text\"", "\"bad \\q escape\"", "[1,",
                "[1,2]", "123abc", "1", "{\"a\":1,}", "{\"choices\":[{\"delta\":{\"content\":\"\\u0000\"}}]}",
                "{\u0000\"choices\":[]}", "{\"choices\":[{\"delta\":{\"content\":\"a\u0001b\"}}]}",
                "{\"usage\":{\"completion_tokens\":4294967297,\"prompt_tokens\":99999999999999999999999}}",
                "{\"usage\":{\"completion_tokens\":-3,\"prompt_tokens\":5.0}}",
                "{\"usage\":{\"completion_tokens\":1e2,\"prompt_tokens\":\"5\"}}",
                "{\"error\":null,\"choices\":[{\"text\":\"a\"}]}", "{\"error\":\"boom\"}", "{\"error\":5}",
                "{\"error\":{\"message\":\"m\"}}", "{\"error\":{\"code\":500,\"detail\":[1,{\"x\":null}]}}",
                "{\"error\":{\"message\":null}}", "{\"object\":\"error\",\"message\":\"m\"}",
                "{\"object\":\"error\"}", "{\"object\":\"errors\",\"choices\":[{\"text\":\"a\"}]}",
                "{\"object\":\"\\u0065rror\",\"message\":\"escaped\"}",
                "{\"error\":\"x\",\"error\":null,\"choices\":[{\"text\":\"a\"}]}",
                "{\"choices\":[{\"text\":\"a\"}],\"choices\":[]}", "{\"choices\":[],\"choices\":[{\"text\":\"a\"}]}",
                "{\"choices\":[{\"delta\":{\"content\":\"a\"},\"delta\":null}]}",
                "{\"choices\":[{\"delta\":{\"content\":\"a\",\"content\":\"\"}}]}",
                "{\"usage\":{\"completion_tokens\":3},\"usage\":{}}",
                "{\"usage\":{\"completion_tokens\":3,\"completion_tokens\":null}}",
                "{\"choices\":{\"0\":{\"text\":\"a\"}}}", "{\"choices\":[null,{\"text\":\"a\"}]}",
                "{\"choices\":[[{\"text\":\"a\"}]]}", "{\"choices\":[{\"delta\":\"content\"}]}");
        for (String c : cases) {
            assertEquivalent(c.getBytes(StandardCharsets.UTF_8));
        }
        byte[][] rawCases = {
                {'{', 0, '"', 'a', '"', ':', '1', '}'},
                {0, '{', 0, '}'},
                {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}'},
                {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'},
                {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'},
                {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'},
        };
        for (byte[] raw : rawCases) {
            assertEquivalent(raw);
        }
    }

    private static void assertEquivalent(byte[] event) {
        String decoded = decode(event);
        Outcome expected = treeOutcome(decoded);
        String shown = decoded.replace("\u0000", "\\0");
        assertThat(scanOutcome(event, true, false)).as("bytes, text kept: %s", shown).isEqualTo(expected);
        assertThat(scanOutcome(event, true, true)).as("String, text kept: %s", shown).isEqualTo(expected);
        assertThat(scanOutcome(event, false, false)).as("bytes: %s", shown).isEqualTo(expected.withoutText());
        assertThat(scanOutcome(event, false, true)).as("String: %s", shown).isEqualTo(expected.withoutText());
    }

    private static String decode(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static Outcome scanOutcome(byte[] event, boolean keepText, boolean asString) {
        List<String> texts = new ArrayList<>();
        DeltaTokenCounter recording = new DeltaTokenCounter() {
            @Override
            public int count(String deltaText) {
                texts.add(deltaText);
                return 1;
            }

            @Override
            public TokenSource source() {
                return TokenSource.TOKENIZER;
            }
        };
        StreamAccumulator acc = new StreamAccumulator(keepText ? recording : DeltaTokenCounter.ONE_PER_EVENT);
        acc.beginRead(10);
        if (asString) {
            acc.onEvent(decode(event));
        } else {
            // at an offset inside a larger array, as the SSE parser's buffer hands it over
            byte[] padded = new byte[event.length + 6];
            padded[0] = 'x';
            System.arraycopy(event, 0, padded, 3, event.length);
            padded[padded.length - 1] = '}';
            acc.onEvent(padded, 3, event.length);
        }
        RequestRecord r = acc.toRecord(0, false, 0, 0, 20, -1, 200, null);
        assertThat(texts).hasSizeLessThanOrEqualTo(1);
        return new Outcome(r.error(), acc.sawDone(), r.eventTimesNs().length == 1,
                r.firstContentNs() != RequestRecord.NONE, texts.isEmpty() ? null : texts.get(0),
                r.outputTokensSource() == TokenSource.USAGE ? r.outputTokens() : -1, r.promptTokens(),
                acc.finishReason().name());
    }

    /** The interpretation of one event by the JSON tree, as {@code StreamAccumulator} did it before the scan. */
    private static Outcome treeOutcome(String data) {
        String trimmed = data.strip();
        if (trimmed.isEmpty()) {
            return new Outcome(null, false, false, false, null, -1, -1, "NONE");
        }
        if (trimmed.equals("[DONE]")) {
            return new Outcome(null, true, false, false, null, -1, -1, "NONE");
        }
        String quoted = trimmed.length() <= 120 ? trimmed : trimmed.substring(0, 120) + "...";
        JsonNode chunk;
        try {
            chunk = JSON.readTree(trimmed);
        } catch (JsonProcessingException e) {
            return failed("malformed: invalid JSON in SSE event: " + quoted);
        }
        if (chunk == null || !chunk.isObject()) {
            return failed("malformed: SSE event is not a JSON object: " + quoted);
        }
        String serverError = treeServerError(chunk);
        if (serverError != null) {
            return failed("stream_error: " + serverError);
        }
        JsonNode usage = chunk.path("usage");
        int completion = usage.path("completion_tokens").isIntegralNumber() ? usage.get("completion_tokens").intValue() : -1;
        int prompt = usage.path("prompt_tokens").isIntegralNumber() ? usage.get("prompt_tokens").intValue() : -1;
        JsonNode choice = chunk.path("choices").path(0);
        JsonNode delta = choice.path("delta");
        String content = nonEmptyText(delta.path("content"));
        if (content == null) {
            content = nonEmptyText(choice.path("text"));
        }
        String reasoning = nonEmptyText(delta.path("reasoning_content"));
        if (reasoning == null) {
            reasoning = nonEmptyText(delta.path("reasoning"));
        }
        boolean tokenEvent = content != null || reasoning != null;
        String text = !tokenEvent ? null : reasoning == null ? content : content == null ? reasoning : reasoning + content;
        JsonNode finish = choice.path("finish_reason");
        String finishReason = !finish.isTextual() ? "NONE" : switch (finish.textValue()) {
            case "stop" -> "STOP";
            case "length" -> "LENGTH";
            case "abort" -> "ABORT";
            default -> "OTHER";
        };
        // SGLang's abort ends the request as a failure, the chunk's own token event counted first
        String error = !finishReason.equals("ABORT") ? null : "aborted: the engine aborted the request"
                + " (finish_reason \"abort\") after " + (tokenEvent ? 1 : 0) + " token events";
        // a negative count is kept but not used, as if never sent
        return new Outcome(error, false, tokenEvent, content != null, text, Math.max(-1, completion), Math.max(-1, prompt),
                finishReason);
    }

    private static Outcome failed(String error) {
        return new Outcome(error, false, false, false, null, -1, -1, "NONE");
    }

    private static String treeServerError(JsonNode chunk) {
        JsonNode err = chunk.get("error");
        if (err != null && !err.isNull()) {
            if (err.isTextual()) {
                return err.textValue();
            }
            JsonNode message = err.get("message");
            return message != null && message.isTextual() ? message.textValue() : err.toString();
        }
        if ("error".equals(chunk.path("object").asText(null))) {
            JsonNode message = chunk.get("message");
            return message != null && message.isTextual() ? message.textValue() : chunk.toString();
        }
        return null;
    }

    private static String nonEmptyText(JsonNode node) {
        return node.isTextual() && !node.textValue().isEmpty() ? node.textValue() : null;
    }

    // ---- random chunks ----

    private static final String[] WORDS = {"", "", "a", " the", "é", "漢字", "😀", "line\\nbreak", "quote\\\"d",
            "back\\\\slash", "\\u00e9\\u6f22", "\\ud83d\\ude00", "tab\\t", "\\/", "x".repeat(200)};

    private static String randomChunk(Random r) {
        List<String> fields = new ArrayList<>();
        fields.add(field(r, "id", "\"chatcmpl-" + r.nextInt(1000) + "\""));
        fields.add(field(r, "object", r.nextInt(30) == 0 ? "\"error\"" : "\"chat.completion.chunk\""));
        fields.add(field(r, "model", "\"m\""));
        fields.add(field(r, "choices", r.nextInt(10) == 0 ? anyValue(r, 2) : choices(r)));
        if (r.nextBoolean()) {
            fields.add(field(r, "usage", r.nextInt(10) == 0 ? anyValue(r, 2) : usage(r)));
        }
        if (r.nextInt(20) == 0) {
            fields.add(field(r, "error", r.nextBoolean() ? "null" : anyValue(r, 2)));
        }
        if (r.nextInt(20) == 0) {
            fields.add(field(r, "message", anyValue(r, 1)));
        }
        addDuplicateAndJunk(r, fields);
        return object(r, fields);
    }

    private static String choices(Random r) {
        int n = r.nextInt(4);
        List<String> elements = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            elements.add(r.nextInt(8) == 0 ? anyValue(r, 2) : choice(r));
        }
        return ws(r) + "[" + String.join(ws(r) + "," + ws(r), elements) + "]";
    }

    private static String choice(Random r) {
        List<String> fields = new ArrayList<>();
        fields.add(field(r, "index", "0"));
        if (r.nextInt(4) != 0) {
            fields.add(field(r, "delta", r.nextInt(10) == 0 ? anyValue(r, 2) : delta(r)));
        }
        if (r.nextInt(4) == 0) {
            fields.add(field(r, "text", stringish(r)));
        }
        fields.add(field(r, "logprobs", r.nextBoolean() ? "null" : anyValue(r, 3)));
        String[] finishes = {"null", "\"length\"", "\"stop\"", "\"abort\"", "\"\\u0061bort\"", "\"tool_calls\"", "7"};
        fields.add(field(r, "finish_reason", finishes[r.nextInt(finishes.length)]));
        addDuplicateAndJunk(r, fields);
        return object(r, fields);
    }

    private static String delta(Random r) {
        List<String> fields = new ArrayList<>();
        if (r.nextInt(5) == 0) {
            fields.add(field(r, "role", "\"assistant\""));
        }
        for (String name : new String[] {"content", "reasoning_content", "reasoning"}) {
            if (r.nextInt(3) == 0) {
                fields.add(field(r, name, stringish(r)));
            }
        }
        if (r.nextInt(6) == 0) {
            fields.add(field(r, "tool_calls", anyValue(r, 3)));
        }
        addDuplicateAndJunk(r, fields);
        return object(r, fields);
    }

    private static String usage(Random r) {
        List<String> fields = new ArrayList<>();
        for (String name : new String[] {"prompt_tokens", "completion_tokens", "total_tokens"}) {
            if (r.nextInt(4) != 0) {
                fields.add(field(r, name, number(r)));
            }
        }
        addDuplicateAndJunk(r, fields);
        return object(r, fields);
    }

    private static String number(Random r) {
        return switch (r.nextInt(10)) {
            case 0 -> "null";
            case 1 -> Long.toString(r.nextLong());
            case 2 -> "123456789012345678901234567890";
            case 3 -> r.nextInt(100) + ".5";
            case 4 -> "\"" + r.nextInt(100) + "\"";
            case 5 -> r.nextInt(9) + "e1";
            default -> Integer.toString(r.nextInt(5000));
        };
    }

    /** Mostly strings (often empty), sometimes null or another type. */
    private static String stringish(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> "null";
            case 1 -> anyValue(r, 1);
            default -> "\"" + WORDS[r.nextInt(WORDS.length)] + "\"";
        };
    }

    private static String anyValue(Random r, int depth) {
        int kind = depth <= 0 ? r.nextInt(5) : r.nextInt(7);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> r.nextBoolean() ? "true" : "false";
            case 2 -> number(r);
            case 3, 4 -> "\"" + WORDS[r.nextInt(WORDS.length)] + "\"";
            case 5 -> {
                List<String> fields = new ArrayList<>();
                String[] names = {"message", "content", "text", "usage", "choices", "delta", "error", "x"};
                for (int i = r.nextInt(4); i > 0; i--) {
                    fields.add(field(r, names[r.nextInt(names.length)], anyValue(r, depth - 1)));
                }
                yield object(r, fields);
            }
            default -> {
                List<String> elements = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    elements.add(anyValue(r, depth - 1));
                }
                yield "[" + String.join(",", elements) + "]";
            }
        };
    }

    private static void addDuplicateAndJunk(Random r, List<String> fields) {
        if (!fields.isEmpty() && r.nextInt(8) == 0) {
            String copy = fields.get(r.nextInt(fields.size()));
            String name = copy.substring(0, copy.indexOf(':'));
            fields.add(name + ":" + anyValue(r, 2));
        }
        if (r.nextInt(4) == 0) {
            fields.add(field(r, "junk_" + r.nextInt(3), anyValue(r, 3)));
        }
        java.util.Collections.shuffle(fields, r);
    }

    private static String field(Random r, String name, String value) {
        return ws(r) + "\"" + name + "\"" + ws(r) + ":" + ws(r) + value + ws(r);
    }

    private static String object(Random r, List<String> fields) {
        return "{" + String.join(",", fields) + ws(r) + "}";
    }

    private static String ws(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> " ";
            case 1 -> "\n\t ";
            case 2 -> "\r\n";
            default -> "";
        };
    }

    private static final byte[] MUTATION_BYTES = {'{', '}', '[', ']', '"', '\\', ',', ':', 0, 0x0B, ' ', 'x', '0',
            (byte) 0xFF, (byte) 0xC0, (byte) 0xC3, (byte) 0xE2, (byte) 0x80, (byte) 0xED, (byte) 0xF4};

    private static byte[] mutate(Random r, byte[] chunk) {
        byte[] bytes = chunk;
        for (int m = 1 + r.nextInt(2); m > 0 && bytes.length > 0; m--) {
            int at = r.nextInt(bytes.length);
            bytes = switch (r.nextInt(4)) {
                case 0 -> splice(bytes, at, 1, new byte[0]);
                case 1 -> splice(bytes, at, 0, new byte[] {MUTATION_BYTES[r.nextInt(MUTATION_BYTES.length)]});
                case 2 -> splice(bytes, at, 1, new byte[] {MUTATION_BYTES[r.nextInt(MUTATION_BYTES.length)]});
                default -> java.util.Arrays.copyOf(bytes, at);
            };
        }
        return bytes;
    }

    private static byte[] splice(byte[] bytes, int at, int remove, byte[] insert) {
        byte[] result = new byte[bytes.length - remove + insert.length];
        System.arraycopy(bytes, 0, result, 0, at);
        System.arraycopy(insert, 0, result, at, insert.length);
        System.arraycopy(bytes, at + remove, result, at + insert.length, bytes.length - at - remove);
        return result;
    }
}
