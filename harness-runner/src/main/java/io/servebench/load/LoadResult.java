package io.servebench.load;

import java.util.List;

/**
 * Everything one run of the load generator measured.
 *
 * @param records          one record per request, warm-up included, in id order
 * @param measuredStartNs  the earliest intended send time of a measured (non-warm-up) request,
 *                         {@link RequestRecord#NONE} when there was none: the start of the measurement window
 * @param measuredEndNs    the latest {@code doneNs} of a measured request, failed ones included,
 *                         {@link RequestRecord#NONE} when there was none: the end of the measurement window
 */
public record LoadResult(List<RequestRecord> records, long measuredStartNs, long measuredEndNs) {
    public LoadResult {
        records = List.copyOf(records);
    }
}
