package io.servebench.http;

/** A request in flight on an {@link Http1Client}, which the caller may call off before its response ends. */
public final class Call {

    private final Pool pool;
    /** The exchange that carries the request now: a write refused by a closing connection sends it again. */
    volatile Exchange current;

    Call(Pool pool) {
        this.pool = pool;
    }

    /**
     * Ends the request now as {@code failure} ({@link HttpFailure#CLIENT_CANCEL} or {@link HttpFailure#DEADLINE}), its
     * handler told so with {@code detail}, unless it has ended already: a request waiting for a connection leaves the
     * line, one on a connection closes it, as a client that goes away does. Any thread.
     */
    public void abort(HttpFailure failure, String detail) {
        Exchange x = current;
        if (x != null && !x.isFinished()) {
            pool.abort(x, failure, detail);
        }
    }
}
