package io.servebench.sim;

import io.servebench.flags.FlagCatalog;

import java.util.Arrays;
import java.util.Optional;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Whose command-line flags the simulated engine reads, and whose defaults it starts from: it stands in for
 * the engine a study declares, so the same flags configure both.
 */
public enum SimDialect {
    /** vLLM's {@code vllm serve} flags and defaults; prefix caching matches whole 16-token KV blocks. */
    VLLM(16),
    /** SGLang's {@code sglang.launch_server} flags and defaults; its radix cache matches single tokens (page size 1). */
    SGLANG(1),
    /** vLLM's flags, plus {@code --sim-acceptance-rate=P} to set the draft acceptance rate. */
    SIM(16);

    private final int cachePageTokens;

    SimDialect(int cachePageTokens) {
        this.cachePageTokens = cachePageTokens;
    }

    /** The engine whose flag catalogue this dialect reads: {@link FlagCatalog#SGLANG} or {@link FlagCatalog#VLLM}. */
    public String catalogEngine() {
        return this == SGLANG ? FlagCatalog.SGLANG : FlagCatalog.VLLM;
    }

    /** The engine's name in messages: SGLang, or vLLM (whose flags the simulated engine's own dialect reads too). */
    public String engineName() {
        return FlagCatalog.engineName(catalogEngine());
    }

    /**
     * Tokens per page of the engine's prefix cache, the unit a cached prefix is matched in: vLLM's default
     * {@code --block-size} 16, SGLang's default {@code --page-size} 1 (its radix tree matches token by token).
     */
    public int cachePageTokens() {
        return cachePageTokens;
    }

    /**
     * Why a request of {@code promptTokens} asking for {@code maxTokens} (null when unset) does not fit a context
     * of {@code maxModelLen}, in this engine's own words; {@code null} when it fits. vLLM refuses a prompt that
     * leaves no room and a total over the limit; SGLang a prompt as long as the context and a total that reaches it.
     */
    String contextProblem(int promptTokens, Integer maxTokens, int maxModelLen) {
        int asked = maxTokens == null ? 0 : maxTokens;
        long total = (long) promptTokens + asked;
        if (this == SGLANG) {
            if (promptTokens >= maxModelLen) {
                return "The input (" + promptTokens + " tokens) is longer than the model's context length ("
                        + maxModelLen + " tokens).";
            }
            if (maxTokens != null && total >= maxModelLen) {
                return "Requested token count exceeds the model's maximum context length of " + maxModelLen
                        + " tokens. You requested a total of " + total + " tokens: " + promptTokens
                        + " tokens from the input messages and " + asked + " tokens for the completion. Please reduce"
                        + " the number of tokens in the input messages or the completion to fit within the limit.";
            }
            return null;
        }
        // vLLM 0.17.1's words (vllm/entrypoints/openai/engine/serving.py, _validate_input)
        if (promptTokens >= maxModelLen) {
            return "This model's maximum context length is " + maxModelLen + " tokens. However, your request has "
                    + promptTokens + " input tokens. Please reduce the length of the input messages.";
        }
        if (maxTokens != null && total > maxModelLen) {
            return "'max_tokens' or 'max_completion_tokens' is too large: " + asked + ". This model's maximum context"
                    + " length is " + maxModelLen + " tokens and your request has " + promptTokens + " input tokens ("
                    + asked + " > " + maxModelLen + " - " + promptTokens + ").";
        }
        return null;
    }

    /**
     * Whether this engine's error replies are flat ({@code {"object": "error", "message", ...}}, SGLang's) rather
     * than nested in an {@code "error"} object (vLLM's).
     */
    boolean flatErrors() {
        return this == SGLANG;
    }

    /**
     * Whether a request names a LoRA adapter as {@code "base:adapter"} in {@code model} (SGLang: {@code serving_base.py}
     * splits the name at its first colon; a name without one runs the base model) rather than by the adapter's own name,
     * refusing a name it does not serve (vLLM).
     */
    public boolean adapterAfterBase() {
        return this == SGLANG;
    }

    /**
     * Whether the engine refuses to empty its prefix cache while it holds a request, so that an emptied cache proves it
     * idle: SGLang's scheduler flushes only when no request runs or waits ({@code scheduler.py}, {@code flush_cache}),
     * where vLLM up to 0.17 answers 200 whether or not it could.
     */
    public boolean resetRefusedWhileBusy() {
        return this == SGLANG;
    }

    /**
     * Whether the engine admits a request only with room for its whole output, less what the running requests are
     * expected to still generate ({@link OutputReserve}: SGLang's {@code PrefillAdder}), rather than whatever prompt
     * chunk fits (vLLM, which preempts when the pool runs out).
     */
    boolean reservesOutput() {
        return this == SGLANG;
    }

    /**
     * Whether a step that preempted a running request admits no waiting one: vLLM V1's scheduler schedules the waiting
     * queue only {@code if not preempted_reqs} ({@code vllm/v1/core/sched/scheduler.py}, {@code schedule}, from the V1
     * engine's first releases to today's), so that a pool just found full is not refilled in the same step. SGLang's
     * admission is its own ({@link #reservesOutput}).
     */
    boolean admitsNoneAfterPreemption() {
        return this != SGLANG;
    }

    /** The name as {@code --dialect} takes it: {@code vllm}, {@code sglang}, {@code sim}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The dialect of that name, in any case; empty when no engine the twin stands for has it. */
    public static Optional<SimDialect> find(String name) {
        return Arrays.stream(values()).filter(d -> d.toString().equalsIgnoreCase(String.valueOf(name).strip())).findFirst();
    }

    /**
     * The dialect of that name, in any case.
     *
     * @throws IllegalArgumentException naming the value and the dialects there are
     */
    public static SimDialect of(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("dialect must be "
                        + Arrays.stream(values()).map(d -> "\"" + d + "\"").collect(Collectors.joining(", "))
                        + ", got \"" + name + "\""));
    }
}
