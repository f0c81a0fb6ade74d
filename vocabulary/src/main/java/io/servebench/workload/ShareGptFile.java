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
 * it gives the output length. Conversations are filtered as {@code vllm bench serve} filters them by default
 * ({@link Filters#DEFAULT}: prompt and reply of at least 4 tokens, prompt at most 1024 and both together at most
 * 2048); {@code sharegpt:PATH,minTokens=N,maxPrompt=N,maxTotal=N} sets other bounds.
 */
final class ShareGptFile {

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
        return read(name, file, Filters.DEFAULT, tokenCounter);
    }

    /**
     * The length filters of a ShareGPT file, in tokens.
     *
     * @param minTokens fewest tokens of the prompt and of the reply
     * @param maxPrompt most tokens of the prompt
     * @param maxTotal  most tokens of prompt and reply together
     */
    record Filters(int minTokens, int maxPrompt, int maxTotal) {
        /** {@code vllm bench serve}'s. */
        static final Filters DEFAULT = new Filters(MIN_TOKENS, MAX_PROMPT_TOKENS, MAX_TOTAL_TOKENS);

        /** The option names of a {@code sharegpt:} spec. */
        static final List<String> OPTIONS = List.of("minTokens", "maxPrompt", "maxTotal");

        static Filters of(SpecOptions options) {
            return new Filters(options.positiveInt("minTokens").orElse(MIN_TOKENS),
                    options.positiveInt("maxPrompt").orElse(MAX_PROMPT_TOKENS),
                    options.positiveInt("maxTotal").orElse(MAX_TOTAL_TOKENS));
        }
    }

    /**
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    static Dataset read(String name, Path file, Filters filters, ToIntFunction<String> tokenCounter) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(name, file.toString(), in, filters, tokenCounter);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("dataset file " + file.toAbsolutePath()
                    + " does not exist; give the path of a ShareGPT-format JSON file (e.g. ShareGPT_V3_unfiltered_cleaned_split.json)"
                    + " or use -p dataset=" + Datasets.SYNTHETIC_SHAREGPT + " for the bundled made-up conversations");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read dataset file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    static Dataset read(String name, String source, InputStream in, ToIntFunction<String> tokenCounter) throws IOException {
        return read(name, source, in, Filters.DEFAULT, tokenCounter);
    }

    static Dataset read(String name, String source, InputStream in, Filters filters, ToIntFunction<String> tokenCounter)
            throws IOException {
        List<Conversation> kept = new ArrayList<>();
        int[] dropped = new int[Drop.values().length];
        // The real file is ~650 MB: stream it entry by entry rather than building one tree.
        try (JsonParser parser = JSON.getFactory().createParser(in)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new IllegalArgumentException("dataset " + source
                        + " is not a ShareGPT file: expected a JSON array of {\"conversations\": [...]} objects");
            }
            int index = 0;
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                JsonNode entry = JSON.readTree(parser);
                Object c = conversation(entry, source, index++, filters, tokenCounter);
                if (c instanceof Conversation conversation) {
                    kept.add(conversation);
                } else {
                    dropped[((Drop) c).ordinal()]++;
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("dataset " + source + " is not valid JSON at " + JsonProblem.of(e)
                    + "; expected a ShareGPT file: a JSON array of {\"conversations\": [{\"from\": \"human\","
                    + " \"value\": \"...\"}, {\"from\": \"gpt\", \"value\": \"...\"}]}", e);
        }
        if (kept.isEmpty()) {
            StringBuilder counts = new StringBuilder();
            for (Drop d : Drop.values()) {
                counts.append(counts.length() == 0 ? "" : ", ").append(dropped[d.ordinal()]).append(' ').append(d.says(filters));
            }
            throw new IllegalArgumentException("dataset " + source + " has no conversation left after the filters (" + counts
                    + "); a conversation needs a prompt and a reply of " + filters.minTokens() + " tokens or more, a prompt of"
                    + " at most " + filters.maxPrompt() + " and at most " + filters.maxTotal() + " in all: set them with"
                    + " sharegpt:PATH,minTokens=N,maxPrompt=N,maxTotal=N");
        }
        return new Dataset(name, kept);
    }

    /** Why a conversation was left out. */
    private enum Drop {
        ONE_TURN, SHORT_PROMPT, SHORT_REPLY, LONG_PROMPT, LONG_TOTAL;

        String says(Filters f) {
            return switch (this) {
                case ONE_TURN -> "with fewer than two turns";
                case SHORT_PROMPT -> "with a prompt under " + f.minTokens() + " tokens";
                case SHORT_REPLY -> "with a reply under " + f.minTokens() + " tokens";
                case LONG_PROMPT -> "with a prompt over " + f.maxPrompt() + " tokens";
                case LONG_TOTAL -> "over " + f.maxTotal() + " tokens in all";
            };
        }
    }

    /** The entry's conversation, or the {@link Drop} that leaves it out. */
    private static Object conversation(JsonNode entry, String source, int index, Filters f, ToIntFunction<String> tokenCounter) {
        JsonNode turns = entry.get("conversations");
        if (turns == null || !turns.isArray()) {
            throw new IllegalArgumentException("dataset " + source + ", entry " + index + " (/" + index
                    + "/conversations): expected a \"conversations\" array, found " + (turns == null ? "none" : turns.getNodeType()));
        }
        if (turns.size() < 2) {
            return Drop.ONE_TURN;
        }
        for (int t = 0; t < 2; t++) {
            JsonNode value = turns.get(t).get("value");
            if (value == null || !value.isTextual()) {
                throw new IllegalArgumentException("dataset " + source + ", entry " + index + " (/" + index + "/conversations/"
                        + t + "/value): expected a string, found " + (value == null ? "none" : value.getNodeType()));
            }
        }
        String prompt = turns.get(0).get("value").asText();
        String reply = turns.get(1).get("value").asText();
        int promptTokens = tokenCounter.applyAsInt(prompt);
        int outputTokens = tokenCounter.applyAsInt(reply);
        if (promptTokens < f.minTokens()) {
            return Drop.SHORT_PROMPT;
        }
        if (outputTokens < f.minTokens()) {
            return Drop.SHORT_REPLY;
        }
        if (promptTokens > f.maxPrompt()) {
            return Drop.LONG_PROMPT;
        }
        if (promptTokens + outputTokens > f.maxTotal()) {
            return Drop.LONG_TOTAL;
        }
        return new Conversation(prompt, promptTokens, outputTokens);
    }
}
