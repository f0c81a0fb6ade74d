package io.servebench.truth;

import java.time.Duration;
import java.util.Objects;

/**
 * What the {@link TruthServer} does with every streaming request: when it writes which tokens, in which
 * chunk shapes, and how it fails. Immutable; start from {@link #defaults()} and change fields with the
 * {@code with...} methods.
 *
 * <p>Timeline of one request received at {@code r}: the response head (and the role-only chunk, when on)
 * is written at once; write {@code w} (0-based) is due at {@code r + ttft + w * gap}, plus the stall's
 * length for every write after the stall point. Each write carries {@code eventsPerWrite} token events in
 * one socket write, each event its own HTTP chunk. The last write also carries the final usage chunk (when
 * on), {@code data: [DONE]} and the end of the chunked body.
 *
 * @param ttft             from the request's arrival to the first token event's write
 * @param gap              between consecutive writes (between events when {@code eventsPerWrite} is 1)
 * @param tokensPerEvent   tokens in each token event (the last event of a phase may carry fewer), {@code >= 1}
 * @param tokensPerRequest tokens per response, {@code >= 1}; 0 to take the request's {@code max_tokens}
 * @param roleChunk        send vLLM's role-only first chunk ({@code delta.role}, empty content) with the head
 * @param reasoningTokens  tokens sent as {@code delta.reasoning_content} before the content (chat API; the
 *                         completions API has no reasoning field and sends them as {@code text})
 * @param usage            which usage the stream carries
 * @param eventsPerWrite   token events written together in one socket write, {@code >= 1}: forces reads that
 *                         hold several events
 * @param stall            a pause inside some responses, {@link Stall#NONE} for none
 * @param failure          how every response fails, {@link Failure#NONE} for never
 */
public record Script(Duration ttft, Duration gap, int tokensPerEvent, int tokensPerRequest, boolean roleChunk,
                     int reasoningTokens, Usage usage, int eventsPerWrite, Stall stall, Failure failure) {

    /** Which usage counts the stream carries. */
    public enum Usage {
        /** None at all: a client must count tokens itself. */
        NONE,
        /** One usage-only chunk ({@code "choices": []}) before {@code [DONE]}, as {@code include_usage} asks. */
        FINAL,
        /** Cumulative usage on every token event (vLLM's {@code continuous_usage_stats}) and the final chunk. */
        CONTINUOUS
    }

    /**
     * After the write that completes token event {@code afterEvent} (counted from 1), the response pauses
     * for {@code length} before its next write. Applies to the requests whose arrival number (counted from
     * 1 over the server's life) is a multiple of {@code everyNthRequest}: 1 stalls every request.
     */
    public record Stall(int afterEvent, Duration length, int everyNthRequest) {
        /** No stall. */
        public static final Stall NONE = new Stall(Integer.MAX_VALUE, Duration.ZERO, 1);

        public Stall {
            Objects.requireNonNull(length, "length");
            if (afterEvent < 1) {
                throw new IllegalArgumentException("stall afterEvent must be >= 1 (a token event count), got " + afterEvent);
            }
            if (length.isNegative()) {
                throw new IllegalArgumentException("stall length must be >= 0, got " + length);
            }
            if (everyNthRequest < 1) {
                throw new IllegalArgumentException("stall everyNthRequest must be >= 1, got " + everyNthRequest);
            }
        }

        boolean appliesTo(long arrival) {
            return !length.isZero() && arrival % everyNthRequest == 0;
        }
    }

    /** How a response fails. */
    public sealed interface Failure {
        /** Never. */
        Failure NONE = new Never();

        /** The response is a complete success. */
        record Never() implements Failure {
        }

        /** An immediate non-streaming error response with this status and JSON body. */
        record HttpError(int status, String body) implements Failure {
            public HttpError {
                if (status < 400 || status > 599) {
                    throw new IllegalArgumentException("HttpError status must be 400..599, got " + status);
                }
                Objects.requireNonNull(body, "body");
            }
        }

        /** The connection is closed, without ending the body, right after token event {@code afterEvents} (0: after the head). */
        record CloseAfter(int afterEvents) implements Cut {
            public CloseAfter {
                requireCount("CloseAfter afterEvents", afterEvents);
            }
        }

        /** After token event {@code afterEvents}, an {@code {"error": {...}}} event, then {@code [DONE]}. */
        record ErrorPayload(int afterEvents, String message) implements Cut {
            public ErrorPayload {
                requireCount("ErrorPayload afterEvents", afterEvents);
                Objects.requireNonNull(message, "message");
            }
        }

        /**
         * After token event {@code afterEvents}, an {@code {"error": {...}}} event and then nothing: the stream stays
         * open until the client leaves, as an engine that reported a failure and hung.
         */
        record ErrorThenSilence(int afterEvents, String message) implements Cut {
            public ErrorThenSilence {
                requireCount("ErrorThenSilence afterEvents", afterEvents);
                Objects.requireNonNull(message, "message");
            }
        }

        /**
         * After token event {@code afterEvents} (0: before any), the stream ends as a whole one does (usage when on,
         * {@code [DONE]}, the last chunk), its last token event saying {@code finishReason}: a response cut short
         * ({@code "length"}: the context was full; {@code "abort"}: SGLang gave the request up), or with 0 an empty
         * one, that still looks finished.
         */
        record DoneAfter(int afterEvents, String finishReason) implements Cut {
            public DoneAfter {
                requireCount("DoneAfter afterEvents", afterEvents);
                Objects.requireNonNull(finishReason, "finishReason");
            }
        }

        /** After token event {@code afterEvents}, the chunked body ends without {@code [DONE]} or usage. */
        record EndWithoutDone(int afterEvents) implements Cut {
            public EndWithoutDone {
                requireCount("EndWithoutDone afterEvents", afterEvents);
            }
        }

        /** A whole {@code 200} response that is not an event stream: {@code contentType} and {@code body}. */
        record NotAnEventStream(String contentType, String body) implements Failure {
            public NotAnEventStream {
                Objects.requireNonNull(contentType, "contentType");
                Objects.requireNonNull(body, "body");
            }
        }

        /** The request is read and never answered, not even with a head, until the client gives up. */
        record NoAnswer() implements Failure {
        }

        /** A failure that breaks the response off after its first {@link #afterEvents()} token events. */
        sealed interface Cut extends Failure {
            int afterEvents();
        }

        /** How many token events a response with this failure writes at most, of {@code planned}. */
        default int eventLimit(int planned) {
            return this instanceof Cut c ? Math.min(planned, c.afterEvents()) : planned;
        }
    }

    public Script {
        requirePositive("ttft", ttft, true);
        requirePositive("gap", gap, true);
        if (tokensPerEvent < 1) {
            throw new IllegalArgumentException("tokensPerEvent must be >= 1, got " + tokensPerEvent);
        }
        requireCount("tokensPerRequest", tokensPerRequest);
        requireCount("reasoningTokens", reasoningTokens);
        Objects.requireNonNull(usage, "usage");
        if (eventsPerWrite < 1) {
            throw new IllegalArgumentException("eventsPerWrite must be >= 1, got " + eventsPerWrite);
        }
        Objects.requireNonNull(stall, "stall");
        Objects.requireNonNull(failure, "failure");
    }

    /** TTFT 20 ms, 10 ms between events, 1 token per event, 100 tokens, role chunk, final usage, no stall, no failure. */
    public static Script defaults() {
        return new Script(Duration.ofMillis(20), Duration.ofMillis(10), 1, 100, true, 0, Usage.FINAL, 1,
                Stall.NONE, Failure.NONE);
    }

    public Script withTtft(Duration v) {
        return new Script(v, gap, tokensPerEvent, tokensPerRequest, roleChunk, reasoningTokens, usage, eventsPerWrite, stall, failure);
    }

    public Script withGap(Duration v) {
        return new Script(ttft, v, tokensPerEvent, tokensPerRequest, roleChunk, reasoningTokens, usage, eventsPerWrite, stall, failure);
    }

    public Script withTokensPerEvent(int v) {
        return new Script(ttft, gap, v, tokensPerRequest, roleChunk, reasoningTokens, usage, eventsPerWrite, stall, failure);
    }

    public Script withTokensPerRequest(int v) {
        return new Script(ttft, gap, tokensPerEvent, v, roleChunk, reasoningTokens, usage, eventsPerWrite, stall, failure);
    }

    public Script withRoleChunk(boolean v) {
        return new Script(ttft, gap, tokensPerEvent, tokensPerRequest, v, reasoningTokens, usage, eventsPerWrite, stall, failure);
    }

    public Script withReasoningTokens(int v) {
        return new Script(ttft, gap, tokensPerEvent, tokensPerRequest, roleChunk, v, usage, eventsPerWrite, stall, failure);
    }

    public Script withUsage(Usage v) {
        return new Script(ttft, gap, tokensPerEvent, tokensPerRequest, roleChunk, reasoningTokens, v, eventsPerWrite, stall, failure);
    }

    public Script withEventsPerWrite(int v) {
        return new Script(ttft, gap, tokensPerEvent, tokensPerRequest, roleChunk, reasoningTokens, usage, v, stall, failure);
    }

    public Script withStall(Stall v) {
        return new Script(ttft, gap, tokensPerEvent, tokensPerRequest, roleChunk, reasoningTokens, usage, eventsPerWrite, v, failure);
    }

    public Script withFailure(Failure v) {
        return new Script(ttft, gap, tokensPerEvent, tokensPerRequest, roleChunk, reasoningTokens, usage, eventsPerWrite, stall, v);
    }

    private static void requirePositive(String name, Duration d, boolean zeroAllowed) {
        if (d == null || d.isNegative() || (!zeroAllowed && d.isZero())) {
            throw new IllegalArgumentException(name + " must be a duration >= 0, got " + d);
        }
    }

    private static void requireCount(String name, int v) {
        if (v < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + v);
        }
    }
}
