package io.servebench.study;

import io.servebench.annotations.ServerOptions;
import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.flags.Flag;
import io.servebench.engine.kind.ServerSettingsOptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerSettingsOptionsTest {

    private static final ServerSettingsOptions ALL = new ServerSettingsOptions(32768, 2, 0.85, 0.8, 128, false, "mtp:1", null);

    private static List<String> args(ServerSettingsOptions spec, String kind) {
        return spec.flags(EngineKinds.named(kind), "Qwen/Qwen3.5-9B").stream().map(Flag::toArg).toList();
    }

    @Test
    void eachOptionIsSpelledInTheEnginesDialect() {
        assertThat(args(ALL, "vllm")).containsExactly("--max-model-len=32768", "--tensor-parallel-size=2",
                "--gpu-memory-utilization=0.85", "--max-num-seqs=128", "--no-enable-prefix-caching",
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}");
        assertThat(args(ALL, "sglang")).containsExactly("--context-length=32768", "--tp-size=2", "--mem-fraction-static=0.8",
                "--max-running-requests=128", "--disable-radix-cache", "--speculative-algorithm=NEXTN",
                "--speculative-num-steps=1", "--speculative-eagle-topk=1", "--speculative-num-draft-tokens=2",
                "--speculative-draft-model-path=Qwen/Qwen3.5-9B");
        assertThat(args(ALL, "sim")).isEqualTo(args(ALL, "vllm"));
        // SGLang caches prefixes by default: "on" needs no flag there
        assertThat(args(new ServerSettingsOptions(null, null, null, null, true, null, null), "sglang")).isEmpty();
        assertThat(args(new ServerSettingsOptions(null, null, null, null, true, null, null), "vllm")).containsExactly("--enable-prefix-caching");
        assertThat(args(ServerSettingsOptions.NONE, "command")).isEmpty();
    }

    @Test
    void theSimulatedEngineReadsEveryOptionAsTheEngineItStandsInForSpellsIt() {
        for (String kind : List.of("vllm", "sglang")) {
            io.servebench.sim.SimParams sim = io.servebench.sim.SimParams.fromFlags(
                    kind.equals("vllm") ? io.servebench.sim.SimDialect.VLLM : io.servebench.sim.SimDialect.SGLANG,
                    "Qwen/Qwen3.5-9B", args(ALL, kind));
            // the draft is the model's own MTP head, which the simulation's acceptance already stands for
            assertThat(sim.ignoredFlags()).as(kind).isEqualTo(kind.equals("vllm") ? List.of()
                    : List.of("--speculative-draft-model-path=Qwen/Qwen3.5-9B"));
            assertThat(sim.maxModelLen()).as(kind).isEqualTo(32768);
            assertThat(sim.tensorParallelSize()).as(kind).isEqualTo(2);
            assertThat(sim.gpuMemoryUtilization()).as(kind).isEqualTo(kind.equals("vllm") ? 0.85 : 0.8);
            assertThat(sim.maxNumSeqs()).as(kind).isEqualTo(128);
            assertThat(sim.prefixCaching()).as(kind).isFalse();
            assertThat(sim.speculativeMethod()).as(kind).isNotNull();
            assertThat(sim.speculativeTokens()).as(kind).isEqualTo(1);
        }
    }

    @Test
    void kindsWithoutAKnownDialectAndUnspellableOptionsAreRefused() {
        assertThatThrownBy(() -> ALL.flags(EngineKinds.COMMAND, "m")).hasMessageContaining("engine kind \"command\"")
                .hasMessageContaining("@Engine(flags)");
    }

    /**
     * The memory shares mean different budgets: vLLM's {@code --gpu-memory-utilization} is the whole GPU
     * ({@code vllm/config/cache.py}), SGLang's {@code --mem-fraction-static} "model weights and KV cache memory pool"
     * ({@code server_args.py}); each is written only to the engine whose meaning it has.
     */
    @Test
    void eachMemoryShareIsWrittenOnlyToTheEngineOfItsMeaning() {
        ServerSettingsOptions whole = new ServerSettingsOptions(null, null, 0.9, null, null, null, null, null);
        assertThat(args(whole, "vllm")).containsExactly("--gpu-memory-utilization=0.9");
        assertThatThrownBy(() -> args(whole, "sglang")).hasMessageContaining("gpuMemoryFraction = 0.9 is the whole GPU"
                + " budget (vLLM's --gpu-memory-utilization), which this engine has no setting for; its"
                + " --mem-fraction-static covers weights and KV cache only: state staticMemoryFraction for it");
        ServerSettingsOptions weightsAndCache = new ServerSettingsOptions(null, null, null, 0.85, null, null, null, null);
        assertThat(args(weightsAndCache, "sglang")).containsExactly("--mem-fraction-static=0.85");
        assertThatThrownBy(() -> args(weightsAndCache, "vllm")).hasMessageContaining("state gpuMemoryFraction for it");
        assertThat(new ServerSettingsOptions(null, null, null, 1.5, null, null, null, null).problems())
                .containsEntry("staticMemoryFraction", "staticMemoryFraction = 1.5 is out of range; expected a share of"
                        + " GPU memory in (0, 1], e.g. 0.9");
    }

    /**
     * SGLang's NGRAM drafting ({@code server_args.py} 0.5.9 and 0.5.18): no steps; its draft tokens count the last
     * accepted token as the tree's root ({@code cpp_ngram/param.h}, {@code get_draft_token_num}: {@code
     * draft_token_num - 1}); a breadth of 1 makes the tree a chain as vLLM's n-gram ({@code server_args.py} takes the
     * top-k from {@code --speculative-ngram-max-bfs-breadth}). The simulated engine reads it as 4 draft tokens.
     */
    @Test
    void ngramDraftingIsSpelledForSglangAsAChainOfTheSameLength() {
        ServerSettingsOptions ngram = new ServerSettingsOptions(null, null, null, null, null, "ngram:4", null);
        assertThat(args(ngram, "sglang")).containsExactly("--speculative-algorithm=NGRAM",
                "--speculative-num-draft-tokens=5", "--speculative-ngram-max-bfs-breadth=1");
        io.servebench.sim.SimParams sim = io.servebench.sim.SimParams.fromFlags(io.servebench.sim.SimDialect.SGLANG,
                "Qwen/Qwen3.5-9B", args(ngram, "sglang"));
        assertThat(sim.speculativeMethod()).isEqualTo("ngram");
        assertThat(sim.speculativeTokens()).isEqualTo(4);
        assertThat(sim.ignoredFlags()).isEmpty();
    }

    /**
     * EAGLE drafts with a model of its own: vLLM refuses {@code num_speculative_tokens} without one
     * ({@code SpeculativeConfig}, {@code vllm/config/speculative.py}: "was provided but without speculative model") and
     * takes it as {@code "model"} in {@code --speculative-config}; SGLang takes {@code --speculative-draft-model-path}
     * ({@code python/sglang/srt/server_args.py}).
     */
    @Test
    void eagleNeedsADraftModelAndBothEnginesAreGivenIt() {
        assertThat(new ServerSettingsOptions(null, null, null, null, null, "eagle3:3", null).problems().get("speculative"))
                .contains("drafts with a model of its own").contains("draftModel");
        assertThat(new ServerSettingsOptions(null, null, null, null, null, "mtp:1", "d/x").problems().get("speculative"))
                .contains("is for speculative = \"eagle:N\" or \"eagle3:N\" only");
        assertThat(new ServerSettingsOptions(null, null, null, null, null, null, "d/x").problems()).containsKey("draftModel");
        ServerSettingsOptions eagle = new ServerSettingsOptions(null, null, null, null, null, "eagle3:3", "yuhuili/EAGLE3-8B");
        assertThat(eagle.problems()).isEmpty();
        assertThat(args(eagle, "vllm")).containsExactly(
                "--speculative-config={\"method\":\"eagle3\",\"model\":\"yuhuili/EAGLE3-8B\",\"num_speculative_tokens\":3}");
        assertThat(args(eagle, "sglang")).contains("--speculative-algorithm=EAGLE3",
                "--speculative-draft-model-path=yuhuili/EAGLE3-8B");
        // a variant that sets another method drops the class's draft model with it
        assertThat(eagle.overriddenBy(new ServerSettingsOptions(null, null, null, null, null, "mtp:1", null)).draftModel())
                .isNull();
    }

    @Test
    void badValuesNameTheAttributeAndWhatWasExpected() {
        assertThat(ServerSettingsOptions.problem("maxModelLen", 0)).contains("maxModelLen = 0.0").contains("at least 1");
        assertThat(ServerSettingsOptions.problem("gpuMemoryFraction", 1.5)).contains("(0, 1]");
        assertThat(ServerSettingsOptions.problem("gpuMemoryFraction", 0.9)).isNull();
        assertThat(ServerSettingsOptions.speculativeProblem("mtp")).contains("has no ':'");
        assertThat(ServerSettingsOptions.speculativeProblem("medusa:2")).contains("unknown method");
        assertThat(ServerSettingsOptions.speculativeProblem("mtp:x")).contains("not a whole number");
        assertThat(ServerSettingsOptions.speculativeProblem("eagle:3")).isNull();
        assertThat(new ServerSettingsOptions(-5, null, 1.5, null, null, "mtp", null).problems()).containsOnlyKeys("maxModelLen",
                "gpuMemoryFraction", "speculative");
        assertThat(new ServerSettingsOptions(8192, 1, 0.9, 64, true, "mtp:1", null).problems()).isEmpty();
    }

    @ServingBenchmark(model = "m")
    @ServerOptions(maxModelLen = 4096, maxNumSeqs = 64)
    public static class Study {
        @Variant
        public void plain() {
        }

        @Variant
        @ServerOptions(maxNumSeqs = 8, prefixCaching = ServerOptions.Toggle.ON)
        public void small() {
        }
    }

    @Test
    void aVariantsOptionsOverrideTheClassesOneByOne() {
        StudyDescriptor study = StudyReader.read(Study.class);
        assertThat(study.serverOptions("plain")).isEqualTo(new ServerSettingsOptions(4096, null, null, 64, null, null, null));
        assertThat(study.serverOptions("small")).isEqualTo(new ServerSettingsOptions(4096, null, null, 8, true, null, null));
    }
}
