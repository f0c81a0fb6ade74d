package io.servebench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Hugging Face {@code tokenizer.json} that cuts text into pieces of two characters (spaces included) and knows no
 * piece: every piece is one unknown token. Nothing like words, so its counts tell it apart from the simulated engine's;
 * a word of the synthetic vocabulary is several of its tokens, so a synthetic prompt is cut back to its length by
 * counting its prefixes: slow on long prompts, which tests of a stopped build use.
 */
public final class TwoCharacterTokenizer {

    private TwoCharacterTokenizer() {
    }

    /** Writes it as {@code dir/tokenizer.json} and returns that path. */
    public static Path in(Path dir) throws IOException {
        return Files.writeString(dir.resolve("tokenizer.json"), """
                {"version": "1.0", "truncation": null, "padding": null,
                 "added_tokens": [{"id": 0, "content": "[UNK]", "single_word": false, "lstrip": false, "rstrip": false,
                                   "normalized": false, "special": true}],
                 "normalizer": null,
                 "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "..?"}, "behavior": "Isolated", "invert": false},
                 "post_processor": null, "decoder": null,
                 "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
                """);
    }
}
