package io.servebench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.ToIntFunction;

/**
 * {@code jsonl:PATH[,out=N]}: a file of one request per line, {@code {"prompt": "...", "output_tokens": 128}} or
 * {@code {"messages": [{"role": "system", "content": ...}, ..., {"role": "user", "content": ...}], ...}} (a chat that
 * ends with the user's turn), read line by line. {@code output_tokens} is the reply length asked for; a line without
 * it asks for {@code out=N}. Blank lines are skipped.
 */
final class JsonlFile {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonlFile() {
    }

    /**
     * @throws IllegalArgumentException naming the file, the line and what was expected
     */
    static Dataset read(String spec, Path file, OptionalInt out, ToIntFunction<String> tokens) {
        List<Conversation> requests = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int number = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                number++;
                if (!line.isBlank()) {
                    requests.add(request(file, number, line, out, tokens));
                }
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("dataset file " + file.toAbsolutePath() + " does not exist; give the path of"
                    + " a JSON-lines file with one {\"prompt\": ..., \"output_tokens\": N} per line", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read dataset file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("dataset " + spec + " has no request: " + file + " holds no non-blank line");
        }
        return new Dataset(spec, requests);
    }

    private static Conversation request(Path file, int number, String line, OptionalInt out, ToIntFunction<String> tokens) {
        String where = file + " line " + number;
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(where + ": expected a JSON object {\"prompt\": ..., \"output_tokens\": N},"
                    + " found " + node.getNodeType());
        }
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
        return new Conversation(text, promptTokens, output, context);
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
