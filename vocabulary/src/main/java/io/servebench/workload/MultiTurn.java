package io.servebench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * {@code multi-turn:turns=K,in=DIST,out=DIST[,system=N][,count=N][,seed=S]}: N conversations of K turns. Turn k asks
 * the model to answer the k-th user message with the whole history before it: the system prompt (N tokens, when
 * given), then every earlier user message and its answer. The history's answers are the dataset's own text of the
 * length each earlier turn asked for, not the model's reply: every variant of a study is then sent the same bytes,
 * and since each reply has exactly its asked-for length (ignore_eos), the server sees the same history lengths it
 * would with the real answers. What it cannot see is its own reply in its prefix cache: a real client's next turn
 * repeats the answer the server generated (and may have cached), this one repeats a text of the same length.
 *
 * @param spec   the spec as written
 * @param turns  turns per conversation, K
 * @param in     user message lengths, one draw per turn
 * @param out    answer lengths, one draw per turn: the output length each turn asks for
 * @param system the system prompt's length in tokens, 0 for none
 * @param count  conversations in the set
 * @param seed   seeds the lengths and the words
 */
record MultiTurn(String spec, int turns, LengthDistribution in, LengthDistribution out, int system, int count,
                 long seed) implements DatasetKind.Generated {

    static final List<String> OPTIONS = List.of("turns", "in", "out", "system", "count", "seed");

    /**
     * @param rest what follows {@code multi-turn:}
     * @throws IllegalArgumentException naming the spec and what was expected
     */
    static MultiTurn parse(String spec, String rest) {
        String example = "e.g. multi-turn:turns=5,in=uniform(32,128),out=fixed(64)";
        SpecOptions options = SpecOptions.of(spec, SpecOptions.split(rest), OPTIONS);
        options.require(List.of("turns", "in", "out"), "", example);
        int turns = options.positiveInt("turns").orElseThrow();
        long system = options.wholeNumber("system", 0);
        if (system < 0 || system > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("dataset " + spec + ": system=" + system + " is not a whole number of"
                    + " tokens >= 0");
        }
        return new MultiTurn(spec, turns, LengthDistribution.parse(spec, "in", options.values().get("in")),
                LengthDistribution.parse(spec, "out", options.values().get("out")), (int) system,
                options.positiveInt("count").orElse(Math.max(1, SyntheticLengths.DEFAULT_COUNT / turns)),
                options.wholeNumber("seed", 1));
    }

    /**
     * Every conversation's turns, one after the other. The lengths are drawn at once; a conversation's words are
     * written, from a seed of its own, when a load first draws its first turn ({@link Dataset#builtOnDraw}), so that a
     * load of a few conversations with long histories writes those, not {@link #count}. The set's mean prompt length
     * is the drawn one: each turn's message, after its history's messages and the system prompt.
     */
    @Override
    public Dataset dataset(ToIntFunction<String> tokens) {
        Random lengths = new Random(seed);
        int[][] userTokens = new int[count][turns];
        int[][] answerTokens = new int[count][turns];
        long promptSum = 0;
        long outputSum = 0;
        for (int c = 0; c < count; c++) {
            long history = system;
            for (int k = 0; k < turns; k++) {
                userTokens[c][k] = in.sample(lengths);
                answerTokens[c][k] = out.sample(lengths);
                promptSum += history + userTokens[c][k];
                outputSum += answerTokens[c][k];
                history += userTokens[c][k] + answerTokens[c][k];
            }
        }
        return Dataset.builtOnDraw(spec, count, turns, c -> conversation(c, userTokens[c], answerTokens[c], tokens),
                (double) promptSum / ((long) count * turns), (double) outputSum / ((long) count * turns));
    }

    /** Conversation {@code c}'s turns, each with the history before it, from words of the conversation's own seed. */
    private List<Conversation> conversation(int c, int[] userTokens, int[] answerTokens, ToIntFunction<String> tokens) {
        Random words = new Random(SyntheticLengths.wordSeed(seed, c));
        List<Conversation> requests = new ArrayList<>(turns);
        List<ChatMessage> history = new ArrayList<>();
        int historyTokens = 0;
        if (system > 0) {
            String text = SyntheticLengths.text(words, system, tokens);
            history.add(new ChatMessage("system", text));
            historyTokens += tokens.applyAsInt(text);
        }
        for (int k = 0; k < turns; k++) {
            String user = SyntheticLengths.text(words, userTokens[k], tokens);
            int userCount = tokens.applyAsInt(user);
            requests.add(new Conversation(user, historyTokens + userCount, answerTokens[k], history, null, k));
            String answer = SyntheticLengths.text(words, answerTokens[k], tokens);
            history = new ArrayList<>(history);
            history.add(new ChatMessage("user", user));
            history.add(new ChatMessage("assistant", answer));
            historyTokens += userCount + tokens.applyAsInt(answer);
        }
        return requests;
    }
}
