package io.servebench.flags;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How each engine ServeBench speaks to spells the settings both sides of the harness use: the engine layer writes these
 * flags for a study's typed {@code @ServerOptions}, and the simulated engine reads them when it stands in for that
 * engine. Each spelling is written here once; a flag only one side knows (an engine's alias the harness never writes,
 * a flag the simulator ignores) stays with that side.
 *
 * @param maxModelLen         the longest sequence in tokens
 * @param tensorParallelSize  GPUs the model is split over
 * @param gpuMemoryUtilization the whole GPU memory budget (weights, KV cache, activations), {@code null} for an engine
 *                            without a setting of that meaning (SGLang)
 * @param staticMemoryFraction the share of GPU memory for weights and KV cache only, {@code null} for an engine without
 *                            a setting of that meaning (vLLM)
 * @param maxNumSeqs          most sequences in one batch
 * @param maxNumBatchedTokens most tokens in one batch (prefill chunk)
 * @param prefixCachingOn     the arguments that turn prefix caching on (none where it is on by default)
 * @param prefixCachingOff    the arguments that turn it off
 * @param apiKey              the bearer token the server requires
 * @param reasoningParser     which reasoning format the server splits out of the text
 */
public record EngineFlags(String maxModelLen, String tensorParallelSize, String gpuMemoryUtilization,
                          String staticMemoryFraction, String maxNumSeqs,
                          String maxNumBatchedTokens, List<String> prefixCachingOn, List<String> prefixCachingOff,
                          String apiKey, String reasoningParser) {

    /** {@code vllm serve}'s spellings (vLLM's {@code EngineArgs}, {@code vllm/engine/arg_utils.py}). */
    public static final EngineFlags VLLM = new EngineFlags("--max-model-len", "--tensor-parallel-size",
            "--gpu-memory-utilization", null, "--max-num-seqs", "--max-num-batched-tokens", List.of("--enable-prefix-caching"),
            List.of("--no-enable-prefix-caching"), "--api-key", "--reasoning-parser");

    /** {@code sglang.launch_server}'s spellings (SGLang's {@code ServerArgs}, {@code python/sglang/srt/server_args.py}). */
    public static final EngineFlags SGLANG = new EngineFlags("--context-length", "--tp-size", null, "--mem-fraction-static",
            "--max-running-requests", "--chunked-prefill-size", List.of(), List.of("--disable-radix-cache"), "--api-key",
            "--reasoning-parser");

    /**
     * The name the API answers to, in both engines' spelling: vLLM's ({@code nargs='+'}, each name served, the first
     * in responses and metrics) replaces the model's path as a request's {@code model}; SGLang's (one name) is what
     * {@code /v1/models} lists.
     */
    public static final String SERVED_MODEL_NAME = "--served-model-name";

    /**
     * SGLang's key for its admin routes ({@code /flush_cache} among them): with it set, those routes want it as the
     * bearer token, and the API key no longer opens them ({@code python/sglang/srt/utils/auth.py}).
     */
    public static final String SGLANG_ADMIN_API_KEY = "--admin-api-key";

    /**
     * The environment variable that holds SGLang's admin key: the engine is started with it as
     * {@value #SGLANG_ADMIN_API_KEY} and {@code /flush_cache}, an admin route, is sent it as the bearer token. A key is
     * never a flag of a study, where it would reach the reports.
     */
    public static final String ADMIN_API_KEY_ENV = "SERVEBENCH_ADMIN_API_KEY";

    /** vLLM's JSON speculative-decoding flag: {@code --speculative-config={"method":...,"num_speculative_tokens":N}}. */
    public static final String VLLM_SPECULATIVE_CONFIG = "--speculative-config";

    /** SGLang's speculative-decoding flags: the algorithm, its steps, its draft tokens and the EAGLE tree's top-k. */
    public static final String SGLANG_SPECULATIVE_ALGORITHM = "--speculative-algorithm";
    public static final String SGLANG_SPECULATIVE_NUM_STEPS = "--speculative-num-steps";
    public static final String SGLANG_SPECULATIVE_NUM_DRAFT_TOKENS = "--speculative-num-draft-tokens";
    public static final String SGLANG_SPECULATIVE_EAGLE_TOPK = "--speculative-eagle-topk";
    /**
     * SGLang's widest n-gram draft tree: {@code 1} drafts a chain, as vLLM's n-gram does; SGLang's default, 10, a tree
     * ({@code server_args.py} sets the EAGLE top-k from it for NGRAM).
     */
    public static final String SGLANG_SPECULATIVE_NGRAM_MAX_BFS_BREADTH = "--speculative-ngram-max-bfs-breadth";
    /** SGLang's draft model of EAGLE ({@code server_args.py}). */
    public static final String SGLANG_SPECULATIVE_DRAFT_MODEL_PATH = "--speculative-draft-model-path";

    /** Each setting's arguments in this engine's spelling, in the components' order; {@code null} where it has none. */
    public List<List<String>> settings() {
        return Arrays.asList(one(maxModelLen), one(tensorParallelSize), one(gpuMemoryUtilization),
                one(staticMemoryFraction), one(maxNumSeqs), one(maxNumBatchedTokens), prefixCachingOn, prefixCachingOff, one(apiKey),
                one(reasoningParser));
    }

    /**
     * This engine's arguments for the setting that {@code other} spells {@code name}, e.g. SGLang's
     * {@code --max-running-requests} for vLLM's {@code --max-num-seqs}: an empty list where this engine needs none
     * (SGLang caches prefixes by default); empty when {@code name} is no setting of {@code other}'s here, or this
     * engine has no setting of that meaning.
     */
    public Optional<List<String>> counterpart(String name, EngineFlags other) {
        List<List<String>> mine = settings();
        List<List<String>> theirs = other.settings();
        for (int i = 0; i < mine.size(); i++) {
            if (theirs.get(i) != null && theirs.get(i).contains(name)) {
                return Optional.ofNullable(mine.get(i));
            }
        }
        return Optional.empty();
    }

    /** Whether {@code name} is one of the arguments of this engine's settings here. */
    public boolean spells(String name) {
        return settings().stream().filter(Objects::nonNull).anyMatch(args -> args.contains(name));
    }

    private static List<String> one(String name) {
        return name == null ? null : List.of(name);
    }

    public EngineFlags {
        prefixCachingOn = List.copyOf(prefixCachingOn);
        prefixCachingOff = List.copyOf(prefixCachingOff);
    }
}
