package io.servebench.wire.openai;

/**
 * The server-sent events of an OpenAI-compatible streaming completion, as vLLM writes them, built as text without a
 * JSON tree: the simulated engine and the ground-truth server both write their streams with it. Each method appends
 * one whole event ({@code data: {...}\n\n}) to the caller's builder, so a server that writes thousands of events a
 * second can reuse one. The text is ASCII: anything else in a string is written as a {@code \\uXXXX} escape, so a
 * chunk's length in characters is its length in bytes.
 *
 * <p>A chunk reads {@code {"id", "object", "created", "model", "choices": [{"index": 0, "delta": {...} or "text",
 * "logprobs": null, "finish_reason"}], "usage"}}; the last token chunk carries the finish reason and
 * {@code "stop_reason": null}; a usage-only chunk has {@code "choices": []} (vLLM's {@code include_usage}). The
 * fields and their order are those of vLLM's {@code ChatCompletionStreamResponse} and
 * {@code ChatCompletionResponseStreamChoice} ({@code vllm/entrypoints/openai/protocol.py}: index, delta, logprobs,
 * finish_reason, stop_reason).
 */
public final class StreamChunks {

    /** The stream's end. */
    public static final String DONE = "data: [DONE]\n\n";

    private final boolean chat;
    /** Everything before the first choice: the same in every chunk of the stream. */
    private final String prefix;

    /**
     * @param chat    a chat completion ({@code chat.completion.chunk}, {@code delta}); else a completion
     *                ({@code text_completion}, {@code text})
     * @param id      the response id, as the server names it ({@code chatcmpl-...}, {@code cmpl-...})
     * @param created the response's creation time, seconds since the epoch
     * @param model   the model it serves
     */
    public StreamChunks(boolean chat, String id, long created, String model) {
        this.chat = chat;
        StringBuilder p = new StringBuilder(96).append("{\"id\":");
        quoted(p, id).append(",\"object\":\"").append(chat ? "chat.completion.chunk" : "text_completion")
                .append("\",\"created\":").append(created).append(",\"model\":");
        this.prefix = quoted(p, model).append(",\"choices\":[").toString();
    }

    /** Prompt and completion tokens as a chunk's {@code usage} states them. */
    public record Usage(int promptTokens, int completionTokens) {
    }

    /** The role-only first event of a chat stream ({@code delta.role}, empty content), with usage when not {@code null}. */
    public StringBuilder role(StringBuilder sb, Usage usage) {
        sb.append("data: ").append(prefix).append("{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},")
                .append("\"logprobs\":null,\"finish_reason\":null}]");
        return end(usageField(sb, usage));
    }

    /**
     * A token event.
     *
     * @param reasoning    the text is reasoning ({@code delta.reasoning_content}; a completion has no such field and
     *                     sends it as {@code text})
     * @param finishReason the last chunk's reason ({@code length}, {@code stop}), {@code null} before it
     * @param usage        continuous usage statistics, {@code null} for none
     */
    public StringBuilder token(StringBuilder sb, CharSequence text, boolean reasoning, String finishReason, Usage usage) {
        sb.append("data: ").append(prefix).append("{\"index\":0,");
        if (chat) {
            sb.append("\"delta\":{\"").append(reasoning ? "reasoning_content" : "content").append("\":");
            quoted(sb, text).append('}');
        } else {
            quoted(sb.append("\"text\":"), text);
        }
        sb.append(",\"logprobs\":null,\"finish_reason\":");
        if (finishReason == null) {
            sb.append("null");
        } else {
            quoted(sb, finishReason).append(",\"stop_reason\":null");
        }
        return end(usageField(sb.append("}]"), usage));
    }

    /** The usage-only event before {@code [DONE]}: {@code "choices": []}. */
    public StringBuilder usage(StringBuilder sb, Usage usage) {
        return end(usageField(sb.append("data: ").append(prefix).append(']'), usage));
    }

    /** An error inside a stream: {@code {"error": {"message", "type", "code"}}}. */
    public static StringBuilder error(StringBuilder sb, String message, String type, int code) {
        quoted(sb.append("data: {\"error\":{\"message\":"), message).append(",\"type\":");
        return quoted(sb, type).append(",\"code\":").append(code).append("}}\n\n");
    }

    private static StringBuilder usageField(StringBuilder sb, Usage usage) {
        if (usage != null) {
            sb.append(",\"usage\":{\"prompt_tokens\":").append(usage.promptTokens()).append(",\"total_tokens\":")
                    .append(usage.promptTokens() + usage.completionTokens()).append(",\"completion_tokens\":")
                    .append(usage.completionTokens()).append('}');
        }
        return sb;
    }

    private static StringBuilder end(StringBuilder sb) {
        return sb.append("}\n\n");
    }

    /** {@code s} as a JSON string, ASCII only. */
    static StringBuilder quoted(StringBuilder sb, CharSequence s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                sb.append(c);
            } else {
                sb.append("\\u").append(Character.forDigit(c >> 12 & 0xf, 16)).append(Character.forDigit(c >> 8 & 0xf, 16))
                        .append(Character.forDigit(c >> 4 & 0xf, 16)).append(Character.forDigit(c & 0xf, 16));
            }
        }
        return sb.append('"');
    }
}
