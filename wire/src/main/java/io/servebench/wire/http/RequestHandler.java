package io.servebench.wire.http;

/**
 * Answers requests. Called on the connection's event loop, one request of a connection at a time: the next
 * request on the same connection waits until this one's response has ended. It must not block; work that takes
 * time answers later through the {@link Responder}, from any thread.
 */
@FunctionalInterface
public interface RequestHandler {

    /** Answers {@code request} through {@code responder}, now or later, exactly once. */
    void handle(ServerRequest request, Responder responder);
}
