package io.servebench.load;

import io.servebench.workload.RequestSpec;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A workload drawn a conversation at a time: a first turn with the later turns that follow it ({@link
 * RequestSpec#turn()} above 0), so that the first goes out on the arrival schedule and each later one when the turn
 * before it has ended. A single-turn workload is conversations of one turn. Used by one thread.
 */
final class Conversations {

    private final Iterator<RequestSpec> supply;
    private RequestSpec ahead;

    Conversations(Iterator<RequestSpec> supply) {
        this.supply = supply;
    }

    boolean hasNext() {
        return ahead != null || supply.hasNext();
    }

    /**
     * The next conversation's turns, at most {@code limit} of them (a workload cut short cuts its last
     * conversation); each marked warm-up when {@code warmup} says so of its position in the workload.
     *
     * @param drawn  requests drawn before this conversation
     * @param warmup whether the request at a position is a warm-up one
     */
    List<RequestSpec> next(int drawn, int limit, java.util.function.IntPredicate warmup) {
        List<RequestSpec> turns = new ArrayList<>(1);
        RequestSpec first = ahead != null ? ahead : supply.next();
        ahead = null;
        turns.add(first.withWarmup(warmup.test(drawn)));
        while (turns.size() < limit && supply.hasNext()) {
            RequestSpec later = supply.next();
            if (later.turn() == 0) {
                ahead = later;
                break;
            }
            turns.add(later.withWarmup(warmup.test(drawn + turns.size())));
        }
        return turns;
    }
}
