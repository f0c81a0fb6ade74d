package io.servebench.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.ToIntFunction;

/**
 * {@code jsonl:PATH[,out=N]}: a file of one request per line, {@code {"prompt": "...", "output_tokens": 128}} or
 * {@code {"messages": [{"role": "system", "content": ...}, ..., {"role": "user", "content": ...}], ...}} (a chat that
 * ends with the user's turn), read line by line. {@code output_tokens} is the reply length asked for; a line without
 * it asks for {@code out=N}. Any other field goes into that request's body ({@code "temperature": 0.7}), after the
 * study's extra body fields. Blank lines are skipped.
 */
final class JsonlFile {

    /** The options after the file: the reply length of lines without {@code output_tokens}. */
    static final List<String> OPTIONS = List.of("out");
    private static final String SHAPE = "{\"prompt\": ..., \"output_tokens\": N}";
    private static final List<String> OWN_FIELDS = List.of("prompt", "messages", "output_tokens");
    /** Fields a line may not set for its body: the reply length is {@code output_tokens}, which sets both. */
    private static final List<String> LENGTH_FIELDS = List.of("max_tokens", "min_tokens", "max_completion_tokens");

    private JsonlFile() {
    }

    /**
     * @throws IllegalArgumentException naming the file, the line and what was expected
     */
    static Dataset read(String spec, Path file, OptionalInt out, ToIntFunction<String> tokens) {
        List<Conversation> requests = new ArrayList<>();
        JsonLines.read(file, SHAPE, (where, line) -> requests.add(request(file, where, line, out, tokens)));
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("dataset " + spec + " has no request: " + file + " holds no non-blank line");
        }
        return new Dataset(spec, requests);
    }

    private static Conversation request(Path file, String where, ObjectNode node, OptionalInt out,
                                        ToIntFunction<String> tokens) {
        List<ChatMessage> context = new ArrayList<>();
        String text;
        if (node.has("messages")) {
            if (node.has("prompt")) {
                throw new IllegalArgumentException(where + ": both /prompt and /messages; expected one of them");
            }
            context.addAll(messages(where, node.get("messages")));
            ChatMessage last = context.remove(context.size() - 1);
            text = last.content();
        } else {
            JsonNode prompt = node.get("prompt");
            if (prompt == null || !prompt.isTextual() || prompt.asText().isEmpty()) {
                throw new IllegalArgumentException(where + ": /prompt " + (prompt == null ? "is missing" : "is not a non-empty string")
                        + "; expected {\"prompt\": \"...\", \"output_tokens\": N} or {\"messages\": [...], \"output_tokens\": N}");
            }
            text = prompt.asText();
        }
        JsonNode outputTokens = node.get("output_tokens");
        int output;
        if (outputTokens == null) {
            output = out.orElseThrow(() -> new IllegalArgumentException(where + ": no /output_tokens, and the spec gives no"
                    + " out=N for lines without it (e.g. jsonl:" + file + ",out=256)"));
        } else if (outputTokens.canConvertToInt() && outputTokens.isIntegralNumber() && outputTokens.asInt() > 0) {
            output = outputTokens.asInt();
        } else {
            throw new IllegalArgumentException(where + ": /output_tokens is " + outputTokens + "; expected a whole number"
                    + " above 0");
        }
        int promptTokens = tokens.applyAsInt(text) + context.stream().mapToInt(m -> tokens.applyAsInt(m.content())).sum();
        return new Conversation(text, promptTokens, output, context, extraBody(where, node));
    }

    /** The line's fields besides its own, as the request's body fields; {@code null} when it has none. */
    private static String extraBody(String where, ObjectNode line) {
        ObjectNode extra = line.deepCopy();
        extra.remove(OWN_FIELDS);
        if (extra.isEmpty()) {
            return null;
        }
        for (String field : LENGTH_FIELDS) {
            if (extra.has(field)) {
                throw new IllegalArgumentException(where + ": /" + field + " sets the reply length, which is /output_tokens;"
                        + " expected \"output_tokens\": N instead");
            }
        }
        String problem = BodyFields.problem(extra.toString());
        if (problem != null) {
            throw new IllegalArgumentException(where + ": the fields besides prompt, messages and output_tokens go into"
                    + " the request body, but they " + problem.replaceFirst("^sets", "set"));
        }
        return extra.toString();
    }

    /** The chat of {@code /messages}: {@code {"role", "content"}} objects, the last one the user's. */
    private static List<ChatMessage> messages(String where, JsonNode messages) {
        if (!messages.isArray() || messages.isEmpty()) {
            throw new IllegalArgumentException(where + ": /messages is not a non-empty array of {\"role\": ..., \"content\": ...}");
        }
        List<ChatMessage> chat = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            JsonNode role = m.get("role");
            JsonNode content = m.get("content");
            if (role == null || !List.of("system", "user", "assistant").contains(role.asText())) {
                throw new IllegalArgumentException(where + ": /messages/" + i + "/role is " + role
                        + "; expected \"system\", \"user\" or \"assistant\"");
            }
            if (content == null || !content.isTextual()) {
                throw new IllegalArgumentException(where + ": /messages/" + i + "/content is " + content + "; expected a string");
            }
            chat.add(new ChatMessage(role.asText(), content.asText()));
        }
        if (!"user".equals(chat.get(chat.size() - 1).role())) {
            throw new IllegalArgumentException(where + ": /messages/" + (chat.size() - 1) + " is the " + chat.get(chat.size() - 1).role()
                    + "'s; expected the chat to end with the user's turn, which the request asks the model to answer");
        }
        return chat;
    }
}
