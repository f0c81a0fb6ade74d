package io.servebench.http;

/**
 * A connection's HTTP/1.1 response decoder without the socket, for {@link io.servebench.load.EventPath}: a test fixture
 * in the decoder's own package (and the load generator's test jar), so that nothing outside the module needs its
 * package-private parts.
 */
public final class DecoderDriver {

    private final ResponseDecoder decoder = new ResponseDecoder();

    /** Starts a new response for {@code handler}. */
    public void reset(ResponseHandler handler) {
        decoder.reset(handler);
    }

    /**
     * Feeds one read; returns whether the response is complete.
     *
     * @throws IllegalStateException when the bytes break HTTP/1.1 framing or the handler aborted
     */
    public boolean feed(byte[] bytes, int offset, int length, long readNs) {
        try {
            ResponseDecoder.Outcome outcome = decoder.feed(bytes, offset, length, readNs);
            if (outcome == ResponseDecoder.Outcome.ABORTED) {
                throw new IllegalStateException("the handler aborted the response");
            }
            return outcome == ResponseDecoder.Outcome.COMPLETE;
        } catch (HttpProtocolException e) {
            throw new IllegalStateException(e);
        }
    }
}
