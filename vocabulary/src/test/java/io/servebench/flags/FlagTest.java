package io.servebench.flags;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** One flag whichever way an engine's argument parser accepts it (vLLM's and SGLang's argparse take all of these). */
class FlagTest {

    @Test
    void aListValuedFlagsItemsSplitAtSpacesOutsideJson() {
        assertThat(Flag.parse("--lora-modules=a=/x  b=/y").orElseThrow().values()).containsExactly("a=/x", "b=/y");
        assertThat(Flag.parse("--lora-modules {\"name\": \"a b\", \"path\": [1, 2]} c=/z").orElseThrow().values())
                .containsExactly("{\"name\": \"a b\", \"path\": [1, 2]}", "c=/z");
        assertThat(Flag.parse("--enable-lora").orElseThrow().values()).isEmpty();
    }

    @Test
    void equalsSignSpaceAndUnderscoreSpellOneFlag() {
        Flag flag = new Flag("--max-num-seqs", "64");
        assertThat(Flag.parse("--max-num-seqs=64")).hasValue(flag);
        assertThat(Flag.parse("--max-num-seqs 64")).hasValue(flag);
        assertThat(Flag.parse("  --max_num_seqs=64 ")).hasValue(flag);
        assertThat(Flag.parse("--enable-prefix-caching")).hasValue(new Flag("--enable-prefix-caching", null));
        // a value keeps its own underscores and equals signs
        assertThat(Flag.parse("--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}").orElseThrow().value())
                .isEqualTo("{\"method\":\"mtp\",\"num_speculative_tokens\":2}");
        assertThat(flag.toArg()).isEqualTo("--max-num-seqs=64");
    }

    @Test
    void flagsOnOneLineAreSplitAsArgparseReadsThem() {
        // vllm serve MODEL --tensor-parallel-size 2 --max-num-seqs=64 --enable-prefix-caching, as people paste it
        assertThat(Flag.ofLine(" --tensor-parallel-size 2  --max-num-seqs=64 --enable-prefix-caching "))
                .containsExactly("--tensor-parallel-size 2", "--max-num-seqs=64", "--enable-prefix-caching");
        assertThat(Flag.ofLine("--tensor-parallel-size 2").stream().map(f -> Flag.parse(f).orElseThrow()))
                .containsExactly(new Flag("--tensor-parallel-size", "2"));
        // a list's items, a JSON value written with spaces, a negative number
        assertThat(Flag.ofLine("--served-model-name a b --speculative-config={\"method\": \"mtp\"} --seed -1"))
                .containsExactly("--served-model-name a b", "--speculative-config={\"method\": \"mtp\"}", "--seed -1");
        assertThat(Flag.parse("--served-model-name a b").orElseThrow().values()).containsExactly("a", "b");
        // a first word that is no flag stands alone, for problem() to name
        assertThat(Flag.ofLine("2 --enable-lora")).containsExactly("2", "--enable-lora");
        assertThat(Flag.problem("2")).startsWith("malformed flag \"2\"");
        assertThat(Flag.ofLine("   ")).isEmpty();
    }

    @Test
    void whatIsNoFlagIsSaidAndNamed() {
        assertThat(Flag.parse("max-num-seqs=4")).isEmpty();
        assertThat(Flag.problem("max-num-seqs=4")).startsWith("malformed flag \"max-num-seqs=4\": expected it to start with '-'");
        assertThat(Flag.problem("--max-num-seqs=")).contains("'=' with no value");
        assertThat(Flag.problem(" ")).startsWith("empty flag");
        assertThat(Flag.problem("--")).contains("the name after the dashes");
        // a command line pasted into one string: vllm serve would read three flags, so it is not one
        assertThat(Flag.problem("--tensor-parallel-size 2 --max-num-seqs=64 --enable-prefix-caching")).isEqualTo(
                "\"--tensor-parallel-size 2 --max-num-seqs=64 --enable-prefix-caching\" holds more than one flag"
                + " (--tensor-parallel-size, --max-num-seqs, --enable-prefix-caching); write each as a string of its own:"
                + " \"--tensor-parallel-size 2\", \"--max-num-seqs=64\", \"--enable-prefix-caching\"");
        // a list-valued flag would otherwise take the next flag for one of its items
        assertThat(Flag.parse("--served-model-name a --max-num-seqs 64")).isEmpty();
        assertThat(Flag.problem("--enable-prefix-caching --max-num-seqs=64")).contains("holds more than one flag");
        // a value may still hold dashes: JSON, a negative number, a single dash
        assertThat(Flag.problem("--override-generation-config {\"stop\": \"--end\"}")).isNull();
        assertThat(Flag.problem("--seed -1")).isNull();
        assertThat(Flag.problem("--served-model-name my-model -")).isNull();
    }

    @Test
    void eachEnginesSpellingsAreFlagsAsTheyAreWritten() {
        for (EngineFlags engine : new EngineFlags[] {EngineFlags.VLLM, EngineFlags.SGLANG}) {
            for (String name : engine.settings().stream().filter(java.util.Objects::nonNull)
                    .flatMap(java.util.List::stream).toList()) {
                assertThat(Flag.parse(name + "=1")).as(name).hasValue(new Flag(name, "1"));
            }
        }
    }
}
