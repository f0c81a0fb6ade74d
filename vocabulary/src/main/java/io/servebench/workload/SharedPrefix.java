package io.servebench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;

/**
 * {@code shared-prefix:groups=G,prefix=P,question=Q,out=O[,count=N][,seed=S]}: G system prompts of P tokens, each
 * shared by many distinct questions of Q tokens, for prefix-cache studies. Request i belongs to group i mod G; its
 * prompt is its group's prefix, then its own question. P, Q and O are lengths in tokens ({@code 512}) or
 * distributions as {@code synthetic:} takes them ({@code uniform(32,96)}); each part is exact by the token counter.
 *
 * @param spec     the spec as written
 * @param groups   distinct prefixes
 * @param prefix   prefix lengths, one draw per group
 * @param question question lengths, one draw per request
 * @param out      reply lengths
 * @param count    requests in the set
 * @param seed     seeds lengths and words
 */
record SharedPrefix(String spec, int groups, LengthDistribution prefix, LengthDistribution question,
                    LengthDistribution out, int count, long seed) implements DatasetKind.Generated {

    static final List<String> OPTIONS = List.of("groups", "prefix", "question", "out", "count", "seed");

    /**
     * @param rest what follows {@code shared-prefix:}
     * @throws IllegalArgumentException naming the spec and what was expected
     */
    static SharedPrefix parse(String spec, String rest) {
        String example = "e.g. shared-prefix:groups=8,prefix=1024,question=64,out=128";
        SpecOptions options = SpecOptions.of(spec, SpecOptions.split(rest), OPTIONS);
        options.require(List.of("groups", "prefix", "question", "out"), "", example);
        long seed = options.wholeNumber("seed", 1);
        return new SharedPrefix(spec, options.positiveInt("groups").orElseThrow(), length(spec, "prefix", options),
                length(spec, "question", options), length(spec, "out", options),
                options.positiveInt("count").orElse(SyntheticLengths.DEFAULT_COUNT), seed);
    }

    /** A length option: a whole number of tokens, or a distribution. */
    private static LengthDistribution length(String spec, String name, SpecOptions options) {
        String text = options.values().get(name);
        return text.matches("\\d+") ? LengthDistribution.parse(spec, name, "fixed(" + text + ")")
                : LengthDistribution.parse(spec, name, text);
    }

    /**
     * The set: the groups' prefixes written at once, each request's question when a load first draws it, from words of
     * its own seed, as {@code synthetic:} writes its prompts ({@link Dataset#builtOnDraw}): a load of a few requests
     * with long prefixes counts a few whole prompts, not {@link #count}. The set's mean prompt length is its parts'
     * (prefix and question) as drawn.
     */
    @Override
    public Dataset dataset(ToIntFunction<String> tokens) {
        Random random = new Random(seed);
        List<String> prefixes = new ArrayList<>(groups);
        int[] prefixTokens = new int[groups];
        for (int g = 0; g < groups; g++) {
            prefixTokens[g] = prefix.sample(random);
            prefixes.add(SyntheticLengths.text(random, prefixTokens[g], tokens));
        }
        int[] questionTokens = new int[count];
        int[] outputTokens = new int[count];
        for (int i = 0; i < count; i++) {
            questionTokens[i] = question.sample(random);
            outputTokens[i] = out.sample(random);
        }
        return Dataset.builtOnDraw(spec, count, i -> {
            String prompt = prefixes.get(i % groups) + " " + SyntheticLengths.text(
                    new Random(SyntheticLengths.wordSeed(seed, i)), questionTokens[i], tokens);
            return new Conversation(prompt, tokens.applyAsInt(prompt), outputTokens[i]);
        }, IntStream.range(0, count).map(i -> prefixTokens[i % groups] + questionTokens[i]).average().orElseThrow(),
                Arrays.stream(outputTokens).average().orElseThrow());
    }
}
