package io.servebench.execution;

import io.servebench.load.LoadListener;
import io.servebench.load.RequestRecord;

import java.util.Arrays;

/** The intended send times of a load's measured requests, for the request rate beside its GPUs' timeline. */
final class IntendedSends implements LoadListener {

    private long[] times = new long[1024];
    private int size;

    @Override
    public synchronized void onComplete(RequestRecord record) {
        if (record.warmup()) {
            return;
        }
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
        }
        times[size++] = record.intendedNs();
    }

    /** The times so far, ns, in completion order. */
    synchronized long[] times() {
        return Arrays.copyOf(times, size);
    }
}
