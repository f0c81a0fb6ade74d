package io.servebench.http;

/**
 * Receives one exchange: the send stamp, the response head, the body bytes as they are read, and how it
 * ended. Every call but {@link #sent} comes from the connection's I/O thread, one at a time, so an
 * implementation needs no locking for its own state beyond making it visible to whoever reads the
 * outcome. Exactly one of {@link #end} and {@link #failed} is called, once, unless {@link #body} returned
 * false.
 */
public interface ResponseHandler {

    /**
     * The request is handed to the socket at {@code sentNs} ({@link System#nanoTime()}), stamped and told
     * just before the write, since the response may be read on the I/O thread before the write returns.
     * Called by the sending thread when the request goes out at once on a pooled connection, else by the
     * I/O thread that writes it once a connection is free. When the socket refuses the write (a
     * connection the server had just closed), it is called again for the next connection tried: the
     * last call counts.
     */
    void sent(long sentNs);

    /** The final (non-1xx) response head arrived; {@code contentType} is {@code null} when absent. */
    void head(int status, String contentType);

    /**
     * Body bytes, de-chunked, from the socket read that began at {@code readNs}. Several calls may share
     * one read (one per HTTP chunk). The array is the I/O thread's own buffer, valid during the call only.
     *
     * @return false to abort: the connection is closed and nothing more is called
     */
    boolean body(byte[] bytes, int offset, int length, long readNs);

    /** The body ended as its framing says, at {@code endNs}. */
    void end(long endNs);

    /** The exchange failed at {@code nowNs}; {@code detail} says how, for a person. */
    void failed(HttpFailure failure, String detail, long nowNs);
}
