package io.servebench.load;

/**
 * When and why one run stopped sending, by its {@link StopConditions}: the bookkeeping the load generator
 * and its virtual twin share. Times are on the run's clock, nanoseconds.
 */
final class StopTracker {

    private final StopConditions conditions;
    private final long t0;
    private LoadResult.StopReason reason = LoadResult.StopReason.COMPLETED;
    private long stoppedNs = RequestRecord.NONE;
    private int failedAtStop;
    private String detail;

    /** @param t0 the run's start instant */
    StopTracker(StopConditions conditions, long t0) {
        this.conditions = conditions;
        this.t0 = t0;
    }

    /** Whether a stop condition holds at {@code nowNs} with {@code failed} requests failed; if so, records why. */
    boolean stopsAt(long nowNs, int failed) {
        return stopsAt(nowNs, failed, java.util.Optional.empty());
    }

    /**
     * Whether a stop condition holds at {@code nowNs} with {@code failed} requests failed, or the run is asked to stop
     * for {@code aborted}; if so, records why.
     */
    boolean stopsAt(long nowNs, int failed, java.util.Optional<String> aborted) {
        return stopsAt(nowNs, failed, aborted, java.util.Optional.empty());
    }

    /**
     * Whether a stop condition holds at {@code nowNs} with {@code failed} requests failed, the run is asked to stop for
     * {@code aborted}, or the server is over-saturated for {@code saturated}; if so, records why.
     */
    boolean stopsAt(long nowNs, int failed, java.util.Optional<String> aborted, java.util.Optional<String> saturated) {
        if (reason == LoadResult.StopReason.ABORTED || reason == LoadResult.StopReason.SATURATED
                || reason == LoadResult.StopReason.INTERRUPTED) {
            return true;
        }
        if (aborted.isPresent()) {
            reason = LoadResult.StopReason.ABORTED;
            detail = aborted.get();
        } else if (saturated.isPresent()) {
            reason = LoadResult.StopReason.SATURATED;
            detail = saturated.get();
        } else if (conditions.maxErrors() > 0 && failed >= conditions.maxErrors()) {
            reason = LoadResult.StopReason.ERRORS;
        } else if (conditions.maxDuration() != null && nowNs - t0 >= conditions.maxDuration().toNanos()) {
            reason = LoadResult.StopReason.DURATION;
        } else {
            return false;
        }
        failedAtStop = failed;
        stoppedNs = nowNs;
        return true;
    }

    /**
     * The run was interrupted ({@link Interruption}) at {@code nowNs}, {@code failed} requests failed by then: it stops
     * for that, also when sending had ended (every request sent, or a stop condition held) but requests were still in
     * flight, since they are called off: the load is cut short either way.
     *
     * @return true: an interrupted run sends nothing more
     */
    boolean interruptedAt(long nowNs, int failed, String cause) {
        if (reason != LoadResult.StopReason.INTERRUPTED) {
            reason = LoadResult.StopReason.INTERRUPTED;
            detail = cause;
            failedAtStop = failed;
            stoppedNs = nowNs;
        }
        return true;
    }

    /** Sending ended with every request sent, at {@code lastNs}. */
    void completedAt(long lastNs) {
        stoppedNs = lastNs;
    }

    /**
     * How sending ended.
     *
     * @param planned requests the run meant to send, warm-up included
     * @param sent    requests sent
     * @param failed  requests failed by the end of the run
     */
    LoadResult.Stop stop(int planned, int sent, int failed) {
        double elapsed = stoppedNs == RequestRecord.NONE ? 0 : Math.max(0, stoppedNs - t0) / 1e9;
        if (reason == LoadResult.StopReason.DURATION) {
            elapsed = conditions.maxDuration().toNanos() / 1e9;
        }
        if (reason == LoadResult.StopReason.COMPLETED) {
            // every request there was went out, even when the supply held fewer than planned
            return new LoadResult.Stop(reason, sent, sent, failed, elapsed, null);
        }
        return new LoadResult.Stop(reason, Math.max(planned, sent), sent, failedAtStop, elapsed, detail);
    }
}
