package io.servebench.flags;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engines' flag lists as ServeBench reads them. The facts each test expects are the engines' own: vLLM's
 * {@code vllm/engine/arg_utils.py} (bool fields are {@code argparse.BooleanOptionalAction}, {@code -tp} is
 * {@code --tensor-parallel-size}'s alias, {@code --max-num-batched-tokens} is a {@code human_readable_int}) and
 * {@code vllm/utils/argparse_utils.py} (FlexibleArgumentParser's {@code --json-flag.key} and {@code -O3}); SGLang's
 * {@code python/sglang/srt/server_args.py} ({@code --enable-metrics} is {@code store_true}, {@code --tp-size} and
 * {@code --tensor-parallel-size} one flag); the commits are named in each data file.
 */
class FlagCatalogTest {

    private static FlagCatalog vllm(String version) {
        return FlagCatalog.of(FlagCatalog.VLLM, version).orElseThrow();
    }

    private static FlagCatalog sglang(String version) {
        return FlagCatalog.of(FlagCatalog.SGLANG, version).orElseThrow();
    }

    private static Flag flag(String text) {
        return Flag.parse(text).orElseThrow();
    }

    @Test
    void everyVersionLoadsAndNamesTheCommitItWasReadFrom() {
        for (String engine : List.of(FlagCatalog.VLLM, FlagCatalog.SGLANG)) {
            assertThat(FlagCatalog.versions(engine)).hasSizeGreaterThanOrEqualTo(2);
            for (String version : FlagCatalog.versions(engine)) {
                FlagCatalog catalog = FlagCatalog.of(engine, version).orElseThrow();
                assertThat(catalog.source()).as(catalog.label()).containsPattern("[0-9a-f]{40}");
                assertThat(catalog.spec("--port")).as(catalog.label()).isPresent();
            }
        }
        assertThat(FlagCatalog.forStudy(FlagCatalog.VLLM, "").version()).isEqualTo("0.26.0");
        assertThat(FlagCatalog.of(FlagCatalog.VLLM, "0.9.0")).isEmpty();
        assertThat(FlagCatalog.versionProblem(FlagCatalog.VLLM, "0.9.0"))
                .isEqualTo("no flag list of vLLM 0.9.0; expected one of 0.17.1, 0.26.0 (the flags of each were read from"
                        + " its argument parser), or no version to check against the newest");
        assertThat(FlagCatalog.covers("command")).isFalse();
    }

    /**
     * vLLM declares {@code --lora-modules} with {@code nargs='+'} and a {@code LoRAParserAction} that splits each item with
     * {@code name, path = item.split("=")} (vllm-project/vllm 568afb3, vllm/entrypoints/openai/cli_args.py); SGLang's
     * {@code --lora-paths} is {@code nargs="*"} (sgl-project/sglang v0.5.18, python/sglang/srt/server_args.py). argparse
     * takes {@code --lora-modules=a=/x b=/y} as the one item "a=/x b=/y": the engine must get the items apart.
     */
    @Test
    void aListValuedFlagReachesTheEngineAsOneArgumentPerItem() {
        assertThat(vllm("0.26.0").args(flag("--lora-modules=sql-lora=/adapters/sql chat-lora=/adapters/chat")))
                .containsExactly("--lora-modules", "sql-lora=/adapters/sql", "chat-lora=/adapters/chat");
        assertThat(vllm("0.17.1").args(flag("--lora-modules {\"name\": \"a\", \"path\": \"/x\"} b=/y")))
                .containsExactly("--lora-modules", "{\"name\": \"a\", \"path\": \"/x\"}", "b=/y");
        assertThat(sglang("0.5.18").args(flag("--lora-paths=a=/x b=/y"))).containsExactly("--lora-paths", "a=/x", "b=/y");
        // a single-valued flag stays one argument, a JSON value with its spaces too
        assertThat(vllm("0.26.0").args(flag("--max-num-seqs=64"))).containsExactly("--max-num-seqs=64");
        assertThat(vllm("0.26.0").args(flag("--speculative-config={\"method\": \"mtp\"}")))
                .containsExactly("--speculative-config={\"method\": \"mtp\"}");
    }

    @Test
    void aNumberOutsideTheBoundsOfItsConfigFieldIsRefused() {
        // vllm/config/cache.py: gpu_memory_utilization: float = Field(default=0.9, gt=0, le=1) (0.17.1; 0.92 in
        // 0.26.0); vllm/config/scheduler.py: max_num_seqs: int = Field(default=..., ge=1); vllm/config/model.py:
        // max_model_len: int = Field(default=None, ge=-1): pydantic checks them when vLLM builds its config
        for (String version : List.of("0.17.1", "0.26.0")) {
            FlagCatalog v = vllm(version);
            assertThat(v.problem(flag("--gpu-memory-utilization=95"))).contains("flag --gpu-memory-utilization=95:"
                    + " --gpu-memory-utilization in vLLM " + version + " takes a number greater than 0 and at most 1 (the"
                    + " bounds of its config field: vLLM's parser reads 95, but the server then refuses to start); got 95");
            assertThat(v.problem(flag("--gpu-memory-utilization=1"))).isEmpty();
            assertThat(v.problem(flag("--gpu-memory-utilization=0.0001"))).isEmpty();
            assertThat(v.problem(flag("--gpu-memory-utilization=0"))).hasValueSatisfying(m -> assertThat(m)
                    .contains("greater than 0 and at most 1"));
            assertThat(v.problem(flag("--max-num-seqs=0"))).hasValueSatisfying(m -> assertThat(m)
                    .contains("takes a whole number at least 1 (the bounds").endsWith("got 0"));
            assertThat(v.problem(flag("--max-num-seqs=1"))).isEmpty();
            // -1 and auto are its spellings of "the model's own"; 8k is read as 8,000
            assertThat(v.problem(flag("--max-model-len=-1"))).isEmpty();
            assertThat(v.problem(flag("--max-model-len=auto"))).isEmpty();
            assertThat(v.problem(flag("--max-model-len=-2"))).hasValueSatisfying(m -> assertThat(m).contains("at least -1"));
            assertThat(v.problem(flag("--max-num-batched-tokens=8k"))).isEmpty();
            // a flag whose field states no bounds takes any number
            assertThat(v.spec("--seed").orElseThrow().range()).isEqualTo(FlagCatalog.Range.ANY);
        }
        // a bound on a field of 0.26.0 alone (vllm/config/parallel.py: tensor_parallel_size ... Field(default=1, ge=1))
        assertThat(vllm("0.26.0").problem(flag("-tp=0"))).hasValueSatisfying(m -> assertThat(m).contains("at least 1"));
        assertThat(vllm("0.17.1").problem(flag("-tp=0"))).isEmpty();
    }

    @Test
    void aRangeIsReadAsWritten() {
        FlagCatalog.Range r = FlagCatalog.Range.parse("(0,1]");
        assertThat(r.contains(0)).isFalse();
        assertThat(r.contains(1)).isTrue();
        assertThat(r.contains(1.0000001)).isFalse();
        assertThat(FlagCatalog.Range.parse("[0.0,1.0)").describe()).isEqualTo("at least 0 and less than 1");
        assertThat(FlagCatalog.Range.parse("[-1,)").contains(Double.MAX_VALUE)).isTrue();
        assertThatThrownBy(() -> FlagCatalog.Range.parse("0..1"))
                .hasMessageContaining("expected a range such as (0,1]");
    }

    @Test
    void aSingleValuedFlagGivenSeveralValuesIsRefused() {
        assertThat(vllm("0.26.0").problem(flag("--max-num-seqs=64 128"))).contains("flag --max-num-seqs=64 128:"
                + " --max-num-seqs in vLLM 0.26.0 takes one value (a whole number); got 2: 64, 128");
        assertThat(vllm("0.26.0").problem(flag("--lora-modules=a=/x b=/y"))).isEmpty();
    }

    @Test
    void aMisspeltFlagIsRefusedWithTheNearestSpelling() {
        assertThat(vllm("0.17.1").problem(flag("--max-num-seqz=128")))
                .contains("flag --max-num-seqz is not a flag of vLLM 0.17.1; did you mean --max-num-seqs?");
        assertThat(vllm("0.17.1").problem(flag("--enable-prefix-cahcing")))
                .hasValueSatisfying(m -> assertThat(m).endsWith("did you mean --enable-prefix-caching?"));
        assertThat(sglang("0.5.9").problem(flag("--mem-fraction-statc=0.8")))
                .hasValueSatisfying(m -> assertThat(m).endsWith("did you mean --mem-fraction-static?"));
    }

    @Test
    void twoSpellingsOfOneSettingAreOneCanonicalFlag() {
        // vLLM's arg_utils.py: -tp is --tensor-parallel-size's alias, --enable-prefix-caching a BooleanOptionalAction
        FlagCatalog v = vllm("0.26.0");
        assertThat(v.canonical(flag("-tp=4"))).isEqualTo(flag("--tensor-parallel-size=4"));
        assertThat(v.canonical(flag("--enable-prefix-caching"))).isEqualTo(flag("--enable-prefix-caching=true"));
        assertThat(v.canonical(flag("--no-enable-prefix-caching"))).isEqualTo(flag("--enable-prefix-caching=false"));
        assertThat(v.canonical(flag("--max-num-seqs=64"))).isEqualTo(flag("--max-num-seqs=64"));
        // a switch that is no boolean keeps no value; an unknown --no- flag stays as written
        assertThat(sglang("0.5.18").canonical(flag("--disable-radix-cache"))).isEqualTo(flag("--disable-radix-cache"));
        assertThat(v.canonical(flag("--no-such-thing"))).isEqualTo(flag("--no-such-thing"));
    }

    @Test
    void theOtherEnginesSpellingOfASettingIsRefusedWithThisEnginesOwn() {
        // the spellings as each parser declares them: vLLM's arg_utils.py, SGLang's server_args.py (the .flags files)
        assertThat(sglang("0.5.18").problem(flag("--max-num-seqs=64"))).hasValue("flag --max-num-seqs is not a flag of"
                + " SGLang 0.5.18; it is vLLM's spelling: SGLang writes --max-running-requests");
        assertThat(sglang("0.5.18").problem(flag("--max-model-len=8192"))).hasValueSatisfying(m -> assertThat(m)
                .endsWith("it is vLLM's spelling: SGLang writes --context-length"));
        assertThat(vllm("0.26.0").problem(flag("--chunked-prefill-size=4096"))).hasValueSatisfying(m -> assertThat(m)
                .endsWith("it is SGLang's spelling: vLLM writes --max-num-batched-tokens"));
        assertThat(vllm("0.26.0").problem(flag("--disable-radix-cache"))).hasValueSatisfying(m -> assertThat(m)
                .endsWith("it is SGLang's spelling: vLLM writes --no-enable-prefix-caching"));
        assertThat(sglang("0.5.18").problem(flag("--enable-prefix-caching"))).hasValueSatisfying(m -> assertThat(m)
                .endsWith("it is vLLM's spelling: SGLang needs none, as that is its default"));
        // the memory settings mean different things: neither is the other's spelling
        assertThat(sglang("0.5.18").problem(flag("--gpu-memory-utilization=0.9"))).hasValueSatisfying(m -> assertThat(m)
                .endsWith("it is vLLM's spelling: SGLang has no setting of that meaning (its --mem-fraction-static is the"
                        + " share of GPU memory for weights and KV cache alone)"));
        assertThat(vllm("0.26.0").problem(flag("--mem-fraction-static=0.8"))).hasValueSatisfying(m -> assertThat(m)
                .endsWith("it is SGLang's spelling: vLLM has no setting of that meaning (its --gpu-memory-utilization is"
                        + " the whole budget: weights, KV cache and activations)"));
    }

    @Test
    void anAbbreviationIsRefusedThoughArgparseWouldTakeIt() {
        assertThat(vllm("0.17.1").problem(flag("--max-num-seq=128"))).contains("flag --max-num-seq is not a flag of"
                + " vLLM 0.17.1; write its whole name, --max-num-seqs: argparse would take an abbreviation, but"
                + " ServeBench compares flags by name (shared servers, typed options)");
        assertThat(vllm("0.17.1").resolved(flag("--max-num-seq=128"))).isEqualTo(flag("--max-num-seqs=128"));
        // the start of two names is no abbreviation argparse takes
        assertThat(vllm("0.17.1").resolved(flag("--max-num"))).isEqualTo(flag("--max-num"));
        // an alias, as the table lists it, is read as the flag it names; the flag's own name is kept
        assertThat(vllm("0.17.1").resolved(flag("-tp=2"))).isEqualTo(flag("--tensor-parallel-size=2"));
        assertThat(vllm("0.17.1").resolved(flag("--tensor-parallel-size=2"))).isEqualTo(flag("--tensor-parallel-size=2"));
    }

    @Test
    void aFlagOfAnotherVersionSaysWhichVersionsHaveIt() {
        // --swap-space: vLLM 0.17.1's CacheConfig; gone by 0.26.0
        assertThat(vllm("0.17.1").problem(flag("--swap-space=4"))).isEmpty();
        assertThat(vllm("0.26.0").problem(flag("--swap-space=4"))).hasValueSatisfying(m -> assertThat(m)
                .startsWith("flag --swap-space is not a flag of vLLM 0.26.0 (vLLM 0.17.1 has it; name that version on"
                        + " @Engine(version = ...) if the server runs it)"));
        assertThat(vllm("0.17.1").problem(flag("--spec-tokens=2"))).hasValueSatisfying(m -> assertThat(m)
                .contains("(vLLM 0.26.0 has it;"));
    }

    @Test
    void valuesOfTheWrongFormAreRefusedWhereTheParserStatesOne() {
        FlagCatalog v = vllm("0.17.1");
        assertThat(v.problem(flag("--max-num-seqs=128"))).isEmpty();
        assertThat(v.problem(flag("--max-num-seqs=many"))).contains("flag --max-num-seqs=many: --max-num-seqs in"
                + " vLLM 0.17.1 takes a whole number; got \"many\"");
        assertThat(v.problem(flag("--max-num-seqs"))).contains("flag --max-num-seqs: --max-num-seqs in vLLM 0.17.1"
                + " needs a value (a whole number)");
        assertThat(v.problem(flag("--max-num-batched-tokens=8k"))).isEmpty();
        assertThat(v.problem(flag("--gpu-memory-utilization=0.9"))).isEmpty();
        assertThat(v.problem(flag("--gpu-memory-utilization=90%"))).hasValueSatisfying(m -> assertThat(m)
                .endsWith("takes a number; got \"90%\""));
        assertThat(v.problem(flag("--kv-cache-dtype=fp8"))).isEmpty();
        assertThat(v.problem(flag("--kv-cache-dtype=fp4"))).hasValueSatisfying(m -> assertThat(m)
                .contains("takes one of auto, bfloat16, fp8,"));
        assertThat(v.problem(flag("--enable-prefix-caching"))).isEmpty();
        assertThat(v.problem(flag("--no-enable-prefix-caching"))).isEmpty();
        assertThat(v.problem(flag("--enable-prefix-caching=true"))).contains("flag --enable-prefix-caching=true:"
                + " --enable-prefix-caching in vLLM 0.17.1 is a switch; expected it without a value, or"
                + " --no-enable-prefix-caching to turn it off");
        assertThat(v.problem(flag("--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}"))).isEmpty();
        assertThat(v.problem(flag("--speculative-config={\"method\":\"mtp\""))).hasValueSatisfying(m -> assertThat(m)
                .contains("takes JSON"));
        assertThat(v.problem(flag("-tp=2"))).isEmpty();
        assertThat(v.problem(flag("--served-model-name=a b"))).isEmpty();
        assertThat(v.problem(flag("--cudagraph-capture-sizes=1 2 x"))).hasValueSatisfying(m -> assertThat(m)
                .endsWith("takes values each a whole number; got \"x\""));

        FlagCatalog s = sglang("0.5.9");
        assertThat(s.problem(flag("--enable-metrics"))).isEmpty();
        assertThat(s.problem(flag("--tp-size=2"))).isEmpty();
        assertThat(s.problem(flag("--tensor-parallel-size=2"))).isEmpty();
        assertThat(s.problem(flag("--speculative-algorithm=MTP"))).hasValueSatisfying(m -> assertThat(m)
                .contains("takes one of EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM; got \"MTP\""));
    }

    @Test
    void vllmsJsonKeysAndOptimizationLevelAreFlagsOfItsOwnParser() {
        FlagCatalog v = vllm("0.17.1");
        Flag key = flag("--speculative-config.num_speculative_tokens=2");
        assertThat(key.name()).isEqualTo("--speculative-config.num_speculative_tokens");
        assertThat(v.problem(key)).isEmpty();
        assertThat(v.problem(flag("--speculative-confg.method=mtp"))).hasValueSatisfying(m -> assertThat(m)
                .contains("did you mean --speculative-config?"));
        assertThat(v.problem(flag("--max-num-seqs.x=1"))).hasValueSatisfying(m -> assertThat(m)
                .contains("--max-num-seqs takes no JSON in vLLM 0.17.1"));
        assertThat(v.problem(flag("-O3"))).isEmpty();
        assertThat(sglang("0.5.9").problem(flag("-O3"))).isPresent();
    }

    @Test
    void everySpellingServeBenchWritesIsAFlagOfEveryVersion() {
        for (String version : FlagCatalog.versions(FlagCatalog.VLLM)) {
            assertAccepted(vllm(version), spellings(EngineFlags.VLLM, List.of(EngineFlags.VLLM_SPECULATIVE_CONFIG,
                    "--host", "--port")));
        }
        for (String version : FlagCatalog.versions(FlagCatalog.SGLANG)) {
            assertAccepted(sglang(version), spellings(EngineFlags.SGLANG, List.of(
                    EngineFlags.SGLANG_SPECULATIVE_ALGORITHM, EngineFlags.SGLANG_SPECULATIVE_NUM_STEPS,
                    EngineFlags.SGLANG_SPECULATIVE_NUM_DRAFT_TOKENS, EngineFlags.SGLANG_SPECULATIVE_EAGLE_TOPK,
                    EngineFlags.SGLANG_SPECULATIVE_DRAFT_MODEL_PATH, "--model-path", "--host", "--port",
                    "--enable-metrics")));
        }
    }

    private static List<String> spellings(EngineFlags f, List<String> more) {
        List<String> names = new ArrayList<>(java.util.stream.Stream.of(f.maxModelLen(), f.tensorParallelSize(),
                f.gpuMemoryUtilization(), f.staticMemoryFraction(), f.maxNumSeqs(), f.maxNumBatchedTokens(), f.apiKey(),
                f.reasoningParser()).filter(java.util.Objects::nonNull).toList());
        names.addAll(f.prefixCachingOn());
        names.addAll(f.prefixCachingOff());
        names.addAll(more);
        return names;
    }

    private static void assertAccepted(FlagCatalog catalog, List<String> names) {
        for (String name : names) {
            assertThat(catalog.spec(name).isPresent() || name.startsWith("--no-")
                    && catalog.problem(new Flag(name, null)).isEmpty()).as(name + " in " + catalog.label()).isTrue();
        }
    }

    @Test
    void aVersionWithoutAListIsRefusedWithTheOnesThereAre() {
        assertThatThrownBy(() -> FlagCatalog.forStudy(FlagCatalog.SGLANG, "0.4.0"))
                .hasMessageContaining("no flag list of SGLang 0.4.0; expected one of 0.5.9, 0.5.18");
    }
}
