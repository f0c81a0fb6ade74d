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
    void whatIsNoFlagIsSaidAndNamed() {
        assertThat(Flag.parse("max-num-seqs=4")).isEmpty();
        assertThat(Flag.problem("max-num-seqs=4")).startsWith("malformed flag \"max-num-seqs=4\": expected it to start with '-'");
        assertThat(Flag.problem("--max-num-seqs=")).contains("'=' with no value");
        assertThat(Flag.problem(" ")).startsWith("empty flag");
        assertThat(Flag.problem("--")).contains("the name after the dashes");
    }

    @Test
    void eachEnginesSpellingsAreFlagsAsTheyAreWritten() {
        for (EngineFlags engine : new EngineFlags[] {EngineFlags.VLLM, EngineFlags.SGLANG}) {
            for (String name : java.util.stream.Stream.of(engine.maxModelLen(), engine.tensorParallelSize(),
                    engine.gpuMemoryUtilization(), engine.staticMemoryFraction(), engine.maxNumSeqs(),
                    engine.maxNumBatchedTokens(), engine.apiKey(), engine.reasoningParser())
                    .filter(java.util.Objects::nonNull).toList()) {
                assertThat(Flag.parse(name + "=1")).as(name).hasValue(new Flag(name, "1"));
            }
        }
    }
}
