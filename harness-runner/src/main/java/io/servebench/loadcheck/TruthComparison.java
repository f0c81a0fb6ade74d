package io.servebench.loadcheck;

import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.truth.SentEvent;
import io.servebench.truth.ServerTruth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A client's request records side by side with what the {@link TruthServer} did: per-request and
 * per-event timing errors, and the truth itself as request records that the metrics aggregator can turn
 * into the true metrics.
 *
 * @param ttftErrorsNs    per successful request with a truth: the client's first-token time minus the
 *                        server's write time of the first token event
 * @param eventDelaysNs   per token event matched by position: the client's time of the event minus the
 *                        server's write time of it
 * @param itlErrorsNs     per token event after the first: the client's gap to the previous event minus the
 *                        server's gap between their writes
 * @param unmatched       successful requests without a truth or whose event count differs from the truth's
 * @param truthRecords    the truth of every successful request as a {@link RequestRecord}: intended time as the
 *                        client's, sent = received by the server, event times = write times, tokens from the
 *                        server ({@link TokenSource#USAGE})
 */
public record TruthComparison(long[] ttftErrorsNs, long[] eventDelaysNs, long[] itlErrorsNs, int unmatched,
                              List<RequestRecord> truthRecords) {

    /**
     * Compares {@code records} with the truths {@code truthOf} returns for their ids (as strings).
     * Failed and warm-up records are skipped.
     */
    public static TruthComparison of(List<RequestRecord> records, Function<String, Optional<? extends ServerTruth>> truthOf) {
        LongList ttft = new LongList();
        LongList delays = new LongList();
        LongList itl = new LongList();
        int unmatched = 0;
        List<RequestRecord> truths = new ArrayList<>();
        for (RequestRecord r : records) {
            if (r.warmup() || !r.succeeded()) {
                continue;
            }
            Optional<? extends ServerTruth> found = truthOf.apply(Long.toString(r.id()));
            if (found.isEmpty() || found.get().events().size() != r.eventTimesNs().length) {
                unmatched++;
                continue;
            }
            ServerTruth t = found.get();
            long[] client = r.eventTimesNs();
            ttft.add(r.firstTokenNs() - t.firstEventNs());
            for (int k = 0; k < client.length; k++) {
                long written = t.events().get(k).writtenNs();
                delays.add(client[k] - written);
                if (k > 0) {
                    itl.add((client[k] - client[k - 1]) - (written - t.events().get(k - 1).writtenNs()));
                }
            }
            truths.add(asRequestRecord(t, r.id(), r.intendedNs()));
        }
        return new TruthComparison(ttft.toArray(), delays.toArray(), itl.toArray(), unmatched, truths);
    }

    /**
     * The truth as the request record a perfect client would have made: sent when the server received
     * it, each token event at its write time, every count exact.
     */
    public static RequestRecord asRequestRecord(ServerTruth t, long id, long intendedNs) {
        int n = t.events().size();
        long[] times = new long[n];
        int[] tokens = new int[n];
        long firstContent = RequestRecord.NONE;
        for (int k = 0; k < n; k++) {
            SentEvent e = t.events().get(k);
            times[k] = e.writtenNs();
            tokens[k] = e.tokens();
            if (!e.reasoning() && firstContent == RequestRecord.NONE) {
                firstContent = e.writtenNs();
            }
        }
        long first = n == 0 ? RequestRecord.NONE : times[0];
        long last = n == 0 ? RequestRecord.NONE : times[n - 1];
        int maxPerWrite = 0;
        int coalesced = 0;
        for (int k = 0, run = 0; k < n; k++) {
            run = k > 0 && times[k] == times[k - 1] ? run + 1 : 1;
            coalesced += run > 1 ? 1 : 0;
            maxPerWrite = Math.max(maxPerWrite, run);
        }
        return new RequestRecord(id, false, intendedNs, t.receivedNs(), first, firstContent, last, last, 0,
                t.tokensWritten(), TokenSource.USAGE, times, tokens, TokenSource.USAGE, maxPerWrite, coalesced,
                t.httpStatus(), t.error());
    }

    /** The {@code q}-quantile (0..1, nearest rank) of {@code values}, NaN when empty. */
    public static double quantile(long[] values, double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    /** A growable {@code long[]}: keeps a million event samples without boxing. */
    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
