package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimParamsTest {

    private static final String MODEL = "Qwen/Qwen3.5-9B";

    @Test
    void vllmDefaults() {
        SimParams s = SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of());
        assertThat(s.dialect()).isEqualTo(SimDialect.VLLM);
        assertThat(s.model().name()).isEqualTo(MODEL);
        assertThat(s.maxModelLen()).isEqualTo(262_144);
        assertThat(s.maxNumSeqs()).isEqualTo(SimParams.DEFAULT_MAX_NUM_SEQS);
        assertThat(s.maxNumBatchedTokens()).isEqualTo(SimParams.DEFAULT_MAX_NUM_BATCHED_TOKENS);
        assertThat(s.prefixCaching()).isFalse();
        assertThat(s.speculativeTokens()).isZero();
        assertThat(s.reasoning()).isEmpty();
        assertThat(s.gpuMemoryUtilization()).isEqualTo(0.9);
        assertThat(s.performanceMode()).isEqualTo(SimParams.PerformanceMode.BALANCED);
        assertThat(s.ignoredFlags()).isEmpty();
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
        assertThat(defaults.gpuMemoryUtilization()).isEqualTo(SimParams.SGLANG_DEFAULT_MEMORY_FRACTION);
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

    @Test
    void simDialectIsVllmPlusTheAcceptanceRate() {
        SimParams s = SimParams.fromFlags(SimDialect.SIM, MODEL, List.of("--max-num-seqs=8", "--sim-acceptance-rate=0.5",
                "--speculative-config={\"method\":\"eagle3\",\"num_speculative_tokens\":2}"));
        assertThat(s.dialect()).isEqualTo(SimDialect.VLLM);
        assertThat(s.maxNumSeqs()).isEqualTo(8);
        assertThat(s.acceptanceRates()).containsExactly(0.5);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--speculative-config={\"method\":\"eagle3\",\"num_speculative_tokens\":2}"))
                .acceptanceRates()).containsExactly(SimParams.EAGLE_ACCEPTANCE);
        // the simulation's own flag is no flag of vLLM's, and in vLLM's dialect it is refused as vLLM refuses it
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of("--sim-acceptance-rate=0.5")))
                .hasMessageStartingWith("flag --sim-acceptance-rate is not a flag of vLLM 0.26.0;");
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
        assertBad("vllm", "--max-model-len=0", "--max-model-len=0", "a positive integer");
        assertBad("vllm", "--speculative-config={method:", "--speculative-config", "JSON");
        assertBad("vllm", "--speculative-config={\"method\":\"mtp\"}", "--speculative-config", "num_speculative_tokens");
        assertBad("vllm", "--speculative-config={\"num_speculative_tokens\":2}", "--speculative-config", "\"method\"");
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
}
