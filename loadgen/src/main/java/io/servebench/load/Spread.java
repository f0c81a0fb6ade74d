package io.servebench.load;

import java.util.ArrayList;
import java.util.List;

/**
 * How a load's requests are spread over the replicas of one engine: round robin, or by weights, as a load balancer
 * does. A conversation goes to one replica whole (its turns share a prefix cache there), and which one depends on its
 * place in the load alone: the smooth weighted round robin of nginx, so that weights 3 and 1 send a, a, b, a, a, a, b,
 * a... and never three to one in a row where two would do. The cycle is worked out once, so that choosing a
 * request's replica, on the send path, is a lookup.
 */
public final class Spread {

    private final List<Integer> weights;
    /** The replica of each place in one cycle of the smooth weighted round robin (as long as the weights' sum). */
    private final int[] cycle;

    /** @param weights each replica's weight, in the engine's order */
    public Spread(List<Integer> weights) {
        this.weights = List.copyOf(weights);
        if (this.weights.isEmpty() || this.weights.stream().anyMatch(w -> w < 1)) {
            throw new IllegalArgumentException("a spread needs at least one replica and weights >= 1, got " + weights);
        }
        int total = this.weights.stream().mapToInt(Integer::intValue).sum();
        cycle = new int[total];
        int[] current = new int[this.weights.size()];
        for (int s = 0; s < total; s++) {
            int chosen = 0;
            for (int i = 0; i < current.length; i++) {
                current[i] += this.weights.get(i);
                if (current[i] > current[chosen]) {
                    chosen = i;
                }
            }
            current[chosen] -= total;
            cycle[s] = chosen;
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

    /** Each replica's weight, in the engine's order. */
    public List<Integer> weights() {
        return weights;
    }

    /** How many replicas. */
    public int replicas() {
        return weights.size();
    }

    /** The replica of the conversation whose first request is the {@code conversation}-th of the load. */
    public int replica(int conversation) {
        return cycle[Math.floorMod(conversation, cycle.length)];
    }
}
