package io.servebench.workload;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SimTokenizerTest {

    private final SimTokenizer tokenizer = new SimTokenizer();

    @Test
    void wordsAndPunctuationAreTokensWhitespaceIsNot() {
        assertThat(tokenizer.count("Hello, world!")).isEqualTo(4);
        assertThat(tokenizer.count("  a  b\n\tc ")).isEqualTo(3);
        assertThat(tokenizer.count("")).isZero();
        assertThat(tokenizer.count(null)).isZero();
        assertThat(tokenizer.count("x=1+2")).isEqualTo(5);
    }

    @Test
    void longWordsSplitEveryTwelveCharacters() {
        assertThat(tokenizer.count("abcdefghijkl")).isEqualTo(1);
        assertThat(tokenizer.count("abcdefghijklm")).isEqualTo(2);
        assertThat(tokenizer.count("1234567890123456789012345")).isEqualTo(3);
    }

    @Test
    void tokensAgreeWithCount() {
        String text = "Naïve café: 3.14159 — déjà vu? supercalifragilistic 😀!";
        assertThat(tokenizer.tokens(text)).hasSize(tokenizer.count(text));
        assertThat(tokenizer.tokens("Hi, you")).containsExactly("Hi", ",", "you");
    }
}
