package io.servebench.workload;


import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

/**
 * The prompts of a workload. Requests draw conversations in a seeded shuffled order (cycling when
 * more requests than conversations are asked for) and ask for exactly the reply length of each, as
 * {@code vllm bench serve} and guidellm do, so output lengths are fixed by the workload and not
 * left to the model.
 *
 * @param name          how the study named it, e.g. {@code sharegpt:/data/ShareGPT_V3.json}
 * @param conversations the usable conversations, in file order
 */
public record Dataset(String name, List<Conversation> conversations) {

    public Dataset {
        if (conversations.isEmpty()) {
            throw new IllegalArgumentException("dataset " + name + " has no usable conversation");
        }
        conversations = List.copyOf(conversations);
    }

    /**
     * The requests of one trial: {@code warmup} warm-up requests, then {@code measured} measured ones.
     * The same seed gives the same requests, so every variant sees the same prompts.
     */
    public List<RequestSpec> requests(int warmup, int measured, long seed) {
        Iterator<RequestSpec> supply = supply(seed);
        List<RequestSpec> specs = new ArrayList<>(warmup + measured);
        for (int i = 0; i < warmup + measured; i++) {
            RequestSpec s = supply.next();
            specs.add(s.withWarmup(i < warmup));
        }
        return specs;
    }

    /**
     * The same requests as {@link #requests(int, int, long)}, without end and none marked warm-up: request
     * {@code i} is the {@code i}-th of {@code requests(..)} for the same seed. For runs whose length is not
     * known in advance (a warm-up by time).
     */
    public Iterator<RequestSpec> supply(long seed) {
        Random random = new Random(seed);
        return new Iterator<>() {
            private final List<Integer> order = new ArrayList<>();
            private int next;

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public RequestSpec next() {
                if (order.isEmpty()) {
                    for (int c = 0; c < conversations.size(); c++) {
                        order.add(c);
                    }
                    java.util.Collections.shuffle(order, random);
                }
                Conversation c = conversations.get(order.remove(order.size() - 1));
                return new RequestSpec(next++, c.prompt(), c.promptTokens(), c.outputTokens(), true, false, c.context());
            }
        };
    }

    /** Mean prompt and reply length in tokens, for the plan and the reports. */
    public double meanPromptTokens() {
        return conversations.stream().mapToInt(Conversation::promptTokens).average().orElse(Double.NaN);
    }

    public double meanOutputTokens() {
        return conversations.stream().mapToInt(Conversation::outputTokens).average().orElse(Double.NaN);
    }
}
