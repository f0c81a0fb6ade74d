package io.servebench.http;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request on its way and the handler of its response. Finishing is claimed once: by the I/O thread
 * (end or failure), by the client's close, or by a sender that takes the request back because its write
 * failed before any byte left, to send it again on another connection.
 */
final class Exchange {

    final PreparedRequest request;
    final ResponseHandler handler;
    private final AtomicBoolean finished = new AtomicBoolean();
    /** The connection it was given to; under the pool's lock. */
    Connection carrier;

    Exchange(PreparedRequest request, ResponseHandler handler) {
        this.request = request;
        this.handler = handler;
    }

    boolean isFinished() {
        return finished.get();
    }

    void end(long nowNs) {
        if (finished.compareAndSet(false, true)) {
            handler.end(nowNs);
        }
    }

    void fail(HttpFailure failure, String detail, long nowNs) {
        if (finished.compareAndSet(false, true)) {
            handler.failed(failure, detail, nowNs);
        }
    }

    /** Ends it without calling the handler (it aborted, or it is sent again as a new exchange). */
    boolean withdraw() {
        return finished.compareAndSet(false, true);
    }
}
