package io.servebench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * {@code synthetic:in=DIST,out=DIST[,count=N][,seed=S]}: prompts and replies whose lengths in tokens are drawn from
 * stated distributions, for shapes a person can reason about (a fixed 512-token prompt, replies uniform in 64..256).
 * Each prompt is words of a small vocabulary, lengthened or shortened until the token counter counts exactly its
 * drawn length; with the simulated engine's tokenizer that is the length the server sees, with a real engine's it is
 * the counter's estimate. The set is the same for the same spec; the run's seed then orders the requests.
 *
 * @param spec  the spec as written
 * @param in    prompt lengths
 * @param out   reply lengths: the output length each request asks for
 * @param count prompts in the set
 * @param seed  seeds the lengths and the words
 */
record SyntheticLengths(String spec, LengthDistribution in, LengthDistribution out, int count,
                        long seed) implements DatasetKind.Generated {

    /** Prompts in a set that names no count: enough that a 1000-request trial repeats none. */
    static final int DEFAULT_COUNT = 1000;

    /**
     * @param rest what follows {@code synthetic:}
     * @throws IllegalArgumentException naming the spec and what was expected
     */
    static SyntheticLengths parse(String spec, String rest) {
        if (rest.isBlank()) {
            throw new IllegalArgumentException("dataset " + spec + ": expected in=DIST,out=DIST, e.g. synthetic:in=fixed(512),"
                    + "out=uniform(64,256)");
        }
        SpecOptions options = SpecOptions.of(spec, SpecOptions.split(rest), List.of("in", "out", "count", "seed"));
        options.require(List.of("in", "out"), "DIST", "expected in=DIST,out=DIST, e.g. synthetic:in=fixed(512),out=uniform(64,256)");
        long seed = options.wholeNumber("seed", 1);
        return new SyntheticLengths(spec, LengthDistribution.parse(spec, "in", options.values().get("in")),
                LengthDistribution.parse(spec, "out", options.values().get("out")),
                options.positiveInt("count").orElse(DEFAULT_COUNT), seed);
    }

    /**
     * The set, each prompt exactly its drawn length by {@code tokens}. The lengths are drawn at once; each prompt is
     * written when a draw first needs it ({@link Dataset#builtOnDraw}), from words of its own seed, so that it is the same
     * whichever prompts are built before it: a run of 30 requests of 120,000 tokens used to build all 1,000 prompts of
     * its set first (13 s and 800 MB with the simulated engine's tokenizer, minutes with a real one). The set's mean
     * lengths are the drawn ones: a prompt a tokenizer cannot write to the token ({@link #text}) is counted as it is
     * when it is built.
     */
    @Override
    public Dataset dataset(ToIntFunction<String> tokens) {
        Random lengths = new Random(seed);
        int[] promptTokens = new int[count];
        int[] outputTokens = new int[count];
        for (int i = 0; i < count; i++) {
            promptTokens[i] = in.sample(lengths);
            outputTokens[i] = out.sample(lengths);
        }
        return Dataset.builtOnDraw(spec, count, i -> {
            String prompt = text(new Random(wordSeed(seed, i)), promptTokens[i], tokens);
            return new Conversation(prompt, tokens.applyAsInt(prompt), outputTokens[i]);
        }, Arrays.stream(promptTokens).average().orElseThrow(), Arrays.stream(outputTokens).average().orElseThrow());
    }

    /** Spreads the prompts' word seeds apart: the golden ratio's 64-bit fraction, as {@code SplittableRandom} steps. */
    private static final long WORD_SEED_STRIDE = 0x9E3779B97F4A7C15L;

    /** The seed of the words of prompt {@code i} of a set seeded {@code seed}, apart from every other prompt's. */
    static long wordSeed(long seed, int i) {
        return seed + WORD_SEED_STRIDE * (i + 1);
    }

    /**
     * {@link #count} conversations whose lengths are drawn from {@link #in} and {@link #out} as {@link #dataset}'s are,
     * then scaled to the mean prompt and reply lengths {@code meanPromptTokens} and {@code meanOutputTokens}
     * ({@link #scaledTo}).
     */
    Dataset shaped(double meanPromptTokens, double meanOutputTokens, ToIntFunction<String> tokens) {
        Random random = new Random(seed);
        double[] prompt = new double[count];
        double[] reply = new double[count];
        for (int i = 0; i < count; i++) {
            prompt[i] = in.sample(random);
            reply[i] = out.sample(random);
        }
        return scaledTo(spec, prompt, reply, meanPromptTokens, meanOutputTokens, random, tokens);
    }

    /**
     * Conversations whose prompt and reply lengths are in proportion to {@code promptShape} and {@code replyShape}, scaled
     * together to the mean lengths {@code meanPromptTokens} and {@code meanOutputTokens} in tokens, to within rounding
     * (each at least 1), and each prompt written exactly its length by {@code tokens} with {@code random}'s words: a
     * published run rehearsed from its printed token totals, so the sample's own draw does not move them. The set is
     * named {@code name} with the means.
     */
    static Dataset scaledTo(String name, double[] promptShape, double[] replyShape, double meanPromptTokens,
                            double meanOutputTokens, Random random, ToIntFunction<String> tokens) {
        int[] promptTokens = withMean(promptShape, meanPromptTokens);
        int[] outputTokens = withMean(replyShape, meanOutputTokens);
        List<Conversation> conversations = new ArrayList<>(promptTokens.length);
        for (int i = 0; i < promptTokens.length; i++) {
            String text = text(random, promptTokens[i], tokens);
            conversations.add(new Conversation(text, tokens.applyAsInt(text), outputTokens[i]));
        }
        return new Dataset(String.format(Locale.ROOT, "%s(mean %.1f in, %.1f out)", name, meanPromptTokens,
                meanOutputTokens), conversations);
    }

    /** The lengths in proportion to {@code shape}, rounded, at least 1, their mean {@code mean}. */
    private static int[] withMean(double[] shape, double mean) {
        double scale = mean * shape.length / Arrays.stream(shape).sum();
        int[] lengths = new int[shape.length];
        for (int i = 0; i < shape.length; i++) {
            lengths[i] = (int) Math.max(1, Math.round(scale * shape[i]));
        }
        return lengths;
    }

    /**
     * Words until {@code tokens} counts {@code length}: a word per token first, corrected a word at a time, then
     * topped up with one-letter words, which most tokenizers count as one token each. A tokenizer that cannot express
     * the length this way gets the nearest length below it; the conversation records the count, not the target.
     */
    static String text(Random random, int length, ToIntFunction<String> tokens) {
        List<String> words = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            words.add(SyntheticShareGpt.word(random));
        }
        String all = String.join(" ", words);
        int counted = tokens.applyAsInt(all);
        int steps = 0;
        if (counted > length && words.size() > 1) {
            // what removing a word at a time from the end reaches, found in a dozen counts rather than one per word (by
            // a tokenizer of several tokens a word, a 4,000-token prompt took thousands of counts of its whole text): a
            // prefix's count grows with the prefix
            int kept = longestPrefixWithin(words, all, length, tokens);
            steps = words.size() - kept;
            words.subList(kept, words.size()).clear();
            counted = tokens.applyAsInt(String.join(" ", words));
        }
        for (int step = steps; step < 4 * length && counted != length; step++) {
            if (counted > length && words.size() > 1) {
                words.remove(words.size() - 1);
            } else if (counted < length) {
                words.add(SyntheticShareGpt.word(random));
            } else {
                break;
            }
            int next = tokens.applyAsInt(String.join(" ", words));
            if (counted < length && next > length) {
                // a whole word overshoots: take it back and top up with one-letter words below
                words.remove(words.size() - 1);
                break;
            }
            counted = next;
        }
        counted = tokens.applyAsInt(String.join(" ", words));
        for (int step = 0; step < 2 * length && counted < length; step++) {
            words.add("a");
            int next = tokens.applyAsInt(String.join(" ", words));
            if (next > length) {
                words.remove(words.size() - 1);
                break;
            }
            counted = next;
        }
        return String.join(" ", words);
    }

    /**
     * The most of {@code words}' first words, fewer than all of them and at least one, that {@code tokens} counts at most
     * {@code length}, by bisection over the prefixes' counts; one word where even one counts more. {@code all} is the
     * words joined by single spaces.
     */
    private static int longestPrefixWithin(List<String> words, String all, int length, ToIntFunction<String> tokens) {
        int[] ends = new int[words.size() + 1];
        for (int i = 0; i < words.size(); i++) {
            ends[i + 1] = ends[i] + (i == 0 ? 0 : 1) + words.get(i).length();
        }
        int low = 1;
        int high = words.size() - 1;
        if (tokens.applyAsInt(all.substring(0, ends[low])) > length) {
            return low;
        }
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (tokens.applyAsInt(all.substring(0, ends[middle])) <= length) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }
}
