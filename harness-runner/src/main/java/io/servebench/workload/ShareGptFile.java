package io.servebench.workload;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Reads a ShareGPT-format file: a JSON array of {@code {"conversations": [{"from": "human", "value":
 * ...}, {"from": "gpt", "value": ...}, ...]}}. The first human turn is the prompt and the reply after
 * it gives the output length. Conversations are filtered as {@code vllm bench serve} filters them:
 * prompt and reply of at least 4 tokens, prompt at most 1024 and both together at most 2048.
 */
public final class ShareGptFile {

    static final int MIN_TOKENS = 4;
    static final int MAX_PROMPT_TOKENS = 1024;
    static final int MAX_TOTAL_TOKENS = 2048;

    private static final ObjectMapper JSON = new ObjectMapper();

    private ShareGptFile() {
    }

    /**
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static Dataset read(String name, Path file, ToIntFunction<String> tokenCounter) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(name, file.toString(), in, tokenCounter);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("dataset file " + file.toAbsolutePath()
                    + " does not exist; give the path of a ShareGPT-format JSON file (e.g. ShareGPT_V3_unfiltered_cleaned_split.json)"
                    + " or use -p dataset=" + Datasets.SYNTHETIC_SHAREGPT + " for the bundled made-up conversations");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read dataset file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    static Dataset read(String name, String source, InputStream in, ToIntFunction<String> tokenCounter) throws IOException {
        List<Conversation> kept = new ArrayList<>();
        // The real file is ~650 MB: stream it entry by entry rather than building one tree.
        try (JsonParser parser = JSON.getFactory().createParser(in)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new IllegalArgumentException("dataset " + source
                        + " is not a ShareGPT file: expected a JSON array of {\"conversations\": [...]} objects");
            }
            int index = 0;
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                JsonNode entry = JSON.readTree(parser);
                Conversation c = conversation(entry, source, index++, tokenCounter);
                if (c != null) {
                    kept.add(c);
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("dataset " + source + " is not valid JSON: " + e.getOriginalMessage()
                    + " at line " + e.getLocation().getLineNr(), e);
        }
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("dataset " + source + " has no conversation with a human turn followed by a reply"
                    + " of " + MIN_TOKENS + ".." + MAX_PROMPT_TOKENS + " prompt tokens and at most " + MAX_TOTAL_TOKENS + " in all");
        }
        return new Dataset(name, kept);
    }

    private static Conversation conversation(JsonNode entry, String source, int index, ToIntFunction<String> tokenCounter) {
        JsonNode turns = entry.get("conversations");
        if (turns == null || !turns.isArray()) {
            throw new IllegalArgumentException("dataset " + source + ", entry " + index
                    + ": expected a \"conversations\" array, found " + (turns == null ? "none" : turns.getNodeType()));
        }
        if (turns.size() < 2) {
            return null;
        }
        String prompt = turns.get(0).path("value").asText("");
        String reply = turns.get(1).path("value").asText("");
        int promptTokens = tokenCounter.applyAsInt(prompt);
        int outputTokens = tokenCounter.applyAsInt(reply);
        if (promptTokens < MIN_TOKENS || outputTokens < MIN_TOKENS || promptTokens > MAX_PROMPT_TOKENS
                || promptTokens + outputTokens > MAX_TOTAL_TOKENS) {
            return null;
        }
        return new Conversation(prompt, promptTokens, outputTokens);
    }
}
