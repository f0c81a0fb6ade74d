package io.servebench.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulated engine's tokenizer, also used by the runner to estimate prompt lengths, so both sides
 * count the same way. A deliberately simple, deterministic rule instead of a model's BPE vocabulary:
 * <ul>
 *   <li>a maximal run of letters or digits is one token, except that runs longer than
 *       {@value #MAX_WORD_CHARS} characters count one token per started {@value #MAX_WORD_CHARS} characters
 *       (long words and numbers split, as they do under BPE);</li>
 *   <li>every other non-whitespace character (punctuation, symbols, emoji code points) is one token;</li>
 *   <li>whitespace is never a token: it attaches to the following token.</li>
 * </ul>
 * Thread-safe and stateless.
 */
public final class SimTokenizer {

    /** Letters or digits covered by one token before a long word is split. */
    public static final int MAX_WORD_CHARS = 12;

    /** Number of tokens in {@code text}; 0 for {@code null} or blank text. */
    public int count(String text) {
        if (text == null) {
            return 0;
        }
        int tokens = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (Character.isLetterOrDigit(cp)) {
                int start = i;
                while (i < text.length() && Character.isLetterOrDigit(text.codePointAt(i))) {
                    i += Character.charCount(text.codePointAt(i));
                }
                int chars = text.codePointCount(start, i);
                tokens += (chars + MAX_WORD_CHARS - 1) / MAX_WORD_CHARS;
            } else {
                if (!Character.isWhitespace(cp)) {
                    tokens++;
                }
                i += Character.charCount(cp);
            }
        }
        return tokens;
    }

    /**
     * The tokens of {@code text} as strings, in order, following the same rule as {@link #count(String)}
     * ({@code tokens(t).size() == count(t)}); used where the identity of tokens matters, e.g. prefix caching.
     */
    public List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (Character.isLetterOrDigit(cp)) {
                StringBuilder word = new StringBuilder();
                int chars = 0;
                while (i < text.length() && Character.isLetterOrDigit(text.codePointAt(i))) {
                    int c = text.codePointAt(i);
                    if (chars == MAX_WORD_CHARS) {
                        out.add(word.toString());
                        word.setLength(0);
                        chars = 0;
                    }
                    word.appendCodePoint(c);
                    chars++;
                    i += Character.charCount(c);
                }
                out.add(word.toString());
            } else {
                if (!Character.isWhitespace(cp)) {
                    out.add(new String(Character.toChars(cp)));
                }
                i += Character.charCount(cp);
            }
        }
        return out;
    }
}
