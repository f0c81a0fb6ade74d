package io.servebench.workload;

import java.util.function.ToIntFunction;

/**
 * How a ShareGPT sample's prompt and reply lengths spread around their means, which depends on the client that drew it:
 * a published ShareGPT run is rehearsed with its client's spread, scaled to the token totals it printed
 * ({@link Datasets#shareGptShaped}). The spread matters beside the means: a run's mean time per output token averages
 * over requests, so it weighs the many short replies of a real sample as much as the long ones.
 */
public enum ShareGptShape {

    /**
     * The bundled made-up set's ({@code synthetic-sharegpt}): log-normal prompt and reply lengths, few under 50 tokens,
     * made with means near the reference study's guidellm sample (342 prompt and 281 reply tokens).
     */
    SYNTHETIC {
        @Override
        Dataset shaped(double meanPromptTokens, double meanOutputTokens, int count, ToIntFunction<String> tokens) {
            return SyntheticShareGpt.shaped(meanPromptTokens, meanOutputTokens, count, tokens);
        }
    },

    /**
     * vLLM's benchmark client's ({@code vllm bench serve}, {@code benchmark_serving.py}): the lengths of the 500
     * requests it sent in a published run ({@link BenchmarkShareGpt}), half the prompts under 76 tokens and a third of
     * the replies under 50.
     */
    BENCHMARK_CLIENT {
        @Override
        Dataset shaped(double meanPromptTokens, double meanOutputTokens, int count, ToIntFunction<String> tokens) {
            return BenchmarkShareGpt.shaped(meanPromptTokens, meanOutputTokens, count, tokens);
        }
    };

    abstract Dataset shaped(double meanPromptTokens, double meanOutputTokens, int count, ToIntFunction<String> tokens);
}
