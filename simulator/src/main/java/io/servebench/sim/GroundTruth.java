package io.servebench.sim;

import io.servebench.truth.SentEvent;
import io.servebench.truth.ServerTruth;

import java.util.List;

/**
 * What the simulated engine knows about one request it served: when it arrived and when each token
 * event left. All times are {@link System#nanoTime()} values of the engine's JVM.
 *
 * <p>For a stream, each {@link SentEvent} is one SSE event carrying tokens, timed right after it was
 * written and flushed to the socket; role-only and usage-only chunks are not token events. For a
 * non-streaming response there is one event per kind of text (reasoning, content), all timed after the
 * whole body was flushed.
 *
 * @param requestId          the {@code X-Request-Id} header, or the id the engine made up
 * @param receivedNs         when the engine's handler started on the request (headers parsed)
 * @param httpStatus         the status sent
 * @param streamed           whether the response was an SSE stream
 * @param promptTokens       prompt tokens as reported in {@code usage.prompt_tokens} (0 for a rejected request)
 * @param completionTokens   tokens sent (the sum of the events' tokens)
 * @param cachedPromptTokens prompt tokens served from the prefix cache at first admission
 * @param preemptions        times the request was preempted and recomputed
 * @param events             token events in the order sent
 * @param error              why the request was rejected or failed, {@code null} when it completed
 */
public record GroundTruth(
        String requestId,
        long receivedNs,
        int httpStatus,
        boolean streamed,
        int promptTokens,
        int completionTokens,
        int cachedPromptTokens,
        int preemptions,
        List<SentEvent> events,
        String error) implements ServerTruth {

    public GroundTruth {
        events = List.copyOf(events);
    }
}
