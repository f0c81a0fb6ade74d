package io.servebench.load;

import java.util.List;

/**
 * A server on a virtual clock, which {@link VirtualLoad} sends to instead of a socket: the simulated engine, adapted
 * by the runner, so that the load generator knows no simulator. Times are nanoseconds on the server's clock.
 */
public interface VirtualServer {

    /** The server's clock now, ns. */
    long clockNs();

    /** Takes the request {@code requestId}, its JSON {@code body} sent at {@code arrivalNs} to the chat or completions API. */
    void submit(String requestId, long arrivalNs, boolean chat, byte[] body);

    /**
     * Runs the steps that start before {@code untilNs} until at least one request has completed, and returns those
     * that did in the order they completed; empty when no step is left to start before {@code untilNs}. A rejected
     * request completes at its arrival.
     */
    List<Reply> advance(long untilNs);

    /**
     * What the server sent one request, as its client would have read it.
     *
     * @param receivedNs       when the request's reply ended, ns
     * @param httpStatus       the reply's status (200 for a stream, however it ended)
     * @param promptTokens     {@code usage.prompt_tokens}
     * @param completionTokens {@code usage.completion_tokens}
     * @param events           the stream's token events in the order sent
     * @param error            why the request was rejected or its stream failed, {@code null} when it completed
     */
    record Reply(String requestId, long receivedNs, int httpStatus, int promptTokens, int completionTokens,
                 List<Event> events, String error) {
        public Reply {
            events = List.copyOf(events);
        }
    }

    /** One token event: when it was written (ns), how many tokens it carried, and whether they were reasoning. */
    record Event(long writtenNs, int tokens, boolean reasoning) {
    }
}
