package io.servebench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a JSON-lines dataset a line at a time, so a file larger than the heap streams through. */
final class JsonLines {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What is done with each object line. */
    interface LineReader {
        /** @param where the file and line number, for messages ({@code /data/t.jsonl line 12}) */
        void read(String where, ObjectNode line);
    }

    private JsonLines() {
    }

    /**
     * Gives each non-blank line of {@code file}, parsed, to {@code reader}.
     *
     * @param shape what a line looks like, for messages ({@code {"prompt": ..., "output_tokens": N}})
     * @return the number of lines read
     * @throws IllegalArgumentException for a missing or unreadable file, and a line that is not a JSON object, naming
     *                                  the file and the line
     */
    static int read(Path file, String shape, LineReader reader) {
        int objects = 0;
        try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int number = 0;
            for (String text = lines.readLine(); text != null; text = lines.readLine()) {
                number++;
                if (text.isBlank()) {
                    continue;
                }
                String where = file + " line " + number;
                JsonNode node;
                try {
                    node = JSON.readTree(text);
                } catch (JsonProcessingException e) {
                    throw new IllegalArgumentException(where + ", column " + e.getLocation().getColumnNr() + " is not JSON: "
                            + JsonProblem.what(e) + "; expected one JSON object " + shape + " a line", e);
                }
                if (!node.isObject()) {
                    throw new IllegalArgumentException(where + ": expected a JSON object " + shape + ", found "
                            + node.getNodeType());
                }
                reader.read(where, (ObjectNode) node);
                objects++;
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("dataset file " + file.toAbsolutePath() + " does not exist; give the path of"
                    + " a JSON-lines file with one " + shape + " per line", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read dataset file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        return objects;
    }
}
