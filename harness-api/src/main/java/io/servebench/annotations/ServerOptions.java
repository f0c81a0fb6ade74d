package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Engine settings that every engine has under its own flag name, written once for all: ServeBench
 * writes each in the dialect of the variant's engine, so a study that compares vLLM and SGLang states
 * the context length once. On a class they apply to every variant; on a variant method they override the
 * class's one by one. A flag written out in {@link Engine#flags()} or {@link Variant#flags()} wins over
 * the typed option it spells.
 *
 * <table>
 *   <caption>What each option becomes</caption>
 *   <tr><th>option</th><th>vLLM</th><th>SGLang</th></tr>
 *   <tr><td>{@link #maxModelLen()}</td><td>{@code --max-model-len}</td><td>{@code --context-length}</td></tr>
 *   <tr><td>{@link #tensorParallelSize()}</td><td>{@code --tensor-parallel-size}</td><td>{@code --tp-size}</td></tr>
 *   <tr><td>{@link #gpuMemoryFraction()}</td><td>{@code --gpu-memory-utilization}</td><td>(no setting of this meaning)</td></tr>
 *   <tr><td>{@link #staticMemoryFraction()}</td><td>(no setting of this meaning)</td><td>{@code --mem-fraction-static}</td></tr>
 *   <tr><td>{@link #maxNumSeqs()}</td><td>{@code --max-num-seqs}</td><td>{@code --max-running-requests}</td></tr>
 *   <tr><td>{@link #prefixCaching()}</td><td>{@code --enable-prefix-caching} / {@code --no-enable-prefix-caching}</td>
 *       <td>(on by default) / {@code --disable-radix-cache}</td></tr>
 *   <tr><td>{@link #speculative()} {@code "mtp:1"}</td><td>{@code --speculative-config={"method":"mtp","num_speculative_tokens":1}}</td>
 *       <td>{@code --speculative-algorithm=NEXTN --speculative-num-steps=1 --speculative-eagle-topk=1 --speculative-num-draft-tokens=2}</td></tr>
 *   <tr><td>{@link #simulatedModelConfig()}</td><td colspan="2">(read by the simulated engine only)</td></tr>
 * </table>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ServerOptions {

    /** Not set here: inherit from the class, or leave the engine's default. */
    int UNSET = -1;

    /** Longest sequence (prompt plus output) in tokens. */
    int maxModelLen() default UNSET;

    /** GPUs the model is split over. */
    int tensorParallelSize() default UNSET;

    /**
     * The whole GPU memory budget, in (0, 1]: weights, KV cache, activations and CUDA graphs together (vLLM's
     * {@code --gpu-memory-utilization}, {@code vllm/config/cache.py}). SGLang has no setting of this meaning; a study
     * that runs SGLang too states {@link #staticMemoryFraction()} for it.
     */
    double gpuMemoryFraction() default UNSET;

    /**
     * The share of GPU memory for the weights and the KV cache only, in (0, 1]; activations and CUDA graphs come on top
     * (SGLang's {@code --mem-fraction-static}: "model weights and KV cache memory pool", {@code server_args.py}). vLLM
     * has no setting of this meaning; a study that runs vLLM too states {@link #gpuMemoryFraction()} for it.
     */
    double staticMemoryFraction() default UNSET;

    /** Most sequences in one batch. */
    int maxNumSeqs() default UNSET;

    /** Prefix caching on or off; {@link Toggle#DEFAULT} leaves the engine's default. */
    Toggle prefixCaching() default Toggle.DEFAULT;

    /**
     * Speculative decoding as {@code METHOD:TOKENS}: {@code mtp:1} (the model's multi-token prediction heads),
     * {@code eagle:3} and {@code eagle3:3} (with {@link #draftModel()}), {@code ngram:4}; {@code ""} for none.
     */
    String speculative() default "";

    /**
     * The draft model of an {@code eagle} or {@code eagle3} {@link #speculative()}: a Hugging Face id or a path, e.g.
     * {@code "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"}. Neither engine starts EAGLE without one.
     */
    String draftModel() default "";

    /**
     * The {@code config.json} (or its folder) of the model, for the simulated engine only: when a study of a model the
     * twin does not know by name, folder or Hugging Face cache is rehearsed with {@code --simulate} (or runs on kind
     * {@code sim}), the twin reads its architecture from here instead of refusing the run. Real engines read their
     * model's own config and are given nothing. A relative path is taken from the run's working directory;
     * {@code --sim-model-config} on the command line wins over it. {@code ""}: none.
     */
    String simulatedModelConfig() default "";

    /** A switch that can also be left to the engine. */
    enum Toggle { DEFAULT, ON, OFF }
}
