package io.servebench.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code tokenizer=PATH}: a Hugging Face tokenizer.json, built here, counts a dataset's tokens instead of the default. */
class TokenizerSourceTest {

    @Test
    void syntheticPromptsAreExactByTheGivenTokenizer(@TempDir Path dir) throws IOException {
        Path tokenizer = TwoCharacterTokenizer.in(dir);
        ToIntFunction<String> pieces = HuggingFaceTokens.counter(tokenizer);
        assertThat(pieces.applyAsInt("abcdef")).isEqualTo(3);
        assertThat(pieces.applyAsInt("abcde")).isEqualTo(3);

        Dataset d = Datasets.resolve("synthetic:in=fixed(100),out=fixed(20),count=10,tokenizer=" + tokenizer,
                new SimTokenizer()::count);
        assertThat(d.conversations()).allSatisfy(c -> {
            assertThat(c.promptTokens()).isEqualTo(100);
            assertThat(pieces.applyAsInt(c.prompt())).isEqualTo(100);
            // about 200 characters: far fewer words than the simulated engine's tokenizer would need for 100 tokens
            assertThat(new SimTokenizer().count(c.prompt())).isLessThan(80);
        });
    }

    /**
     * A text is counted whole, however long: DJL truncates what it encodes to a model length of 512 tokens unless told
     * not to, which capped every count there (a prompt of thousands of tokens counted 512, and a synthetic prompt
     * longer than 512 tokens was lengthened word by word without end). The oracle is the tokenizer's own rule: a piece
     * per two characters.
     */
    @Test
    void aLongTextIsCountedWholeAndALongSyntheticPromptIsExact(@TempDir Path dir) throws IOException {
        Path tokenizer = TwoCharacterTokenizer.in(dir);
        assertThat(HuggingFaceTokens.counter(tokenizer).applyAsInt("ab".repeat(6_000))).isEqualTo(6_000);

        Dataset d = Datasets.resolve("synthetic:in=fixed(3000),out=fixed(8),count=2,tokenizer=" + tokenizer,
                new SimTokenizer()::count);
        assertThat(d.conversations()).allSatisfy(c -> {
            assertThat(c.promptTokens()).isEqualTo(3000);
            assertThat((c.prompt().length() + 1) / 2).isEqualTo(3000);
        });
    }

    @Test
    void everyKindTakesTheOptionAndABadTokenizerIsNamed(@TempDir Path dir) throws IOException {
        Path tokenizer = TwoCharacterTokenizer.in(dir);
        ToIntFunction<String> pieces = HuggingFaceTokens.counter(tokenizer);
        Dataset bundled = Datasets.resolve("synthetic-sharegpt:tokenizer=" + tokenizer, new SimTokenizer()::count);
        Dataset plain = Datasets.resolve("synthetic-sharegpt", new SimTokenizer()::count);
        assertThat(bundled.conversations()).allSatisfy(c -> assertThat(c.promptTokens()).isEqualTo(pieces.applyAsInt(c.prompt())));
        assertThat(bundled.meanPromptTokens()).as("two-character pieces of the same prompts")
                .isGreaterThan(1.2 * plain.meanPromptTokens());

        Path jsonl = dir.resolve("r.jsonl");
        Files.writeString(jsonl, "{\"prompt\": \"abcdefgh\", \"output_tokens\": 3}\n");
        assertThat(Datasets.resolve("jsonl:" + jsonl + ",tokenizer=" + tokenizer, new SimTokenizer()::count).conversations()
                .get(0).promptTokens()).isEqualTo(4);

        assertThatThrownBy(() -> Datasets.resolve("synthetic-sharegpt:tokenizer=" + dir.resolve("none.json"),
                new SimTokenizer()::count)).hasMessageContaining("none.json does not exist")
                .hasMessageContaining("tokenizer.json");
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"model\": 3}");
        assertThatThrownBy(() -> Datasets.resolve("synthetic-sharegpt:tokenizer=" + broken, new SimTokenizer()::count))
                .hasMessageContaining("broken.json cannot be loaded");
        assertThat(Datasets.problem("synthetic:in=fixed(5),out=fixed(5),tokenizer=")).contains("tokenizer= names no file");
    }
}
