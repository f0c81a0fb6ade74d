package io.servebench.truth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The server's running record of one request, written by the event loop and read by any thread through
 * {@link #snapshot()}; every access is synchronized (uncontended, so cheap).
 */
final class RequestTruth {

    private final String requestId;
    private final long receivedNs;
    private int httpStatus;
    private int completionTokens;
    private long[] writtenNs = new long[16];
    private long[] dueNs = new long[16];
    private int[] tokens = new int[16];
    private boolean[] reasoning = new boolean[16];
    private int events;
    private boolean finished;
    private String error;
    private long failedNs;

    RequestTruth(String requestId, long receivedNs) {
        this.requestId = requestId;
        this.receivedNs = receivedNs;
    }

    /** @param completionTokens the tokens the response will carry: at most that many events are recorded */
    synchronized void respond(int status, int completionTokens) {
        this.httpStatus = status;
        this.completionTokens = completionTokens;
        if (completionTokens > writtenNs.length) {
            // sized once, so that a long response does not regrow (and leave garbage) event by event
            writtenNs = Arrays.copyOf(writtenNs, completionTokens);
            dueNs = Arrays.copyOf(dueNs, completionTokens);
            tokens = Arrays.copyOf(tokens, completionTokens);
            reasoning = Arrays.copyOf(reasoning, completionTokens);
        }
    }

    synchronized void eventWritten(long nowNs, long due, int eventTokens, boolean isReasoning) {
        if (events == writtenNs.length) {
            int grown = events * 2;
            writtenNs = Arrays.copyOf(writtenNs, grown);
            dueNs = Arrays.copyOf(dueNs, grown);
            tokens = Arrays.copyOf(tokens, grown);
            reasoning = Arrays.copyOf(reasoning, grown);
        }
        writtenNs[events] = nowNs;
        dueNs[events] = due;
        tokens[events] = eventTokens;
        reasoning[events] = isReasoning;
        events++;
    }

    synchronized void finish(String failure) {
        finished = true;
        if (error == null) {
            error = failure;
        }
        notifyAll();
    }

    /**
     * The record once the response has ended, or as it stands after {@code timeoutNs}: a client that read the
     * last event can get there before the event loop has noted when that write returned.
     */
    synchronized TruthRecord awaitFinished(long timeoutNs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNs;
        for (long left = timeoutNs; !finished && left > 0; left = deadline - System.nanoTime()) {
            wait(Math.max(1, left / 1_000_000));
        }
        return snapshot();
    }

    /** Records {@code failure} unless the response already ended. */
    synchronized void fail(String failure) {
        if (!finished && error == null) {
            error = failure;
            failedNs = System.nanoTime();
        }
    }

    synchronized TruthRecord snapshot() {
        List<SentEvent> list = new ArrayList<>(events);
        for (int i = 0; i < events; i++) {
            list.add(new SentEvent(writtenNs[i], tokens[i], reasoning[i], dueNs[i]));
        }
        return new TruthRecord(requestId, receivedNs, httpStatus, completionTokens, list, finished, error, failedNs);
    }
}
