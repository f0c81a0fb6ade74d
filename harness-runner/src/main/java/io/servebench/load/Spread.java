package io.servebench.load;

import java.util.ArrayList;
import java.util.List;

/**
 * How a load's requests are spread over the replicas of one engine: round robin, or by weights, as a load balancer
 * does. A conversation goes to one replica whole (its turns share a prefix cache there), and which one depends on its
 * place in the load alone: the smooth weighted round robin of nginx, so that weights 3 and 1 send a, a, b, a, a, a, b,
 * a... and never three to one in a row where two would do.
 *
 * @param weights each replica's weight, in the engine's order
 */
public record Spread(List<Integer> weights) {

    public Spread {
        weights = List.copyOf(weights);
        if (weights.isEmpty() || weights.stream().anyMatch(w -> w < 1)) {
            throw new IllegalArgumentException("a spread needs at least one replica and weights >= 1, got " + weights);
        }
    }

    /** Equal turns over {@code replicas}. */
    public static Spread roundRobin(int replicas) {
        List<Integer> ones = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            ones.add(1);
        }
        return new Spread(ones);
    }

    /** How many replicas. */
    public int replicas() {
        return weights.size();
    }

    /** The replica of the conversation whose first request is the {@code conversation}-th of the load. */
    public int replica(int conversation) {
        int total = weights.stream().mapToInt(Integer::intValue).sum();
        int step = Math.floorMod(conversation, total);
        int[] current = new int[weights.size()];
        int chosen = 0;
        for (int s = 0; s <= step; s++) {
            chosen = 0;
            for (int i = 0; i < current.length; i++) {
                current[i] += weights.get(i);
                if (current[i] > current[chosen]) {
                    chosen = i;
                }
            }
            current[chosen] -= total;
        }
        return chosen;
    }
}
