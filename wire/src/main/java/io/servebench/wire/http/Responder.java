package io.servebench.wire.http;

import java.util.Map;
import java.util.function.Consumer;

/**
 * The way back to the client of one request. A response is either written whole ({@link #send}) or streamed
 * ({@link #stream}); exactly one of them is called once. Every method may be called from any thread; the writes
 * themselves happen on the connection's event loop, in the order they were asked for.
 */
public interface Responder {

    /** Writes a whole response: {@code status}, the headers (content-length is added), {@code body}. */
    void send(int status, Map<String, String> headers, byte[] body);

    /** {@link #send} with one header, {@code Content-Type}; a {@code null} type sends none. */
    default void send(int status, String contentType, byte[] body) {
        send(status, contentType == null ? Map.of() : Map.of("Content-Type", contentType), body);
    }

    /**
     * Starts a chunked response: its head is queued at once (sent with the first flush) and its chunks follow
     * through the stream.
     */
    ResponseStream stream(int status, Map<String, String> headers);

    /** Runs {@code task} on the connection's event loop, where a stream may be written. */
    void execute(Runnable task);

    /**
     * Runs {@code task} on the connection's event loop at {@code atNs} ({@link System#nanoTime()}), or at once
     * when that has passed. A responder's tasks run in the order they were scheduled, so their due times must
     * not decrease (a stream's writes, in order).
     */
    void schedule(long atNs, Runnable task);

    /**
     * Tells {@code listener}, once, on the event loop, when the connection closes before this request's
     * response has ended (the client went away, or the server stopped), with the reason.
     */
    void onAbandoned(Consumer<String> listener);
}
