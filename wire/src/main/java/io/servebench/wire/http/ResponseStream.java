package io.servebench.wire.http;

import java.util.function.LongConsumer;

/**
 * A response being streamed as HTTP/1.1 chunks. Used on the connection's event loop only ({@link Responder#execute}
 * and {@link Responder#schedule} get there): chunks are queued, and a {@link #flush} hands everything queued to
 * the kernel in one write where it fits.
 */
public interface ResponseStream {

    /** Queues {@code bytes} as one chunk; the array is the stream's from now on and must not change. */
    void chunk(byte[] bytes);

    /** Queues a copy of {@code bytes[offset, offset + length)} as one chunk. */
    void chunk(byte[] bytes, int offset, int length);

    /**
     * Writes what is queued; {@code written} gets the time ({@link System#nanoTime()}) the last of it reached
     * the kernel, on the event loop, at once when the socket took it all. Not called when the connection fails
     * first (the responder's abandon listener is).
     */
    void flush(LongConsumer written);

    /** Writes what is queued and the end of the body; the connection carries the next request after it. */
    void end(LongConsumer written);

    /** Closes the connection without ending the body: a server that breaks off. */
    void abort();

    /** Whether the connection is still open. */
    boolean isOpen();
}
