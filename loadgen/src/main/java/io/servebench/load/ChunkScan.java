package io.servebench.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the few fields of one streaming chunk that the metrics need, without building a JSON tree: {@code choices[0].delta.content}, {@code .reasoning_content}, {@code .reasoning},
 * {@code choices[0].text}, {@code choices[0].finish_reason}, {@code usage.completion_tokens}, {@code usage.prompt_tokens}, and whether the
 * chunk may be an error payload. Everything else is skipped (and so still checked to be valid JSON).
 *
 * <p>The results are those of the tree the chunk would parse to: a field that is repeated counts with
 * its last value, a field of the wrong type counts as absent, a string counts only when non-empty, and
 * an integer is narrowed to {@code int} as {@code JsonNode.intValue()} does.
 *
 * <p>Two readers fill the same fields. {@link #scan(byte[], int, int)} reads the bytes of an ordinary chunk
 * directly, in one pass and without allocating (the hot path: one call per token event); it accepts only
 * strict JSON and declines whatever it leaves to Jackson (escaped field names, integers of more than 18
 * digits in the counts, deep nesting, anything after the object, anything invalid). {@link #scan(JsonParser)}
 * reads any input through Jackson's streaming parser and is the reference for every case.
 *
 * <p>One instance serves every chunk of a response; each scan resets it. Not thread-safe.
 */
final class ChunkScan {

    /** Stands for a non-empty string whose text was not asked for. */
    private static final String NOT_DECODED = "(not decoded)";

    private final boolean keepText;

    private String content;
    private String text;
    private String reasoningContent;
    private String reasoning;
    private boolean hasCompletionTokens;
    private int completionTokens;
    private boolean hasPromptTokens;
    private int promptTokens;
    private boolean errorValue;
    private boolean objectIsError;
    private FinishReason finishReason = FinishReason.NONE;

    /**
     * @param keepText whether the generated text is needed ({@link #generatedText()}); without it,
     *                 strings are only checked for emptiness and never turned into {@code String}s
     */
    ChunkScan(boolean keepText) {
        this.keepText = keepText;
    }

    /**
     * Reads one JSON value from {@code p} (which must not have been advanced yet) up to its end; any
     * bytes after it are left unread, as a tree parse leaves them.
     *
     * @return false, with nothing more read, when the value does not start with <code>{</code>
     * @throws IOException when the JSON is invalid
     */
    boolean scan(JsonParser p) throws IOException {
        content = null;
        text = null;
        reasoningContent = null;
        reasoning = null;
        hasCompletionTokens = false;
        hasPromptTokens = false;
        errorValue = false;
        objectIsError = false;
        finishReason = FinishReason.NONE;
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return false;
        }
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken value = p.nextToken();
            switch (name) {
                case "choices" -> choices(p, value);
                case "usage" -> usage(p, value);
                case "error" -> {
                    errorValue = value != JsonToken.VALUE_NULL;
                    p.skipChildren();
                }
                case "object" -> {
                    objectIsError = value == JsonToken.VALUE_STRING && isError(p);
                    p.skipChildren();
                }
                default -> p.skipChildren();
            }
        }
        return true;
    }

    /**
     * Reads one JSON object from {@code bytes[from, to)}, which must be well-formed UTF-8 starting with
     * <code>{</code>, with the results {@link #scan(JsonParser)} would give.
     *
     * @return false, with the fields in no defined state, when the bytes are not an ordinary chunk this
     *         reader takes: invalid JSON, or a valid form it leaves to Jackson (see the class comment)
     */
    boolean scan(byte[] bytes, int from, int to) {
        content = null;
        text = null;
        reasoningContent = null;
        reasoning = null;
        hasCompletionTokens = false;
        hasPromptTokens = false;
        errorValue = false;
        objectIsError = false;
        finishReason = FinishReason.NONE;
        in = bytes;
        pos = from;
        end = to;
        try {
            if (peek() != '{') {
                throw DECLINED;
            }
            rootObject();
            whitespace();
            return pos == end;
        } catch (Declined declined) {
            return false;
        } finally {
            in = null;
        }
    }

    /**
     * Whether the chunk has a non-null {@code error} or {@code "object": "error"}: then it is an error
     * payload, whose message only a tree gives in every shape it comes in.
     */
    boolean mayBeError() {
        return errorValue || objectIsError;
    }

    /** What {@code choices[0].finish_reason} says. */
    FinishReason finishReason() {
        return finishReason;
    }

    /** Whether {@code delta.content} or {@code text} is a non-empty string. */
    boolean hasContent() {
        return content != null || text != null;
    }

    /** Whether {@code delta.reasoning_content} or {@code delta.reasoning} is a non-empty string. */
    boolean hasReasoning() {
        return reasoningContent != null || reasoning != null;
    }

    /**
     * The reasoning text followed by the content text, for a token counter; only when constructed to
     * keep text and {@link #hasContent()} or {@link #hasReasoning()}.
     */
    String generatedText() {
        if (!keepText) {
            throw new IllegalStateException("this scan was constructed not to keep text");
        }
        String c = content != null ? content : text;
        String r = reasoningContent != null ? reasoningContent : reasoning;
        return r == null ? c : c == null ? r : r + c;
    }

    boolean hasCompletionTokens() {
        return hasCompletionTokens;
    }

    /** {@code usage.completion_tokens}; meaningful only when {@link #hasCompletionTokens()}. */
    int completionTokens() {
        return completionTokens;
    }

    boolean hasPromptTokens() {
        return hasPromptTokens;
    }

    /** {@code usage.prompt_tokens}; meaningful only when {@link #hasPromptTokens()}. */
    int promptTokens() {
        return promptTokens;
    }

    private void choices(JsonParser p, JsonToken value) throws IOException {
        // a repeated "choices" replaces the earlier one, as in a tree
        content = null;
        text = null;
        reasoningContent = null;
        reasoning = null;
        finishReason = FinishReason.NONE;
        if (value != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        JsonToken first = p.nextToken();
        if (first == JsonToken.END_ARRAY) {
            return;
        }
        if (first == JsonToken.START_OBJECT) {
            choice(p);
        } else {
            p.skipChildren();
        }
        while (p.nextToken() != JsonToken.END_ARRAY) {
            p.skipChildren();
        }
    }

    private void choice(JsonParser p) throws IOException {
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken value = p.nextToken();
            switch (name) {
                case "delta" -> delta(p, value);
                case "text" -> text = nonEmptyString(p, value);
                case "finish_reason" -> {
                    finishReason = FinishReason.of(value == JsonToken.VALUE_STRING ? p.getText() : null);
                    p.skipChildren();
                }
                default -> p.skipChildren();
            }
        }
    }

    private void delta(JsonParser p, JsonToken value) throws IOException {
        content = null;
        reasoningContent = null;
        reasoning = null;
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken field = p.nextToken();
            switch (name) {
                case "content" -> content = nonEmptyString(p, field);
                case "reasoning_content" -> reasoningContent = nonEmptyString(p, field);
                case "reasoning" -> reasoning = nonEmptyString(p, field);
                default -> p.skipChildren();
            }
        }
    }

    private void usage(JsonParser p, JsonToken value) throws IOException {
        hasCompletionTokens = false;
        hasPromptTokens = false;
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken field = p.nextToken();
            switch (name) {
                case "completion_tokens" -> {
                    hasCompletionTokens = field == JsonToken.VALUE_NUMBER_INT;
                    completionTokens = hasCompletionTokens ? intValue(p) : 0;
                }
                case "prompt_tokens" -> {
                    hasPromptTokens = field == JsonToken.VALUE_NUMBER_INT;
                    promptTokens = hasPromptTokens ? intValue(p) : 0;
                }
                default -> { }
            }
            p.skipChildren();
        }
    }

    /** The string's text (or {@link #NOT_DECODED}) when the value is a non-empty string, else null. */
    private String nonEmptyString(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            p.skipChildren();
            return null;
        }
        if (!keepText) {
            // decodes into the parser's own buffer, no String
            return p.getTextLength() > 0 ? NOT_DECODED : null;
        }
        String s = p.getText();
        return s.isEmpty() ? null : s;
    }

    /** Whether the current string is exactly {@code error}, compared in the parser's buffer. */
    private static boolean isError(JsonParser p) throws IOException {
        if (p.getTextLength() != 5) {
            return false;
        }
        char[] chars = p.getTextCharacters();
        int at = p.getTextOffset();
        return chars[at] == 'e' && chars[at + 1] == 'r' && chars[at + 2] == 'r' && chars[at + 3] == 'o'
                && chars[at + 4] == 'r';
    }

    /** As {@code JsonNode.intValue()} of the number's tree node: longs and big integers are narrowed. */
    private static int intValue(JsonParser p) throws IOException {
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                ? p.getBigIntegerValue().intValue()
                : (int) p.getLongValue();
    }
    // ---- the byte reader ----

    /** Thrown to abandon a byte scan; shared and without a stack trace, since declining is a normal outcome. */
    private static final class Declined extends RuntimeException {
        Declined() {
            super(null, null, false, false);
        }
    }

    private static final Declined DECLINED = new Declined();
    /** Jackson refuses deeper nesting than 1000 (StreamReadConstraints); this reader leaves depth to it early. */
    private static final int MAX_DEPTH = 500;
    /** Jackson refuses numbers longer than 1000 characters (StreamReadConstraints). */
    private static final int MAX_NUMBER_CHARS = 1000;
    private static final byte[] CHOICES = ascii("choices");
    private static final byte[] USAGE = ascii("usage");
    private static final byte[] ERROR = ascii("error");
    private static final byte[] OBJECT = ascii("object");
    private static final byte[] DELTA = ascii("delta");
    private static final byte[] TEXT = ascii("text");
    private static final byte[] CONTENT = ascii("content");
    private static final byte[] REASONING_CONTENT = ascii("reasoning_content");
    private static final byte[] REASONING = ascii("reasoning");
    private static final byte[] COMPLETION_TOKENS = ascii("completion_tokens");
    private static final byte[] PROMPT_TOKENS = ascii("prompt_tokens");
    private static final byte[] FINISH_REASON = ascii("finish_reason");
    private static final byte[] STOP = ascii("stop");
    private static final byte[] LENGTH = ascii("length");
    private static final byte[] ABORT = ascii("abort");

    private byte[] in;
    private int pos;
    private int end;
    /** Where the last string read by {@link #string()} starts and ends (inside the quotes), and whether it had escapes. */
    private int stringStart;
    private int stringEnd;
    private boolean stringEscaped;
    /** The last number read by {@link #number()}, when it was an integer of at most 18 digits. */
    private long numberValue;

    private void rootObject() {
        if (emptyObject()) {
            return;
        }
        do {
            name();
            if (nameIs(CHOICES)) {
                choicesValue();
            } else if (nameIs(USAGE)) {
                usageValue();
            } else if (nameIs(ERROR)) {
                errorValue = !isNullAhead();
                skipValue(1);
            } else if (nameIs(OBJECT)) {
                if (peek() == '"') {
                    string();
                    objectIsError = stringEquals(ERROR);
                } else {
                    objectIsError = false;
                    skipValue(1);
                }
            } else {
                skipValue(1);
            }
        } while (nextMember());
    }

    private void choicesValue() {
        content = null;
        text = null;
        reasoningContent = null;
        reasoning = null;
        finishReason = FinishReason.NONE;
        if (peek() != '[') {
            skipValue(1);
            return;
        }
        if (emptyArray()) {
            return;
        }
        if (peek() == '{') {
            choiceObject();
        } else {
            skipValue(2);
        }
        while (true) {
            whitespace();
            byte c = next();
            if (c == ']') {
                return;
            }
            if (c != ',') {
                throw DECLINED;
            }
            whitespace();
            skipValue(2);
        }
    }

    private void choiceObject() {
        if (emptyObject()) {
            return;
        }
        do {
            name();
            if (nameIs(DELTA)) {
                deltaValue();
            } else if (nameIs(TEXT)) {
                text = nonEmptyString(3);
            } else if (nameIs(FINISH_REASON)) {
                finishReason = finishReasonValue(3);
            } else {
                skipValue(3);
            }
        } while (nextMember());
    }

    private void deltaValue() {
        content = null;
        reasoningContent = null;
        reasoning = null;
        if (peek() != '{') {
            skipValue(3);
            return;
        }
        if (emptyObject()) {
            return;
        }
        do {
            name();
            if (nameIs(CONTENT)) {
                content = nonEmptyString(4);
            } else if (nameIs(REASONING_CONTENT)) {
                reasoningContent = nonEmptyString(4);
            } else if (nameIs(REASONING)) {
                reasoning = nonEmptyString(4);
            } else {
                skipValue(4);
            }
        } while (nextMember());
    }

    private void usageValue() {
        hasCompletionTokens = false;
        hasPromptTokens = false;
        if (peek() != '{') {
            skipValue(1);
            return;
        }
        if (emptyObject()) {
            return;
        }
        do {
            name();
            if (nameIs(COMPLETION_TOKENS)) {
                hasCompletionTokens = integerValue();
                completionTokens = hasCompletionTokens ? (int) numberValue : 0;
            } else if (nameIs(PROMPT_TOKENS)) {
                hasPromptTokens = integerValue();
                promptTokens = hasPromptTokens ? (int) numberValue : 0;
            } else {
                skipValue(2);
            }
        } while (nextMember());
    }

    /** Whether the value ahead is an integer (read into {@link #numberValue}); any other value is skipped. */
    private boolean integerValue() {
        byte c = peek();
        if (c != '-' && (c < '0' || c > '9')) {
            skipValue(2);
            return false;
        }
        return number();
    }

    /** The finish reason the value ahead names, without making a string of it. */
    private FinishReason finishReasonValue(int depth) {
        if (peek() != '"') {
            skipValue(depth);
            return FinishReason.NONE;
        }
        string();
        if (stringEquals(LENGTH)) {
            return FinishReason.LENGTH;
        }
        if (stringEquals(STOP)) {
            return FinishReason.STOP;
        }
        return stringEquals(ABORT) ? FinishReason.ABORT : FinishReason.OTHER;
    }

    /** The text of the string ahead when it is non-empty, {@link #NOT_DECODED} without text kept; else null. */
    private String nonEmptyString(int depth) {
        if (peek() != '"') {
            skipValue(depth);
            return null;
        }
        string();
        if (stringEnd == stringStart) {
            return null;
        }
        return keepText ? decodeString() : NOT_DECODED;
    }

    /**
     * At an object's <code>{</code>: consumes it, and says whether the object is empty (then its <code>}</code> is
     * consumed too); else leaves the position at the first member's name.
     */
    private boolean emptyObject() {
        return opensEmpty((byte) '}');
    }

    /** At an array's {@code [}: the same, leaving the position at the first element. */
    private boolean emptyArray() {
        return opensEmpty((byte) ']');
    }

    private boolean opensEmpty(byte close) {
        pos++;
        whitespace();
        if (peek() == close) {
            pos++;
            return true;
        }
        return false;
    }

    /** After a member's value: true at a comma (positioned at the next name), false at the closing brace. */
    private boolean nextMember() {
        whitespace();
        byte c = next();
        if (c == ',') {
            whitespace();
            return true;
        }
        if (c == '}') {
            return false;
        }
        throw DECLINED;
    }

    /** A member's name and its colon, leaving the position at the value; escaped names are left to Jackson. */
    private void name() {
        if (peek() != '"') {
            throw DECLINED;
        }
        string();
        if (stringEscaped) {
            throw DECLINED;
        }
        whitespace();
        expect(':');
        whitespace();
    }

    private boolean nameIs(byte[] name) {
        return Arrays.equals(in, stringStart, stringEnd, name, 0, name.length);
    }

    private boolean stringEquals(byte[] value) {
        if (!stringEscaped) {
            return nameIs(value);
        }
        return decodeString().equals(new String(value, StandardCharsets.US_ASCII));
    }

    private boolean isNullAhead() {
        return end - pos >= 4 && in[pos] == 'n' && in[pos + 1] == 'u' && in[pos + 2] == 'l' && in[pos + 3] == 'l';
    }

    private void skipValue(int depth) {
        if (depth > MAX_DEPTH) {
            throw DECLINED;
        }
        byte c = peek();
        switch (c) {
            case '{' -> {
                if (emptyObject()) {
                    return;
                }
                do {
                    name();
                    skipValue(depth + 1);
                } while (nextMember());
            }
            case '[' -> {
                if (emptyArray()) {
                    return;
                }
                while (true) {
                    skipValue(depth + 1);
                    whitespace();
                    byte d = next();
                    if (d == ']') {
                        return;
                    }
                    if (d != ',') {
                        throw DECLINED;
                    }
                    whitespace();
                }
            }
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    private void literal(String word) {
        if (end - pos < word.length()) {
            throw DECLINED;
        }
        for (int i = 0; i < word.length(); i++) {
            if (in[pos + i] != word.charAt(i)) {
                throw DECLINED;
            }
        }
        pos += word.length();
    }

    /**
     * A number as JSON writes it (no leading zeros, no lone sign, point or exponent); leaves the value in
     * {@link #numberValue} and returns true when it is an integer of at most 18 digits. An integer with more
     * digits is left to Jackson, which narrows big integers as a tree does.
     */
    private boolean number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        int digitsStart = pos;
        long value = 0;
        while (pos < end && in[pos] >= '0' && in[pos] <= '9') {
            value = value * 10 + (in[pos] - '0');
            pos++;
        }
        int digits = pos - digitsStart;
        if (digits == 0 || (digits > 1 && in[digitsStart] == '0')) {
            throw DECLINED;
        }
        boolean integer = true;
        if (pos < end && in[pos] == '.') {
            integer = false;
            pos++;
            requireDigits();
        }
        if (pos < end && (in[pos] == 'e' || in[pos] == 'E')) {
            integer = false;
            pos++;
            if (pos < end && (in[pos] == '+' || in[pos] == '-')) {
                pos++;
            }
            requireDigits();
        }
        if (pos - start > MAX_NUMBER_CHARS) {
            throw DECLINED;
        }
        if (integer && digits > 18) {
            throw DECLINED;
        }
        numberValue = in[start] == '-' ? -value : value;
        return integer;
    }

    private void requireDigits() {
        int start = pos;
        while (pos < end && in[pos] >= '0' && in[pos] <= '9') {
            pos++;
        }
        if (pos == start) {
            throw DECLINED;
        }
    }

    /** A string from its opening quote to past its closing one; escapes are checked, control characters declined. */
    private void string() {
        pos++;
        stringStart = pos;
        stringEscaped = false;
        while (true) {
            if (pos >= end) {
                throw DECLINED;
            }
            byte c = in[pos];
            if (c == '"') {
                stringEnd = pos++;
                return;
            }
            if (c == '\\') {
                stringEscaped = true;
                pos++;
                if (pos >= end) {
                    throw DECLINED;
                }
                switch (in[pos]) {
                    case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> pos++;
                    case 'u' -> {
                        if (end - pos < 5) {
                            throw DECLINED;
                        }
                        for (int i = 1; i <= 4; i++) {
                            if (Character.digit(in[pos + i], 16) < 0) {
                                throw DECLINED;
                            }
                        }
                        pos += 5;
                    }
                    default -> throw DECLINED;
                }
            } else if (c >= 0 && c < 0x20) {
                throw DECLINED;
            } else {
                pos++;
            }
        }
    }

    /** The last string's text, escapes resolved; the bytes are valid UTF-8 (checked by the caller). */
    private String decodeString() {
        if (!stringEscaped) {
            return new String(in, stringStart, stringEnd - stringStart, StandardCharsets.UTF_8);
        }
        StringBuilder sb = new StringBuilder(stringEnd - stringStart);
        int i = stringStart;
        int run = i;
        while (i < stringEnd) {
            if (in[i] != '\\') {
                i++;
                continue;
            }
            sb.append(new String(in, run, i - run, StandardCharsets.UTF_8));
            byte e = in[i + 1];
            switch (e) {
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(new String(in, i + 2, 4, StandardCharsets.US_ASCII), 16));
                    i += 4;
                }
                default -> sb.append((char) e);
            }
            i += 2;
            run = i;
        }
        return sb.append(new String(in, run, stringEnd - run, StandardCharsets.UTF_8)).toString();
    }

    private void whitespace() {
        while (pos < end) {
            byte c = in[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    private void expect(char c) {
        if (next() != c) {
            throw DECLINED;
        }
    }

    private byte peek() {
        if (pos >= end) {
            throw DECLINED;
        }
        return in[pos];
    }

    private byte next() {
        if (pos >= end) {
            throw DECLINED;
        }
        return in[pos++];
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
