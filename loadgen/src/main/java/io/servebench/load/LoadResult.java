package io.servebench.load;

import io.servebench.http.CpuTime;
import io.servebench.http.PoolStats;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What one run of the load generator did as a whole. Its records went to the run's {@link LoadListener} as they
 * completed and are not kept ({@link RecordCollector} keeps them for who wants them all).
 *
 * @param measuredStartNs  the earliest intended send time of a measured (non-warm-up) request,
 *                         {@link RequestRecord#NONE} when there was none: the start of the measurement window
 * @param measuredEndNs    the latest {@code doneNs} of a measured request, failed ones included,
 *                         {@link RequestRecord#NONE} when there was none: the end of the measurement window
 * @param stop             why sending ended
 * @param connections      what the connection pool did: sends that waited for a connection, connect failures
 * @param clientCpu        CPU time of the sending thread over the run and of the client's I/O threads over
 *                         their life, warm-up included (completion listeners run on the I/O threads)
 */
public record LoadResult(long measuredStartNs, long measuredEndNs, Stop stop, PoolStats connections, CpuTime clientCpu) {

    public LoadResult {
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(connections, "connections");
        Objects.requireNonNull(clientCpu, "clientCpu");
    }

    /** Why a run stopped sending. */
    public enum StopReason {
        /** Every planned request went out. */
        COMPLETED,
        /** {@link StopConditions#maxDuration()} passed. */
        DURATION,
        /** {@link StopConditions#maxErrors()} requests failed. */
        ERRORS,
        /** The run's listener asked it to stop ({@link LoadListener#stopReason()}): its records could not be kept. */
        ABORTED,
        /** The server was over-saturated ({@link StopConditions#saturationWindow()}, {@link SaturationDetector}). */
        SATURATED,
        /** The run was interrupted ({@link Interruption}): nothing more sent, the requests in flight called off. */
        INTERRUPTED
    }

    /**
     * How sending ended.
     *
     * @param reason         why
     * @param planned        requests the run would have sent without a stop condition, warm-up included
     * @param sent           requests actually sent, warm-up included
     * @param failed         requests that had failed when sending stopped, warm-up included
     * @param elapsedSeconds seconds from the start instant to the moment sending stopped (the last send for
     *                       {@link StopReason#COMPLETED})
     * @param detail         for {@link StopReason#ABORTED}, {@link StopReason#SATURATED} and
     *                       {@link StopReason#INTERRUPTED}, why; {@code null} otherwise
     */
    public record Stop(StopReason reason, int planned, int sent, int failed, double elapsedSeconds, String detail) {

        /**
         * One sentence for reports when the run stopped early, e.g. {@code stopped after 60 s (duration
         * limit): 480 of 1000 requests sent}; empty when every request went out.
         */
        public Optional<String> note() {
            return switch (reason) {
                case COMPLETED -> Optional.empty();
                case DURATION -> Optional.of(String.format(Locale.ROOT,
                        "stopped after %.3g s (duration limit): %d of %d requests sent", elapsedSeconds, sent, planned));
                case ERRORS -> Optional.of(String.format(Locale.ROOT,
                        "aborted after %d failed requests (error limit) at %.3g s: %d of %d requests sent",
                        failed, elapsedSeconds, sent, planned));
                case ABORTED -> Optional.of(String.format(Locale.ROOT, "stopped at %.3g s (%s): %d of %d requests sent",
                        elapsedSeconds, detail, sent, planned));
                case SATURATED -> Optional.of(String.format(Locale.ROOT, "stopped sending at %.3g s, %s: %d of %d "
                        + "requests sent, those in flight finished", elapsedSeconds, detail, sent, planned));
                case INTERRUPTED -> Optional.of(String.format(Locale.ROOT, "interrupted at %.3g s (%s): %d of %d "
                        + "requests sent, those in flight called off", elapsedSeconds, detail, sent, planned));
            };
        }
    }
}
