package io.servebench.load;

import java.util.function.ToIntFunction;

/**
 * Counts the tokens of one token event when the server does not say (no continuous usage stats).
 * This is the seam where a tokenizer plugs in: an implementation that tokenizes the delta text
 * reports {@link TokenSource#TOKENIZER}.
 */
public interface DeltaTokenCounter {

    /** Counts every token event as one token ({@link TokenSource#EVENTS}). */
    DeltaTokenCounter ONE_PER_EVENT = new DeltaTokenCounter() {
        @Override
        public int count(String deltaText) {
            return 1;
        }

        @Override
        public TokenSource source() {
            return TokenSource.EVENTS;
        }

        @Override
        public String toString() {
            return "ONE_PER_EVENT";
        }
    };

    /**
     * Counts each event's tokens with {@code tokenizer} ({@link TokenSource#TOKENIZER}), e.g. the model's tokenizer.json.
     */
    static DeltaTokenCounter of(ToIntFunction<String> tokenizer) {
        return new DeltaTokenCounter() {
            @Override
            public int count(String deltaText) {
                return Math.max(1, tokenizer.applyAsInt(deltaText));
            }

            @Override
            public TokenSource source() {
                return TokenSource.TOKENIZER;
            }

            @Override
            public String toString() {
                return "TOKENIZER";
            }
        };
    }

    /**
     * Tokens in the generated text of one event (content and reasoning together, never empty);
     * values below 1 are raised to 1, since a token event carries at least one token.
     */
    int count(String deltaText);

    /** Recorded as the per-event source when this counter's counts are used. */
    TokenSource source();
}
