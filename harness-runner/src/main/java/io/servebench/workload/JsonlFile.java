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
 * {@code jsonl:PATH[,out=N]}: a file of one request per line, {@code {"prompt": "...", "output_tokens": 128}}, read
 * line by line. {@code output_tokens} is the reply length asked for; a line without it asks for {@code out=N}.
 * Blank lines are skipped.
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
        if (node.has("messages")) {
            throw new IllegalArgumentException(where + ": /messages is not read yet (one user turn per request is);"
                    + " give the user turn as /prompt");
        }
        JsonNode prompt = node.get("prompt");
        if (prompt == null || !prompt.isTextual() || prompt.asText().isEmpty()) {
            throw new IllegalArgumentException(where + ": /prompt " + (prompt == null ? "is missing" : "is not a non-empty string")
                    + "; expected {\"prompt\": \"...\", \"output_tokens\": N}");
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
        return new Conversation(prompt.asText(), tokens.applyAsInt(prompt.asText()), output);
    }
}
