package io.servebench.workload;


import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * The prompts of a workload. A sampled set (every kind but {@code trace:}) is drawn in a seeded shuffled order,
 * cycling when more requests than conversations are asked for, a multi-turn conversation's turns one after the other; a trace is sent in its file order, once, each
 * request with its arrival time. Every request asks for exactly its reply length, as {@code vllm bench serve} and
 * guidellm do, so output lengths are fixed by the workload and not left to the model.
 */
public final class Dataset {

    private final String name;
    private final int size;
    private final IntFunction<Conversation> conversation;
    private final long[] arrivalsNs;
    /** Where each conversation begins: its first turn's position; a later turn follows the one before it. */
    private final int[] starts;
    private final double meanPromptTokens;
    private final double meanOutputTokens;
    /** Whether each conversation is built the first time it is drawn and kept ({@link #builtOnDraw}). */
    private final boolean builtOnDraw;

    /**
     * A sampled set.
     *
     * @param name          how the study named it, e.g. {@code sharegpt:/data/ShareGPT_V3.json}
     * @param conversations the usable conversations, in file order
     */
    public Dataset(String name, List<Conversation> conversations) {
        this(name, List.copyOf(conversations), null);
    }

    private Dataset(String name, List<Conversation> conversations, long[] arrivalsNs) {
        this(name, conversations.size(), conversations::get, arrivalsNs,
                conversations.stream().mapToInt(Conversation::promptTokens).average().orElse(Double.NaN),
                conversations.stream().mapToInt(Conversation::outputTokens).average().orElse(Double.NaN), 0);
    }

    /** @param turnsBuiltOnDraw the turns of each conversation of a set {@link #builtOnDraw}; 0 for any other set */
    private Dataset(String name, int size, IntFunction<Conversation> conversation, long[] arrivalsNs,
                    double meanPromptTokens, double meanOutputTokens, int turnsBuiltOnDraw) {
        if (size == 0) {
            throw new IllegalArgumentException("dataset " + name + " has no usable conversation");
        }
        this.name = name;
        this.size = size;
        this.conversation = conversation;
        this.arrivalsNs = arrivalsNs;
        // a trace is single turns in file order, and a set built on draw has as many turns to each conversation: their
        // prompts are not built to find out
        this.starts = arrivalsNs != null ? null : turnsBuiltOnDraw > 0
                ? IntStream.range(0, size / turnsBuiltOnDraw).map(c -> c * turnsBuiltOnDraw).toArray()
                : IntStream.range(0, size).filter(i -> i == 0 || conversation.apply(i).turn() == 0).toArray();
        this.meanPromptTokens = meanPromptTokens;
        this.meanOutputTokens = meanOutputTokens;
        this.builtOnDraw = turnsBuiltOnDraw > 0;
    }

    /**
     * A sampled set of single prompts, each built the first time a draw needs it and kept for later draws: a set of
     * long prompts cut to length by a real tokenizer takes up to seconds a prompt, and a run that sends a few of them must
     * not build them all. {@link #prepare} builds a load's prompts before it starts.
     *
     * @param build            builds conversation {@code i}, the same one whenever it is asked
     * @param meanPromptTokens the conversations' mean prompt length, known before they are built
     * @param meanOutputTokens their mean reply length
     */
    static Dataset builtOnDraw(String name, int size, IntFunction<Conversation> build, double meanPromptTokens,
                               double meanOutputTokens) {
        return builtOnDraw(name, size, 1, c -> List.of(build.apply(c)), meanPromptTokens, meanOutputTokens);
    }

    /**
     * A sampled set of conversations of {@code turns} turns each, a conversation built whole (its turns carry its
     * history) the first time a draw needs its first turn, and kept.
     *
     * @param conversations    conversations in the set
     * @param build            builds conversation {@code c}'s turns, {@code turns} of them, in order; the same whenever
     *                         it is asked
     * @param meanPromptTokens the turns' mean prompt length, known before they are built
     * @param meanOutputTokens their mean reply length
     */
    static Dataset builtOnDraw(String name, int conversations, int turns, IntFunction<List<Conversation>> build,
                               double meanPromptTokens, double meanOutputTokens) {
        AtomicReferenceArray<List<Conversation>> built = new AtomicReferenceArray<>(conversations);
        IntFunction<Conversation> kept = i -> {
            int c = i / turns;
            List<Conversation> turnsOfC = built.get(c);
            if (turnsOfC == null) {
                turnsOfC = build.apply(c);
                if (turnsOfC.size() != turns) {
                    throw new IllegalStateException("dataset " + name + ": conversation " + c + " was built with "
                            + turnsOfC.size() + " turns, expected " + turns);
                }
                built.compareAndSet(c, null, turnsOfC);
                turnsOfC = built.get(c);
            }
            return turnsOfC.get(i % turns);
        };
        return new Dataset(name, conversations * turns, kept, null, meanPromptTokens, meanOutputTokens, turns);
    }

    /**
     * A trace: requests in file order, each built when it is drawn (a trace's prompts may be far larger than the
     * heap) and due at its arrival time.
     *
     * @param arrivalsNs request {@code i}'s arrival, nanoseconds after the first one's; non-decreasing
     * @param requests   builds request {@code i}
     */
    static Dataset trace(String name, long[] arrivalsNs, IntFunction<Conversation> requests, double meanPromptTokens,
                         double meanOutputTokens) {
        return new Dataset(name, arrivalsNs.length, requests, arrivalsNs.clone(), meanPromptTokens, meanOutputTokens,
                0);
    }

    /** How the study named it. */
    public String name() {
        return name;
    }

    /** The usable conversations, in file order; built on each call for a trace, so for small sets and tests. */
    public List<Conversation> conversations() {
        return IntStream.range(0, size).mapToObj(conversation).toList();
    }

    /**
     * For a trace, when each request arrives, nanoseconds after the first; empty for a sampled set, whose arrivals
     * the workload's profile decides.
     */
    public Optional<long[]> arrivalsNs() {
        return Optional.ofNullable(arrivalsNs).map(long[]::clone);
    }

    /**
     * The requests of one trial: {@code warmup} warm-up requests, then {@code measured} measured ones (a trace
     * gives no more than it holds). The same seed gives the same requests, so every variant sees the same prompts.
     */
    public List<RequestSpec> requests(int warmup, int measured, long seed) {
        Iterator<RequestSpec> supply = supply(seed);
        List<RequestSpec> specs = new ArrayList<>(warmup + measured);
        for (int i = 0; i < warmup + measured && supply.hasNext(); i++) {
            RequestSpec s = supply.next();
            specs.add(s.withWarmup(i < warmup));
        }
        return specs;
    }

    /**
     * The same requests as {@link #requests(int, int, long)}, none marked warm-up: request {@code i} is the
     * {@code i}-th of {@code requests(..)} for the same seed. A sampled set never runs out (for runs whose length is
     * not known in advance, such as a warm-up by time); a trace ends with its last line.
     */
    public Iterator<RequestSpec> supply(long seed) {
        return arrivalsNs != null ? inFileOrder() : sampled(seed);
    }

    /**
     * Builds the prompts of the first {@code draws} requests that {@link #supply} gives for {@code seed}, ahead of a load
     * that sends them, so that none is built while the load's clock runs; only a set {@link #builtOnDraw} has any to
     * build. A load that draws more builds the rest as it draws them.
     *
     * @param stopped asked before each prompt
     * @throws CancellationException naming the set, when {@code stopped} said so
     */
    public void prepare(long seed, int draws, BooleanSupplier stopped) {
        if (!builtOnDraw) {
            return;
        }
        Iterator<RequestSpec> supply = supply(seed);
        for (int i = 0; i < Math.min(draws, size); i++) {
            if (stopped.getAsBoolean()) {
                throw new CancellationException("dataset " + name + ": its building was stopped");
            }
            supply.next();
        }
    }

    private Iterator<RequestSpec> inFileOrder() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < size;
            }

            @Override
            public RequestSpec next() {
                if (next >= size) {
                    throw new NoSuchElementException("the trace " + name + " holds " + size + " requests");
                }
                int i = next++;
                return spec(i, conversation.apply(i));
            }
        };
    }

    private Iterator<RequestSpec> sampled(long seed) {
        Random random = new Random(seed);
        return new Iterator<>() {
            private final List<Integer> order = new ArrayList<>();
            private int next;

            @Override
            public boolean hasNext() {
                return true;
            }

            /** The next turns of the conversation being sent, after its first. */
            private int turn;
            private int end;

            @Override
            public RequestSpec next() {
                if (turn < end) {
                    return spec(next++, conversation.apply(turn++));
                }
                if (order.isEmpty()) {
                    for (int c = 0; c < starts.length; c++) {
                        order.add(c);
                    }
                    Collections.shuffle(order, random);
                }
                int c = order.remove(order.size() - 1);
                turn = starts[c] + 1;
                end = c + 1 < starts.length ? starts[c + 1] : size;
                return spec(next++, conversation.apply(starts[c]));
            }
        };
    }

    private static RequestSpec spec(int index, Conversation c) {
        return new RequestSpec(index, c.prompt(), c.promptTokens(), c.outputTokens(), true, false, c.context(),
                c.extraBody(), c.turn());
    }

    /** Mean prompt and reply length in tokens, for the plan and the reports. */
    public double meanPromptTokens() {
        return meanPromptTokens;
    }

    public double meanOutputTokens() {
        return meanOutputTokens;
    }

    @Override
    public String toString() {
        return "Dataset[" + name + ", " + size + (arrivalsNs != null ? " requests in trace order]" : " conversations]");
    }
}
