package io.servebench.runner;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** A {@code jsonl:} dataset of long prompts, for tests of a run stopped while it reads its datasets. */
public final class LongPrompts {

    private LongPrompts() {
    }

    /**
     * Writes {@code prompts} prompts of about 21,000 characters each (3,500 words of five letters) as {@code
     * dir/long.jsonl}, each asking for 2 tokens, and returns its path: {@link io.servebench.workload.TwoCharacterTokenizer} counts 500 of them
     * in some seven seconds on a 2-core machine.
     */
    public static Path jsonl(Path dir, int prompts) throws IOException {
        Path file = dir.resolve("long.jsonl");
        Random random = new Random(1);
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int line = 0; line < prompts; line++) {
                StringBuilder prompt = new StringBuilder();
                for (int word = 0; word < 3500; word++) {
                    prompt.append(word == 0 ? "" : " ").append((char) ('a' + random.nextInt(26))).append("bcde");
                }
                out.write("{\"prompt\": \"" + prompt + "\", \"output_tokens\": 2}\n");
            }
        }
        return file;
    }
}
