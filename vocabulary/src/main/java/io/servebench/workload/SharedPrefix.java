package io.servebench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToIntFunction;

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

    @Override
    public Dataset dataset(ToIntFunction<String> tokens) {
        Random random = new Random(seed);
        List<String> prefixes = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            prefixes.add(SyntheticLengths.text(random, prefix.sample(random), tokens));
        }
        List<Conversation> conversations = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String prompt = prefixes.get(i % groups) + " " + SyntheticLengths.text(random, question.sample(random), tokens);
            conversations.add(new Conversation(prompt, tokens.applyAsInt(prompt), out.sample(random)));
        }
        return new Dataset(spec, conversations);
    }
}
