package io.servebench.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;

/**
 * Reads the few fields of one streaming chunk that the metrics need, token by token, without building a
 * JSON tree: {@code choices[0].delta.content}, {@code .reasoning_content}, {@code .reasoning},
 * {@code choices[0].text}, {@code usage.completion_tokens}, {@code usage.prompt_tokens}, and whether the
 * chunk may be an error payload. Everything else is skipped (and so still checked to be valid JSON).
 *
 * <p>The results are those of the tree the chunk would parse to: a field that is repeated counts with
 * its last value, a field of the wrong type counts as absent, a string counts only when non-empty, and
 * an integer is narrowed to {@code int} as {@code JsonNode.intValue()} does.
 *
 * <p>One instance serves every chunk of a response; {@link #scan} resets it. Not thread-safe.
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
     * Whether the chunk has a non-null {@code error} or {@code "object": "error"}: then it is an error
     * payload, whose message only a tree gives in every shape it comes in.
     */
    boolean mayBeError() {
        return errorValue || objectIsError;
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
}
