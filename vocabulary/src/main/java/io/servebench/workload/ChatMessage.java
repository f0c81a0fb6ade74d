package io.servebench.workload;

import java.util.Objects;

/**
 * One message of a chat before a request's own user turn: a system prompt, an earlier user turn, an earlier answer.
 *
 * @param role    {@code system}, {@code user} or {@code assistant}
 * @param content its text
 */
public record ChatMessage(String role, String content) {

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }
}
