package io.servebench.execution;

import io.servebench.measure.Metric;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A failed repetition's verdict says what the server refused and, where ServeBench's request was the cause, what to do. */
class RepetitionVerdictTest {

    @Test
    void requestsLongerThanTheServersContextAreToldHowToFit() {
        // vLLM 0.17.1's two refusals (vllm/entrypoints/openai/engine/serving.py, _validate_input), with its error body
        String vllmTotal = "http_400: {\"error\":{\"message\":\"'max_tokens' or 'max_completion_tokens' is too large: 150."
                + " This model's maximum context length is 600 tokens and your request has 716 input tokens (150 > 600 -"
                + " 716).\",\"type\":\"BadRequestError\",\"param\":\"max_tokens\",\"code\":400}}";
        String vllmInput = "http_400: {\"error\":{\"message\":\"This model's maximum context length is 2048 tokens. However,"
                + " your request has 2301 input tokens. Please reduce the length of the input messages.\"}}";
        // SGLang's (python/sglang/srt/managers/tokenizer_manager.py, _validate_one_request), in its flat error form
        String sglangInput = "http_400: {\"object\":\"error\",\"message\":\"The input (5000 tokens) is longer than the"
                + " model's context length (4096 tokens).\",\"type\":\"BadRequestError\",\"code\":400}";
        String sglangTotal = "http_400: {\"object\":\"error\",\"message\":\"Requested token count exceeds the model's maximum"
                + " context length of 4096 tokens. You requested a total of 4200 tokens\"}";
        assertThat(RepetitionVerdict.errors(failed(vllmTotal))).endsWith("; the server's context holds 600 tokens, fewer"
                + " than these requests' prompt and reply: serve a longer context (@ServerOptions(maxModelLen), vLLM's"
                + " --max-model-len, SGLang's --context-length) or draw requests that fit it (sharegpt:PATH,maxTotal=600,"
                + " or synthetic:in=N,out=N)");
        assertThat(RepetitionVerdict.errors(failed(vllmInput))).contains("context holds 2048 tokens").contains("maxTotal=2048");
        assertThat(RepetitionVerdict.errors(failed(sglangInput))).contains("context holds 4096 tokens");
        assertThat(RepetitionVerdict.errors(failed(sglangTotal))).contains("context holds 4096 tokens");
        // another 400 gets no such advice
        assertThat(RepetitionVerdict.errors(failed("http_400: {\"error\":{\"message\":\"temperature must be >= 0\"}}")))
                .doesNotContain("context");
    }

    @Test
    void aServerRefusingTheExactLengthFieldsIsToldTheOption() {
        assertThat(RepetitionVerdict.failure(failed("http_400: {\"error\":{\"message\":\"Unrecognized request argument"
                + " supplied: min_tokens\"}}"), 0.05)).hasValueSatisfying(v -> assertThat(v)
                .startsWith("every measured request failed (20 of 20): http_400 ×20")
                .endsWith("-p exactOutput=false sends max_tokens alone"));
    }

    /** A repetition whose 20 measured requests all failed with {@code example}. */
    private static RepetitionResult failed(String example) {
        return new RepetitionResult(Map.of(Metric.SUCCESSFUL_REQUESTS.id(), 0.0, Metric.FAILED_REQUESTS.id(), 20.0),
                Map.of(), 0, 0, Map.of(), Map.of("http_400", 20L), Map.of(), List.of(), Map.of(), null, Map.of(), null,
                Map.of(), Map.of(), Map.of("http_400", example));
    }
}
