package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * vLLM reads {@code --json-flag.key value} as one key of {@code --json-flag}'s JSON, as its help's tip says ("the
 * following sets of arguments are equivalent: --json-arg '{"key1": "value1", "key2": {"key3": "value2"}}' and
 * --json-arg.key1 value1 --json-arg.key2.key3 value2"; list items with {@code +}), so the twin does too: vLLM's recipe
 * for GLM-5 writes its draft so.
 */
class DottedJsonFlagsTest {

    @Test
    void theTipsExamplesFoldIntoTheirJson() {
        assertThat(DottedJsonFlags.folded(List.of("--json-arg.key1=value1", "--json-arg.key2.key3 value2",
                "--max-num-seqs=8"))).containsExactly("--max-num-seqs=8",
                "--json-arg={\"key1\":\"value1\",\"key2\":{\"key3\":\"value2\"}}");
        assertThat(DottedJsonFlags.folded(List.of("--json-arg.key4+=value3", "--json-arg.key4+=value4,value5")))
                .containsExactly("--json-arg={\"key4\":[\"value3\",\"value4\",\"value5\"]}");
        // a value that is JSON is read as JSON, as json.loads reads it; anything else is text
        assertThat(DottedJsonFlags.folded(List.of("--x.n=3", "--x.b=true", "--x.t=1 2")))
                .containsExactly("--x={\"n\":3,\"b\":true,\"t\":\"1 2\"}");
        assertThatThrownBy(() -> DottedJsonFlags.folded(List.of("--x.n"))).hasMessageStartingWith("bad flag --x.n:"
                + " expected a value");
    }

    /** GLM-5's recipe: {@code --speculative-config.method mtp --speculative-config.num_speculative_tokens 3}. */
    @Test
    void aDraftWrittenDottedIsTheDraftWrittenAsJson() {
        SimParams dotted = SimParams.fromFlags(SimDialect.VLLM, "zai-org/GLM-5.1-FP8", List.of("--tensor-parallel-size 8",
                "--speculative-config.method mtp", "--speculative-config.num_speculative_tokens 3"), GpuProfile.named("h200"));
        SimParams json = SimParams.fromFlags(SimDialect.VLLM, "zai-org/GLM-5.1-FP8", List.of("--tensor-parallel-size 8",
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":3}"), GpuProfile.named("h200"));
        assertThat(dotted.speculativeTokens()).isEqualTo(3).isEqualTo(json.speculativeTokens());
        assertThat(dotted.acceptanceRates()).isEqualTo(json.acceptanceRates());
        assertThat(dotted.ignoredFlags()).isEmpty();
    }
}
