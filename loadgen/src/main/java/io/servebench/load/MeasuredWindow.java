package io.servebench.load;

import io.servebench.http.CpuTime;
import io.servebench.http.PoolStats;

/**
 * The measurement window of a run as its records complete, without keeping them: from the earliest intended send
 * of a measured request to the latest end of one. Thread-safe.
 */
final class MeasuredWindow {

    private long startNs = RequestRecord.NONE;
    private long endNs = RequestRecord.NONE;

    synchronized void add(RequestRecord r) {
        if (!r.warmup()) {
            startNs = startNs == RequestRecord.NONE ? r.intendedNs() : Math.min(startNs, r.intendedNs());
            endNs = endNs == RequestRecord.NONE ? r.doneNs() : Math.max(endNs, r.doneNs());
        }
    }

    /** The run's result with this window. */
    synchronized LoadResult result(LoadResult.Stop stop, PoolStats connections, CpuTime clientCpu) {
        return new LoadResult(startNs, endNs, stop, connections, clientCpu);
    }
}
