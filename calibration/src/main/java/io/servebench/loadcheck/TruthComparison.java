package io.servebench.loadcheck;

import io.servebench.load.LoadListener;
import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.measure.SloParams;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.results.RepetitionResult;
import io.servebench.truth.SentEvent;
import io.servebench.truth.ServerTruth;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/**
 * A client's request records side by side with what the truth server did, taken as requests complete: per-request and
 * per-event timing errors, and the truth itself aggregated as the client's records are. A thread of its own takes
 * each completed record, fetches (and so lets go of) the server's truth of it and compares; the I/O threads that
 * complete requests never wait for a truth. What it keeps does not grow with the run: histograms of the errors and
 * the aggregation of the truth.
 */
final class TruthComparison implements LoadListener, AutoCloseable {

    /** The record that ends the comparer's work. */
    private static final RequestRecord END = new RequestRecord(-1, true, 0, 0, RequestRecord.NONE, RequestRecord.NONE,
            RequestRecord.NONE, 0, 0, 0, TokenSource.USAGE, new long[0], new int[0], TokenSource.USAGE, 0, 0, 0, "end");

    private final BiFunction<String, Duration, Optional<? extends ServerTruth>> takeTruth;
    private final Duration wait;
    private final MetricsAggregator.Running truth;
    private final LinkedBlockingQueue<RequestRecord> completed = new LinkedBlockingQueue<>();
    private final Thread comparer;
    private final SignedSamples ttftErrors = new SignedSamples();
    private final SignedSamples eventDelays = new SignedSamples();
    private final SignedSamples absItlErrors = new SignedSamples();
    private long unmatched;
    private volatile RuntimeException failure;

    /**
     * @param takeTruth the server's truth of a request id, waited for up to the given time and let go of
     * @param wait      how long to wait for a truth at most
     * @param clock     the clock of the run, for the truth's aggregation ({@link MetricsAggregator#start})
     */
    public TruthComparison(BiFunction<String, Duration, Optional<? extends ServerTruth>> takeTruth, Duration wait,
                           LongSupplier clock) {
        this.takeTruth = takeTruth;
        this.wait = wait;
        this.truth = new MetricsAggregator().start(SloParams.NONE, clock);
        this.comparer = new Thread(this::compareAll, "servebench-truth-comparison");
        comparer.setDaemon(true);
        comparer.start();
    }

    @Override
    public void onSend(long id) {
        truth.onSend(id);
    }

    @Override
    public void onSend(long id, long handedOverNs) {
        truth.onSend(id, handedOverNs);
    }

    @Override
    public void onComplete(RequestRecord record) {
        completed.add(record);
    }

    private void compareAll() {
        try {
            for (RequestRecord r = completed.take(); r != END; r = completed.take()) {
                compare(r);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private void compare(RequestRecord r) {
        Optional<? extends ServerTruth> found = takeTruth.apply(Long.toString(r.id()), wait);
        if (r.warmup() || !r.succeeded()) {
            truth.withdraw(r.id());
            return;
        }
        if (found.isEmpty() || found.get().events().size() != r.eventTimesNs().length) {
            unmatched++;
            truth.withdraw(r.id());
            return;
        }
        ServerTruth t = found.get();
        long[] client = r.eventTimesNs();
        ttftErrors.add(r.firstTokenNs() - t.firstEventNs());
        for (int k = 0; k < client.length; k++) {
            long written = t.events().get(k).writtenNs();
            eventDelays.add(client[k] - written);
            if (k > 0) {
                absItlErrors.add(Math.abs((client[k] - client[k - 1]) - (written - t.events().get(k - 1).writtenNs())));
            }
        }
        truth.onComplete(asRequestRecord(t, r.id(), r.intendedNs()));
    }

    /** Waits for every record completed so far to be compared. */
    @Override
    public void close() {
        completed.add(END);
        try {
            comparer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Per successful request with a truth: the client's first-token time less the server's write of it, ns. */
    SignedSamples ttftErrors() {
        return ttftErrors;
    }

    /** Per token event matched by position: the client's time of it less the server's write of it, ns. */
    public SignedSamples eventDelays() {
        return eventDelays;
    }

    /** Per token event after the first: how far the client's gap to the one before is from the server's, ns. */
    SignedSamples absItlErrors() {
        return absItlErrors;
    }

    /** Successful requests without a truth, or whose event count differs from the truth's. */
    public long unmatched() {
        return unmatched;
    }

    /** The truths of the successful requests, aggregated as the client's records are: the true metrics. */
    public RepetitionResult truth() {
        return truth.finish();
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
}
