package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.within;

class SimParamsTest {

    private static final String MODEL = "Qwen/Qwen3.5-9B";

    /**
     * vLLM reads {@code --max-model-len} in human-readable form (vllm-project/vllm {@code vllm/engine/arg_utils.py},
     * {@code human_readable_int}, whose docstring gives "'1k' -> 1,000", "'1K' -> 1,024", "'25.6k' -> 25,600" and
     * refuses decimals with a binary suffix), and so does the twin in vLLM's dialect.
     */
    @Test
    void vllmsMaxModelLenIsReadAsVllmReadsIt() {
        java.util.function.Function<String, Integer> len = v -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                List.of("--max-model-len=" + v)).maxModelLen();
        assertThat(List.of(len.apply("1k"), len.apply("1K"), len.apply("25.6k"), len.apply("32K"), len.apply("4096")))
                .containsExactly(1_000, 1_024, 25_600, 32_768, 4_096);
        assertThatThrownBy(() -> len.apply("1.5K")).hasMessageContaining("--max-model-len")
                .hasMessageContaining("K, M, G (x 1024, whole numbers only)");
        assertThatThrownBy(() -> len.apply("32 k")).hasMessageContaining("--max-model-len")
                .hasMessageContaining("or auto (-1) for the longest the KV cache holds");
        // the step's tokens are read the same way (human_readable_int)
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--max-num-batched-tokens=16K"))
                .maxNumBatchedTokens()).isEqualTo(16_384);
    }

    /**
     * {@code --max-model-len auto} (or -1): "Automatically choose the maximum model length that fits in GPU memory. This
     * will use the model's maximum context length if it fits, otherwise it will find the largest length that can be
     * accommodated" (vLLM's {@code ModelConfig.max_model_len}). Qwen3-8B's 40,960 tokens fit one H100; Qwen3-32B's do
     * not (61 GiB of weights), so auto takes the longest whose one sequence the cache holds: that length starts, one
     * token more is refused as vLLM refuses it.
     */
    @Test
    void vllmsMaxModelLenAutoTakesTheLongestTheKvCacheHolds() {
        java.util.function.BiFunction<String, String, Integer> len = (model, v) -> SimParams.fromFlags(SimDialect.VLLM,
                model, List.of("--max-model-len=" + v), GpuProfile.named("h100")).maxModelLen();
        assertThat(len.apply("Qwen/Qwen3-8B", "auto")).isEqualTo(40_960);
        assertThat(len.apply("Qwen/Qwen3-8B", "-1")).isEqualTo(40_960);
        int fitted = len.apply("Qwen/Qwen3-32B", "auto");
        assertThat(fitted).isBetween(1, 40_959);
        assertThat(len.apply("Qwen/Qwen3-32B", String.valueOf(fitted))).isEqualTo(fitted);
        assertThatThrownBy(() -> len.apply("Qwen/Qwen3-32B", String.valueOf(fitted + 1)))
                .hasMessageContaining("the KV cache does not fit one sequence of max model length " + (fitted + 1));
    }

    @Test
    void vllmDefaults() {
        SimParams s = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of());
        assertThat(s.dialect()).isEqualTo(SimDialect.VLLM);
        assertThat(s.model().name()).isEqualTo(MODEL);
        assertThat(s.maxModelLen()).isEqualTo(262_144);
        // vllm/engine/arg_utils.py get_batch_defaults: an API server on a GPU of >= 70 GiB that is no A100
        assertThat(s.maxNumSeqs()).isEqualTo(1024);
        assertThat(s.maxNumBatchedTokens()).isEqualTo(8192);
        // vllm/config/model.py is_prefix_caching_supported: not for a hybrid model
        assertThat(s.prefixCaching()).isFalse();
        assertThat(s.speculativeTokens()).isZero();
        assertThat(s.reasoning()).isEmpty();
        assertThat(s.gpuMemoryUtilization()).isEqualTo(0.9);
        assertThat(s.performanceMode()).isEqualTo(SimParams.PerformanceMode.BALANCED);
        assertThat(s.ignoredFlags()).isEmpty();
    }

    /** LoRA flags as vLLM and SGLang spell them, with their defaults (vLLM: one adapter, rank 16; SGLang: 8 a batch). */
    @Test
    void loraAdaptersAsEachEngineNamesThem() {
        SimParams vllm = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--enable-lora",
                "--lora-modules=sql-lora=/adapters/sql chat-lora=/adapters/chat", "--max-lora-rank=32"));
        assertThat(vllm.lora()).isEqualTo(new LoraParams(List.of("sql-lora", "chat-lora"), 1, 32));
        assertThat(vllm.ignoredFlags()).isEmpty();
        SimParams json = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--enable-lora", "--max-loras=4",
                "--lora-modules={\"name\": \"sql-lora\", \"path\": \"/adapters/sql\", \"base_model_name\": \"m\"}"));
        assertThat(json.lora()).isEqualTo(new LoraParams(List.of("sql-lora"), 4, 16));
        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--lora-paths=sql-lora=/a /adapters/chat"));
        assertThat(sglang.lora()).isEqualTo(new LoraParams(List.of("sql-lora", "/adapters/chat"), 8, 16));
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--lora-modules=sql-lora=/a")))
                .hasMessage("bad flag --lora-modules: vLLM serves LoRA adapters only with --enable-lora; expected "
                        + "--enable-lora beside it");
        assertThat(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of()).lora()).isEqualTo(LoraParams.NONE);
    }

    /**
     * An MTP draft runs the checkpoint's own multi-token-prediction layers. Qwen3-8B's config names none, and vLLM's
     * {@code SpeculativeConfig} then finds no MTP model to draft with and refuses the start ("Unsupported speculative
     * method: 'mtp'", {@code vllm/config/speculative.py}, vllm-project/vllm@002e77c1), under any of the model-named
     * spellings it folds into {@code mtp}; Kimi K2's {@code "num_nextn_predict_layers": 0} names none either. A model
     * that ships one (Qwen3.5-9B, DeepSeek-R1) drafts with it, and a draft of another kind needs none.
     */
    @Test
    void anMtpDraftOfAModelWithoutMtpLayersIsRefused() {
        for (String method : List.of("mtp", "deepseek_mtp")) {
            assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                    List.of("--speculative-config={\"method\":\"" + method + "\",\"num_speculative_tokens\":1}")))
                    .hasMessageStartingWith("the engine would not start: vLLM drafts method mtp with the checkpoint's"
                            + " own multi-token-prediction layers, and the config of Qwen/Qwen3-8B names none")
                    .hasMessageContaining("\"Unsupported speculative method: 'mtp'\"");
        }
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B",
                List.of("--speculative-algorithm=NEXTN"))).hasMessageContaining("a NEXTN draft without them is not"
                + " modelled by the simulated engine; expected EAGLE with --speculative-draft-model-path, or NGRAM");
        String k2 = ModelConfigs.DEEPSEEK_R1_0528.replace("\"num_nextn_predict_layers\":1", "\"num_nextn_predict_layers\":0");
        assertThat(k2).isNotEqualTo(ModelConfigs.DEEPSEEK_R1_0528);
        assertThat(ModelProfile.mtpLayers(ModelArchitecture.of(read(k2), "m").textConfig(read(k2), "m"), "m")).isZero();
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "deepseek-ai/DeepSeek-R1-0528", List.of("--tensor-parallel-size=8",
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}"), GpuProfile.named("h200"))
                .speculativeMethod()).isEqualTo("mtp");
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--speculative-config={\"method\":"
                + "\"ngram\",\"num_speculative_tokens\":3,\"prompt_lookup_max\":4}")).speculativeMethod()).isEqualTo("ngram");
    }

    /**
     * vLLM resolves the draft as its {@code SpeculativeConfig.__post_init__} does ({@code vllm/config/speculative.py},
     * vllm-project/vllm@156e3355): without a method, n-gram drafting for {@code "model": "ngram"} and a draft model
     * otherwise; an EAGLE head or a draft model without its checkpoint stops the start ("num_speculative_tokens was
     * provided but without speculative model."), which the twin had run with EAGLE's default acceptance.
     */
    @Test
    void aDraftMethodIsResolvedAsVllmResolvesItAndOneWithoutItsModelRefused() {
        java.util.function.Function<String, SimParams> vllm = json -> SimParams.fromFlags(SimDialect.VLLM,
                "Qwen/Qwen3-8B", List.of("--speculative-config=" + json));
        assertThat(vllm.apply("{\"model\":\"ngram\",\"num_speculative_tokens\":3}").speculativeMethod())
                .isEqualTo("ngram");
        assertThat(vllm.apply("{\"method\":\"[ngram]\",\"num_speculative_tokens\":3}").speculativeMethod())
                .isEqualTo("ngram");
        assertThat(vllm.apply("{\"model\":\"Qwen/Qwen3-0.6B\",\"num_speculative_tokens\":4}").speculativeMethod())
                .isEqualTo("draft_model");
        assertThat(vllm.apply("{\"method\":\"eagle3\",\"model\":\"yuhuili/EAGLE3-8B\",\"num_speculative_tokens\":2}")
                .acceptanceRates()).containsExactly(SimParams.EAGLE_ACCEPTANCE);
        for (String json : List.of("{\"method\":\"eagle3\",\"num_speculative_tokens\":2}",
                "{\"num_speculative_tokens\":2}")) {
            assertThatThrownBy(() -> vllm.apply(json)).hasMessageContaining("drafts with a model of its own, and"
                    + " --speculative-config names none (\"num_speculative_tokens was provided but without speculative"
                    + " model.\")");
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode read(String json) {
        try {
            return ModelProfile.JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void vllmFlagsOfTheReferenceStudy() {
        SimParams s = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--reasoning-parser=qwen3", "--max-model-len=32768",
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}", "--language-model-only",
                "--performance-mode=interactivity", "--max-num-seqs 128", "--max_num_batched_tokens=16384",
                "--enable-prefix-caching", "--gpu-memory-utilization=0.85", "--tensor-parallel-size=2"));
        assertThat(s.reasoningParser()).isEqualTo("qwen3");
        assertThat(s.maxModelLen()).isEqualTo(32768);
        assertThat(s.speculativeMethod()).isEqualTo("mtp");
        assertThat(s.speculativeTokens()).isEqualTo(1);
        assertThat(s.acceptanceRates()).containsExactly(SimParams.MTP_ACCEPTANCE);
        assertThat(s.languageModelOnly()).isTrue();
        assertThat(s.performanceMode()).isEqualTo(SimParams.PerformanceMode.INTERACTIVITY);
        assertThat(s.maxNumSeqs()).isEqualTo(128);
        assertThat(s.maxNumBatchedTokens()).isEqualTo(16384);
        assertThat(s.prefixCaching()).isTrue();
        assertThat(s.gpuMemoryUtilization()).isEqualTo(0.85);
        assertThat(s.tensorParallelSize()).isEqualTo(2);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--enable-prefix-caching", "--no-enable-prefix-caching"))
                .prefixCaching()).isFalse();
    }

    @Test
    void languageModelOnlyLeavesMoreMemoryToTheKvCache() {
        double with = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--language-model-only")).kvPoolBytes();
        double without = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of()).kvPoolBytes();
        assertThat(with - without).isEqualTo(ModelProfile.qwen35_9b(MODEL).nonLanguageBytes());
    }

    @Test
    void sglangFlags() {
        SimParams defaults = SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of());
        assertThat(defaults.dialect()).isEqualTo(SimDialect.SGLANG);
        assertThat(defaults.prefixCaching()).isTrue();
        // server_args.py: reserved = 512 + 1.5 x 8192 + 2 x 256 + 1024 / 8 = 13,440 MiB of 81,089: (81089 - 13440) / 81089
        assertThat(defaults.gpuMemoryUtilization()).isEqualTo(0.834);
        assertThat(defaults.maxNumBatchedTokens()).isEqualTo(8192);
        SimParams s = SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--reasoning-parser=qwen3", "--context-length=32768",
                "--max-running-requests=64", "--chunked-prefill-size=4096", "--disable-radix-cache",
                "--mem-fraction-static=0.8", "--tp=2", "--speculative-algorithm=NEXTN", "--speculative-num-draft-tokens=4"));
        assertThat(s.reasoningParser()).isEqualTo("qwen3");
        assertThat(s.maxModelLen()).isEqualTo(32768);
        assertThat(s.maxNumSeqs()).isEqualTo(64);
        assertThat(s.maxNumBatchedTokens()).isEqualTo(4096);
        assertThat(s.prefixCaching()).isFalse();
        assertThat(s.gpuMemoryUtilization()).isEqualTo(0.8);
        assertThat(s.tensorParallelSize()).isEqualTo(2);
        assertThat(s.speculativeMethod()).isEqualTo("nextn");
        assertThat(s.speculativeTokens()).isEqualTo(3);
        assertThat(s.acceptanceRates()).containsExactly(SimParams.MTP_ACCEPTANCE);
        // a vLLM flag is no flag of SGLang's parser (server_args.py), which refuses it
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--max-num-seqs=4")))
                .hasMessageStartingWith("flag --max-num-seqs is not a flag of SGLang 0.5.18;");
    }

    /**
     * SGLang starts with a KV pool smaller than the model's context and caps each request at the pool
     * ({@code managers/tp_worker.py}: {@code max_req_len = min(context_len - 1, max_total_num_tokens - 1)}, read at
     * sgl-project/sglang@0045f98e); vLLM refuses to start. Qwen3-32B on one H100: its 61 GiB of weights leave less than
     * the 10 GiB one sequence of its 40,960-token context needs.
     */
    @Test
    void sglangCapsARequestAtAKvPoolSmallerThanTheContextWhereVllmRefusesToStart() {
        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-32B", List.of(), GpuProfile.named("h100"));
        // 64 layers x 8 KV heads x 128 values x 2 (K and V) x 2 bytes: 256 KiB a token
        long poolTokens = (long) (sglang.kvPoolBytes() / (64 * 8 * 128 * 2 * 2));
        assertThat(poolTokens).isLessThan(40960);
        assertThat(sglang.maxModelLen()).isBetween((int) poolTokens - 2, (int) poolTokens - 1);
        assertThat(sglang.startLog()).contains("requests of at most " + sglang.maxModelLen()
                + " tokens (the model's context: 40960, max_position_embeddings 40960)");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-32B", List.of(), GpuProfile.named("h100")))
                .hasMessageContaining("does not fit one sequence of max model length 40960");
    }

    /**
     * Where the weights alone are more than the budget, no max model length would help: the refusal says so and what
     * would (Qwen3-235B-A22B in bf16 is 438 GiB of weights; four H100s at 90% hold 285 GiB).
     */
    @Test
    void aModelWhoseWeightsExceedTheBudgetIsRefusedWithWhatWouldHelp() {
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tensor-parallel-size=4"), GpuProfile.named("h100")))
                .hasMessageMatching("(?s).* leaves nothing, 1[0-9]{2}\\.\\d\\d GiB short before any KV cache; raise the"
                        + " memory fraction, or serve the model on more GPUs \\(a larger tensor-parallel size\\) or from a"
                        + " smaller or quantised checkpoint")
                .hasMessageNotContaining("lower the max model length");
    }

    /**
     * vLLM's batch limits as its arguments resolve them: a default {@code max_num_seqs} is at most the step's tokens
     * ({@code EngineArgs._set_default_max_num_seqs_and_batched_tokens_args}: {@code min(max_num_seqs,
     * max_num_batched_tokens)}), and a given one above them refuses to start ({@code SchedulerConfig}: "max_num_batched_tokens
     * (64) must be greater than or equal to max_num_seqs (128)."); on an H100 the defaults are 1024 and 8192.
     */
    @Test
    void vllmsSequencesPerStepAreAtMostItsTokensPerStep() {
        SimParams small = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--max-num-batched-tokens=64"));
        assertThat(small.maxNumSeqs()).isEqualTo(64);
        assertThat(small.maxNumBatchedTokens()).isEqualTo(64);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of()).maxNumSeqs()).isEqualTo(1024);
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                List.of("--max-num-batched-tokens=64", "--max-num-seqs=128")))
                .hasMessage("the engine would not start: vLLM refuses a step of fewer tokens than its sequences"
                        + " (\"max_num_batched_tokens (64) must be greater than or equal to max_num_seqs (128).\");"
                        + " expected --max-num-batched-tokens of at least 128, or --max-num-seqs of at most 64");
        // the default step of 8192 tokens is below 16384 sequences as well
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--max-num-seqs=16384")))
                .hasMessageContaining("max_num_batched_tokens (8192) must be greater than or equal to max_num_seqs"
                        + " (16384).");
    }

    /**
     * A tensor-parallel size the model's heads do not split among is refused as the engines refuse it; the head counts
     * are the models' published configs (Qwen3-8B: 32 attention heads, 8 KV heads; Qwen3-14B: 40 and 8; Qwen2.5-7B: 28
     * and 4), the rule vLLM's {@code ModelConfig.verify_with_parallel_config} and both engines' attention layers.
     */
    @Test
    void aTensorParallelSizeTheHeadsDoNotSplitAmongIsRefusedAsTheEnginesRefuseIt() {
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--tensor-parallel-size=3")))
                .hasMessage("the engine would not start at tensor-parallel size 3: Qwen/Qwen3-8B's 32 attention heads"
                        + " do not divide among 3 tensor-parallel ranks (vLLM refuses it at start, SGLang's attention"
                        + " asserts it); expected a size that splits its heads evenly: 1, 2, 4, 8, 16, 32");
        // 40 heads split five ways, but not its 8 KV heads, which five ranks cannot hold whole copies of either
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-14B", List.of("--tp-size=5")))
                .hasMessage("the engine would not start at tensor-parallel size 5: Qwen/Qwen3-14B's 8 KV heads neither"
                        + " divide among 5 tensor-parallel ranks nor divide them (both engines' attention asserts it);"
                        + " expected a size that splits its heads evenly: 1, 2, 4, 8, 40");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen2.5-7B-Instruct",
                List.of("--tensor-parallel-size=7"))).hasMessageContaining("Qwen/Qwen2.5-7B-Instruct's 4 KV heads neither"
                + " divide among 7 tensor-parallel ranks nor divide them");
        // more ranks than KV heads, each a whole copy: started (the KV cache copied, SimParams's kvCopies)
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--tensor-parallel-size=16"))
                .tensorParallelSize()).isEqualTo(16);
    }

    /**
     * SGLang's fraction is of the memory CUDA and torch.distributed left, not of the whole GPU ({@code
     * profile_max_num_token}). The oracle is SGLang's own log of Qwen3-235B-A22B-FP8 on four H100s at {@code
     * --mem-fraction-static 0.93} (vllm-project/vllm issue #21348): "KV Cache is allocated. #tokens: 367404"; the twin
     * serves the same architecture (94 layers, 4 KV heads of 128) as the 2507 FP8 checkpoint. The context and
     * torch.distributed's share come from another log (SimParams.SGLANG_CONTEXT_BYTES); without them the pool held 14%
     * more.
     */
    @Test
    void sglangsFractionIsOfWhatCudaAndTorchDistributedLeftAsItsLogShows() {
        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8",
                List.of("--tp=4", "--mem-fraction-static=0.93", "--context-length=40960"), GpuProfile.named("h100"));
        // 94 layers x 4 KV heads x 128 values x 2 (K and V) x 2 bytes, one KV head a GPU
        long poolTokens = (long) (sglang.kvPoolBytes() / (94 * 4 * 128 * 2 * 2));
        assertThat(poolTokens).isBetween(Math.round(367_404 * 0.98), Math.round(367_404 * 1.02));
    }

    /**
     * vLLM's profiling run is one forward pass over its token budget, so the activations it reserves scale with the
     * budget. GPUStack's lab served Qwen3-32B with vLLM 0.11.0 on one A100 (budget 2,048 tokens) with
     * {@code --max-model-len 32768}, and printed that flag where it did not on the H100 (gpustack/gpustack@47277d79,
     * docs/performance-lab/qwen3-32b/a100.md): the twin starts that and refuses the model's own 40,960.
     */
    @Test
    void vllmsActivationReserveScalesWithItsTokenBudget() {
        GpuProfile a100 = GpuProfile.named("a100");
        SimParams served = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-32B", List.of("--max-model-len=32768"), a100);
        assertThat(served.maxNumBatchedTokens()).isEqualTo(2048);
        assertThat(SimParams.vllmReserveBytes(2048) - SimParams.vllmReserveBytes(8192))
                .isCloseTo(-0.75 * 1.26 * (1 << 30), within(1e6));
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-32B", List.of(), a100))
                .hasMessageContaining("does not fit one sequence of max model length 40960");
    }

    /**
     * GPUStack's lab started {@code vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8} (vLLM 0.11.0, its defaults: a
     * context of 262,144 tokens) on eight H100s and served five loads on it (gpustack/gpustack@47277d79,
     * docs/performance-lab/qwen3-235b-a22b/h100.md). Each GPU keeps one of the model's 4 KV heads whole, so one such
     * sequence needs 94 layers x 262,144 x 128 x 2 x 2 bytes = 11.75 GiB on every GPU, which fits only because vLLM's
     * budget leaves out the buffers NCCL allocated before its memory snapshot: with them (3.58 GiB a GPU, V0's
     * profile at {@code -tp 2}) the twin refused the start by 0.46 GiB.
     */
    @Test
    void vllmStartsQwen3_235bAtTp8WithItsDefaultContextAsTheLabDid() {
        SimParams tp8 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tensor-parallel-size=8"), GpuProfile.named("h100"));
        assertThat(tp8.maxModelLen()).isEqualTo(262_144);
        assertThat(tp8.kvCopies()).isEqualTo(2);
        assertThat(tp8.startLog()).contains("each GPU keeps one of the model's 4 KV heads whole, as the engines do with"
                + " more GPUs than KV heads: the KV cache held 2 times over");
        double perGpuPerToken = 94 * 128 * 2 * 2.0;
        assertThat(tp8.kvPoolBytes() / 8).isGreaterThanOrEqualTo(262_144 * perGpuPerToken);
    }

    /**
     * A refusal names every term of its subtraction, vLLM's reserve among them, so that a reader can redo it: the
     * figures in the message add up (to the hundredth of a GiB they are printed with).
     */
    @Test
    void aRefusalShowsArithmeticThatAddsUp() {
        String message = catchThrowable(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-32B", List.of(),
                GpuProfile.named("h100"))).getMessage();
        Matcher m = Pattern.compile("but (\\d+)% of 1 x ([\\d.]+) GiB less ([\\d.]+) GiB"
                + " of weights and ([\\d.]+) GiB that vLLM keeps beside weights and KV cache .* leaves ([\\d.]+) GiB")
                .matcher(message);
        assertThat(m.find()).as(message).isTrue();
        double left = Integer.parseInt(m.group(1)) / 100.0 * Double.parseDouble(m.group(2))
                - Double.parseDouble(m.group(3)) - Double.parseDouble(m.group(4));
        assertThat(left).isCloseTo(Double.parseDouble(m.group(5)), within(0.02));
        assertThat(message).contains("a real vLLM may leave more");
    }

    /** vllm/engine/arg_utils.py get_batch_defaults and vllm/config/model.py is_prefix_caching_supported. */
    @Test
    void vllmPicksItsBatchLimitsByTheGpuAndCachesPrefixesOfModelsWithoutLinearAttention() {
        SimParams a100 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-14B", List.of(), GpuProfile.named("a100"));
        assertThat(a100.maxNumSeqs()).isEqualTo(256);
        assertThat(a100.maxNumBatchedTokens()).isEqualTo(2048);
        assertThat(a100.prefixCaching()).isTrue();
        SimParams l40s = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of(), GpuProfile.named("l40s"));
        assertThat(l40s.maxNumSeqs()).as("48 GiB < 70 GiB").isEqualTo(256);
        SimParams h200 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-14B", List.of("--max-num-seqs=64"),
                GpuProfile.named("h200"));
        assertThat(h200.maxNumSeqs()).isEqualTo(64);
        assertThat(h200.maxNumBatchedTokens()).isEqualTo(8192);
    }

    /**
     * {@code --performance-mode throughput} doubles each batch limit vLLM defaults, not one given, and a defaulted step
     * holds at most every sequence at the max model length ({@code _set_default_max_num_seqs_and_batched_tokens_args},
     * {@code vllm/engine/arg_utils.py}, v0.17.1 and v0.26.0).
     */
    @Test
    void vllmsThroughputModeDoublesTheBatchLimitsItDefaults() {
        SimParams h100 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--performance-mode=throughput"));
        assertThat(List.of(h100.maxNumSeqs(), h100.maxNumBatchedTokens())).containsExactly(2048, 16384);
        SimParams a100 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--performance-mode=throughput"),
                GpuProfile.named("a100"));
        assertThat(List.of(a100.maxNumSeqs(), a100.maxNumBatchedTokens())).containsExactly(512, 4096);
        SimParams given = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                List.of("--performance-mode=throughput", "--max-num-seqs=64"));
        assertThat(List.of(given.maxNumSeqs(), given.maxNumBatchedTokens())).containsExactly(64, 16384);
        SimParams balanced = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--performance-mode=balanced"));
        assertThat(List.of(balanced.maxNumSeqs(), balanced.maxNumBatchedTokens())).containsExactly(1024, 8192);
        // 4 sequences of at most 1,024 tokens: a defaulted step of 4,096
        SimParams small = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                List.of("--max-num-seqs=4", "--max-model-len=1024"));
        assertThat(small.maxNumBatchedTokens()).isEqualTo(4096);
    }

    /**
     * SGLang 0.5.9's limits for a hybrid model (model_runner_kv_cache_mixin.py): the mamba pool takes 0.9 / 1.9 of
     * what the weights leave, and three of its states per running request with the radix cache on. Qwen3.5-9B on an H100:
     * 81,089 MiB (79.19 GiB, as CUDA reports it) less the CUDA context's 0.50 GiB, x 0.834 = 65.63 GiB, less 16.76 GiB of
     * weights and 2 GiB of vision encoder, leaves 46.87 GiB; 22.20 GiB of it at 48 MiB a state is 473 states, so 157
     * requests run at most.
     */
    @Test
    void sglangSizesItsMambaPoolFromMemoryAndRunsAThirdOfItsStatesAtOnce() {
        SimParams h100 = SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of());
        assertThat(h100.stateSlots()).isEqualTo(473);
        assertThat(h100.maxNumSeqs()).isEqualTo(157);
        assertThat(h100.pooledStateBytesPerSequence()).isZero();
        // with the radix cache off each running request needs one state: the pool is the same, three times the requests
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--disable-radix-cache")).maxNumSeqs()).isEqualTo(473);
        // ... and given running requests size the pool to them, leaving the rest to the KV cache
        SimParams given = SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--disable-radix-cache", "--max-running-requests=100"));
        assertThat(given.stateSlots()).isEqualTo(100);
        assertThat(given.kvPoolBytes() - h100.kvPoolBytes()).isEqualTo(373 * h100.model().stateBytesPerSequence());
        // speculative decoding: 48 running requests unless given (server_args.py), and 2 GiB more kept for the draft
        SimParams nextn = SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--speculative-algorithm=NEXTN"));
        assertThat(nextn.maxNumSeqs()).isEqualTo(48);
        assertThat(nextn.gpuMemoryUtilization()).isEqualTo(0.809);
        // H200: reserved 13,440 MiB of 143,156: 0.906; a dense model has no mamba pool
        SimParams h200 = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-14B", List.of(), GpuProfile.named("h200"));
        assertThat(h200.gpuMemoryUtilization()).isEqualTo(0.906);
        assertThat(h200.stateSlots()).isZero();
        // B200: 16,384-token chunks
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-14B", List.of(), GpuProfile.named("b200"))
                .maxNumBatchedTokens()).isEqualTo(16384);
    }

    /**
     * The simulated engine's own dialect is vLLM's; its acceptance flag is read in every dialect, as the harness passes
     * it from its own {@code --sim-acceptance-rate} to a vLLM or SGLang study rehearsed with {@code --simulate}.
     */
    @Test
    void simDialectIsVllmAndTheAcceptanceRateIsReadInEveryDialect() {
        SimParams s = SimParams.fromFlags(SimDialect.SIM, MODEL, List.of("--max-num-seqs=8", "--sim-acceptance-rate=0.5",
                "--speculative-config={\"method\":\"eagle3\",\"model\":\"yuhuili/EAGLE3-8B\",\"num_speculative_tokens\":2}"));
        assertThat(s.dialect()).isEqualTo(SimDialect.VLLM);
        assertThat(s.maxNumSeqs()).isEqualTo(8);
        assertThat(s.acceptanceRates()).containsExactly(0.5);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--speculative-config={\"method\":\"eagle3\",\"model\":\"yuhuili/EAGLE3-8B\",\"num_speculative_tokens\":2}"))
                .acceptanceRates()).containsExactly(SimParams.EAGLE_ACCEPTANCE);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--sim-acceptance-rate=0.5",
                "--speculative-config={\"method\":\"eagle3\",\"model\":\"yuhuili/EAGLE3-8B\",\"num_speculative_tokens\":2}")).acceptanceRates())
                .containsExactly(0.5);
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--sim-acceptance-rate=0.9,0.4",
                "--speculative-algorithm=NEXTN", "--speculative-num-steps=2", "--speculative-num-draft-tokens=3"))
                .acceptanceRates()).containsExactly(0.9, 0.4);
    }

    @Test
    void realFlagsItDoesNotModelAreAcceptedAndListed() {
        SimParams s = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--enforce-eager", "--disable-log-stats",
                "--quantization=awq"));
        assertThat(s.ignoredFlags()).containsExactly("--enforce-eager", "--disable-log-stats", "--quantization=awq");
    }

    @Test
    void badValuesNameTheFlagAndWhatWasExpected() {
        assertBad("vllm", "--max-num-seqs=abc", "--max-num-seqs=abc", "a positive integer");
        assertBad("vllm", "--max-model-len=0", "--max-model-len=0", "a positive whole number of tokens as vLLM reads it");
        assertBad("vllm", "--speculative-config={method:", "--speculative-config", "JSON");
        assertBad("vllm", "--speculative-config={\"method\":\"mtp\"}", "--speculative-config", "num_speculative_tokens");
        assertBad("vllm", "--speculative-config={\"method\":2,\"num_speculative_tokens\":2}", "--speculative-config",
                "\"method\"");
        assertBad("vllm", "--performance-mode=fast", "--performance-mode=fast", "interactivity, balanced, throughput");
        assertBad("vllm", "--gpu-memory-utilization=1.5", "--gpu-memory-utilization=1.5", "(0, 1]");
        assertBad("vllm", "--enable-prefix-caching=maybe", "--enable-prefix-caching=maybe", "true/false");
        assertBad("vllm", "--reasoning-parser", "--reasoning-parser", "a value");
        // argparse reads --tp as the one flag it starts, --tp-size
        assertBad("sglang", "--tp=two", "--tp-size=two", "a positive integer");
        assertBad("sglang", "--mem-fraction-static=x", "--mem-fraction-static=x", "(0, 1]");
        assertBad("sim", "--sim-acceptance-rate=2", "--sim-acceptance-rate=2", "[0, 1]");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("max-num-seqs=3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-num-seqs=3");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.of("trt"), MODEL, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"trt\"");
    }

    @Test
    void tooLittleMemoryForOneSequenceIsRefused() {
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--gpu-memory-utilization=0.2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max model length 262144")
                .hasMessageContaining("memory fraction");
        assertThat(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--gpu-memory-utilization=0.3", "--max-model-len=8192"))
                .kvPoolBytes()).isPositive();
    }

    private static void assertBad(String dialect, String flag, String named, String expected) {
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.of(dialect), MODEL, List.of(flag)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(named)
                .hasMessageContaining(expected);
    }

    @Test
    void aMisspeltFlagIsRefusedAsTheEngineWouldAndAnUnmodelledRealOneIsOnlyListed() {
        // vLLM 0.26.0's parser (wire/.../flags/vllm-0.26.0.flags) has no --max-num-seqz and refuses it
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of("--max-num-seqz=128")))
                .hasMessage("flag --max-num-seqz is not a flag of vLLM 0.26.0; did you mean --max-num-seqs? (the vLLM"
                        + " server refuses it too)");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3.5-9B",
                List.of("--chunked-prefil-size=4096"))).hasMessageContaining("did you mean --chunked-prefill-size?");

        SimParams real = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3.5-9B", List.of("--dp-size=2",
                "--enable-torch-compile"));
        assertThat(real.ignoredFlags()).containsExactly("--dp-size=2", "--enable-torch-compile");
    }

    @Test
    void anAbbreviationIsReadAsTheFlagItStartsAsArgparseReadsIt() {
        // Python's argparse (allow_abbrev, left on by vLLM's FlexibleArgumentParser) takes --max-num-seq for the one
        // flag it starts
        assertThat(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--max-num-seq=128")).maxNumSeqs()).isEqualTo(128);
    }

    @Test
    void theSimulatedEngineTakesOneAcceptanceRatePerDraftPosition() {
        SimParams s = SimParams.fromFlags(SimDialect.SIM, MODEL, List.of(
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":3}", "--sim-acceptance-rate=0.8,0.6,0.4"));

        assertThat(s.acceptanceRates()).containsExactly(0.8, 0.6, 0.4);
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SIM, MODEL, List.of("--sim-acceptance-rate=0.8,x")))
                .hasMessageContaining("one per draft position separated by commas");
    }

    /**
     * The pool's size as given rather than profiled. SGLang's {@code --max-total-tokens} caps its pool at the smaller of
     * the two ({@code _apply_token_constraints}: "max_total_tokens=... is larger than the profiled value ... Use the
     * profiled value instead."), and each request at the pool less one. vLLM's {@code --kv-cache-memory-bytes} is the
     * KV cache's size per GPU whatever the memory fraction, checked against one sequence of the max model length as vLLM
     * checks it, and against the GPU. Qwen3-8B: 36 layers x 8 KV heads x 128 x 2 (K and V) x 2 bytes = 147,456 bytes a
     * token.
     */
    @Test
    void thePoolTakesTheSizeEachEngineIsGiven() {
        double perToken = 36 * 8 * 128 * 2 * 2.0;
        SimParams capped = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--max-total-tokens=10000"));
        assertThat(capped.kvPoolBytes()).isEqualTo(10_000 * perToken);
        assertThat(capped.maxModelLen()).isEqualTo(9_999);
        SimParams profiled = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of());
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--max-total-tokens=100000000"))
                .kvPoolBytes()).isEqualTo(profiled.kvPoolBytes());

        SimParams given = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--kv-cache-memory-bytes=8G"));
        assertThat(given.kvPoolBytes()).isEqualTo(8.0 * 1024 * 1024 * 1024);
        assertThat(given.ignoredFlags()).isEmpty();
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--kv-cache-memory-bytes=8G",
                "--tensor-parallel-size=2")).kvPoolBytes()).isEqualTo(16.0 * 1024 * 1024 * 1024);
        // 40,960 tokens of 147,456 bytes: 5.63 GiB
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                List.of("--kv-cache-memory-bytes=4G")))
                .hasMessage("the KV cache does not fit one sequence of max model length 40960: it needs 5.63 GiB but"
                        + " --kv-cache-memory-bytes gives 4.00 GiB over 1 GPU(s); raise it or lower the max model length");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                List.of("--kv-cache-memory-bytes=80G")))
                .hasMessageStartingWith("the engine would run out of memory: --kv-cache-memory-bytes asks 80.00 GiB of"
                        + " KV cache a GPU");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                List.of("--kv-cache-memory-bytes=lots")))
                .hasMessageContaining("a positive whole number of bytes as vLLM reads it");
    }
}
