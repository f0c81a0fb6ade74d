package io.servebench.workload;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/** A token counter that also counts its own calls: what a dataset's build counted, and when. */
final class CallCountingCounter implements ToIntFunction<String> {

    private final ToIntFunction<String> counter;
    private final AtomicInteger calls = new AtomicInteger();

    CallCountingCounter(ToIntFunction<String> counter) {
        this.counter = counter;
    }

    @Override
    public int applyAsInt(String text) {
        calls.incrementAndGet();
        return counter.applyAsInt(text);
    }

    /** The texts counted so far. */
    int calls() {
        return calls.get();
    }
}
