package io.servebench.sim;

import java.util.SplittableRandom;

/**
 * What the engine will answer to one request, decided up front from the engine seed and the request id.
 *
 * @param tokens          tokens to generate
 * @param maxTokens       the most it may generate: {@code max_tokens}, or the context the prompt leaves without it (what
 *                        an engine that reserves room for a request's output counts on)
 * @param reasoningTokens how many of the first tokens are reasoning ({@code delta.reasoning_content})
 * @param finishReason    {@code "length"} when the answer stops at {@code max_tokens}, else {@code "stop"} (EOS)
 * @param wordSeed        seed of the made-up words
 */
record OutputPlan(int tokens, int maxTokens, int reasoningTokens, String finishReason, long wordSeed) {

    /** Median of the natural (EOS-terminated) answer length, tokens. */
    static final double NATURAL_MEDIAN_TOKENS = 220;
    /** Spread (sigma of the log) of the natural answer length. */
    static final double NATURAL_LOG_SIGMA = 0.8;
    /** Bounds of the reasoning share of an answer, drawn uniformly per request when a reasoning parser is set. */
    static final double REASONING_SHARE_MIN = 0.2;
    static final double REASONING_SHARE_MAX = 0.4;

    private static final String[] SYLLABLES = {"ka", "lo", "mi", "ne", "ru", "ta", "so", "vi", "de", "pa", "zu", "fe",
        "bo", "gri", "sha", "tel"};

    /**
     * Decides the answer. With {@code ignore_eos}, or {@code min_tokens == max_tokens}, exactly {@code max_tokens};
     * otherwise a natural length drawn from a log-normal (median {@value #NATURAL_MEDIAN_TOKENS}), raised to
     * {@code min_tokens} and capped by {@code max_tokens} (by the context left when {@code max_tokens} is absent).
     * Reasoning applies to chat requests when the engine has a reasoning parser.
     */
    static OutputPlan of(ApiRequest request, SimParams settings, long engineSeed, String requestId) {
        SplittableRandom random = new SplittableRandom(Seeds.forRequest(engineSeed, requestId, 1));
        int cap = request.maxTokens() != null ? request.maxTokens() : settings.maxModelLen() - request.promptTokens();
        int natural = (int) Math.min(Integer.MAX_VALUE,
                Math.max(1, Math.round(NATURAL_MEDIAN_TOKENS * Math.exp(NATURAL_LOG_SIGMA * gaussian(random)))));
        boolean exact = request.maxTokens() != null && (request.ignoreEos() || request.minTokens() == request.maxTokens());
        int tokens = exact ? cap : Math.min(cap, Math.max(natural, request.minTokens()));
        String finish = exact || natural >= cap ? "length" : "stop";
        int reasoning = 0;
        if (request.chat() && settings.reasoning().isPresent()) {
            double share = REASONING_SHARE_MIN + (REASONING_SHARE_MAX - REASONING_SHARE_MIN) * random.nextDouble();
            reasoning = (int) Math.round(tokens * share);
        }
        return new OutputPlan(tokens, cap, reasoning, finish, Seeds.forRequest(engineSeed, requestId, 2));
    }

    /** Whether token {@code index} (0-based) is a reasoning token. */
    boolean isReasoning(int index) {
        return index < reasoningTokens;
    }

    /** Made-up words, one token each (letters only, at most 9 characters), each with a leading space. */
    static final class Words {
        private final SplittableRandom random;

        Words(long seed) {
            random = new SplittableRandom(seed);
        }

        /** The text of the next {@code n} tokens. */
        String next(int n) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < n; i++) {
                text.append(' ');
                int syllables = 1 + random.nextInt(3);
                for (int s = 0; s < syllables; s++) {
                    text.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
                }
            }
            return text.toString();
        }
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller; SplittableRandom has no nextGaussian in Java 17
        double u = 1.0 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
