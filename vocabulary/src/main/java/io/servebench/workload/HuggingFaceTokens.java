package io.servebench.workload;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * Token counts from a model's own tokenizer: a Hugging Face {@code tokenizer.json} read with DJL's binding of the
 * {@code tokenizers} library, counting the ids of a text without special tokens (the chat template's are the
 * server's to add). One tokenizer per file for the life of the JVM: loading one takes a moment and its native memory
 * is small.
 */
final class HuggingFaceTokens {

    private static final Map<Path, HuggingFaceTokenizer> LOADED = new ConcurrentHashMap<>();

    private HuggingFaceTokens() {
    }

    /**
     * The counter of {@code file}'s tokenizer.
     *
     * @throws IllegalArgumentException naming the file and why it cannot be loaded
     */
    static ToIntFunction<String> counter(Path file) {
        Path key = file.toAbsolutePath().normalize();
        if (!Files.isRegularFile(key)) {
            throw new IllegalArgumentException("tokenizer " + key + " does not exist; expected the path of a Hugging Face"
                    + " tokenizer.json (the model's, as its repository ships it)");
        }
        HuggingFaceTokenizer tokenizer = LOADED.computeIfAbsent(key, HuggingFaceTokens::load);
        return text -> tokenizer.encode(text).getIds().length;
    }

    private static HuggingFaceTokenizer load(Path file) {
        try {
            return HuggingFaceTokenizer.builder().optTokenizerPath(file).optAddSpecialTokens(false).optTruncation(false)
                    .build();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("tokenizer " + file + " cannot be loaded: " + e.getMessage()
                    + "; expected a Hugging Face tokenizer.json", e);
        }
    }
}
