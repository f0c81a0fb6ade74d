package io.servebench.sim;

import io.servebench.workload.SimTokenizer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How the simulated engine standing for SGLang picks a LoRA adapter, as SGLang 0.5.9 and 0.5.18 do
 * ({@code python/sglang/srt/entrypoints/openai/serving_base.py}, {@code _parse_model_parameter} and
 * {@code _resolve_lora_path}, lines 40-71 in both): the part of {@code model} after its first colon names the adapter,
 * the part before is not checked, and a name without a colon runs the base model without an error; the simulated vLLM
 * refuses any name it does not serve with a 404 ({@code _check_model}).
 */
class SglangAdapterRuleTest {

    private static final SimParams SGLANG = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B",
            List.of("--lora-paths=sql-lora=/adapters/sql chat-lora=/adapters/chat"));

    private static ApiRequest parse(SimParams settings, String model) throws ApiError {
        byte[] body = ("{\"model\": \"" + model + "\", \"prompt\": \"hello there\", \"max_tokens\": 4}")
                .getBytes(StandardCharsets.UTF_8);
        return ApiRequest.parse(body, false, new SimTokenizer(), settings);
    }

    @Test
    void theAdapterIsAfterTheFirstColonAndTheBaseIsNotChecked() throws ApiError {
        assertThat(parse(SGLANG, "Qwen/Qwen3-8B:sql-lora").adapter()).isEqualTo("sql-lora");
        assertThat(parse(SGLANG, "anything:chat-lora").adapter()).isEqualTo("chat-lora");
        // "base:" names no adapter
        assertThat(parse(SGLANG, "Qwen/Qwen3-8B:").adapter()).isNull();
    }

    @Test
    void aNameWithoutAColonRunsTheBaseModelSilentlyAndIsMarkedSo() throws ApiError {
        ApiRequest r = parse(SGLANG, "sql-lora");
        assertThat(r.adapter()).isNull();
        assertThat(r.baseFallback()).isTrue();
        assertThat(parse(SGLANG, "Qwen/Qwen3-8B").baseFallback()).isFalse();
    }

    /** {@code lora/lora_registry.py} (v0.5.9 lines 126-130) and {@code tokenizer_manager.py} (lines 2215-2234): 400s. */
    @Test
    void anAdapterNotLoadedOrLoraNotEnabledIsA400() {
        assertThatThrownBy(() -> parse(SGLANG, "Qwen/Qwen3-8B:other")).isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.status).isEqualTo(400);
            assertThat(e.getMessage()).isEqualTo("The following requested LoRA adapters are not loaded: other\n");
        });
        SimParams noLora = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of());
        assertThatThrownBy(() -> parse(noLora, "llama3:8b")).isInstanceOfSatisfying(ApiError.class, e ->
                assertThat(e.getMessage()).startsWith("LoRA adapter '8b' was requested, but LoRA is not enabled."));
    }

    @Test
    void vllmRefusesANameItDoesNotServe() {
        SimParams vllm = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--enable-lora",
                "--lora-modules=sql-lora=/adapters/sql"));
        assertThatThrownBy(() -> parse(vllm, "chat-lora")).isInstanceOfSatisfying(ApiError.class, e ->
                assertThat(e.status).isEqualTo(404));
    }
}
