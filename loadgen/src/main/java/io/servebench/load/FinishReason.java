package io.servebench.load;

/**
 * Why a streamed choice ended, as its {@code finish_reason} says: OpenAI's {@code "stop"} and {@code "length"}, and
 * SGLang's {@code "abort"} ({@code FINISH_ABORT} in {@code python/sglang/srt/managers/schedule_batch.py}: a request the
 * scheduler gave up on, under overload for one).
 */
enum FinishReason {
    /** Absent, {@code null}, or not a string: the chunk does not end the choice. */
    NONE,
    /** {@code "stop"}: an end of sequence or a stop string. */
    STOP,
    /** {@code "length"}: {@code max_tokens}, or the model's context, was reached. */
    LENGTH,
    /** {@code "abort"}: the engine gave the request up. */
    ABORT,
    /** Any other string ({@code "tool_calls"}, {@code "content_filter"}). */
    OTHER;

    static FinishReason of(String value) {
        if (value == null) {
            return NONE;
        }
        return switch (value) {
            case "stop" -> STOP;
            case "length" -> LENGTH;
            case "abort" -> ABORT;
            default -> OTHER;
        };
    }
}
