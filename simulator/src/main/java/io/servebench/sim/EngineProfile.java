package io.servebench.sim;

import java.util.Locale;

/**
 * What differs between serving engines (and their versions) that the roofline of the model on the GPU cannot
 * derive: the host's work around each step and each request. Every value is either measured elsewhere and
 * cited, or fitted by {@code sim calibrate} on the reference study's 8 req/s blocks (docs/simulated-engine.md, "Calibration").
 *
 * @param name           the engine and version the constants describe, e.g. {@code vLLM 0.17.1}
 * @param stepNanos      host time per engine step whatever its size (scheduling, input preparation, CUDA-graph
 *                       launch), ns
 * @param sequenceNanos  host time per sequence in a step (sampling, detokenising, the reasoning parser,
 *                       per-request state of linear-attention layers), ns
 * @param frontendNanos  time from a request's arrival at the server to its entry in the scheduler's queue
 *                       (HTTP parsing, chat template, tokenising, the hop to the engine core), ns; it delays the
 *                       first token and nothing after it
 */
public record EngineProfile(String name, long stepNanos, long sequenceNanos, long frontendNanos) {

    public EngineProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an engine profile needs a name");
        }
        if (stepNanos < 0 || sequenceNanos < 0 || frontendNanos < 0) {
            throw new IllegalArgumentException("engine profile " + name + ": times must be >= 0 ns, got step "
                    + stepNanos + ", sequence " + sequenceNanos + ", frontend " + frontendNanos);
        }
    }

    /**
     * A step's host time (scheduling, input preparation, launching the CUDA graph), ns: the 1 ms of fixed time per step
     * assumed for the reference study's small decode batches, less what its model's kernels take at one sequence beyond
     * the roofline (Qwen3.5-9B on one H100: 617 µs, {@link StepCostModel#kernelFloorNanos}), which the step model now
     * charges to the GPU, where it does not shrink with more GPUs.
     */
    static final long HOST_STEP_NANOS = 383_000;

    /**
     * vLLM 0.17.1 (the reference study's): {@link #HOST_STEP_NANOS} per step; per sequence and front end fitted on the
     * reference's vLLM 8 req/s baseline block.
     */
    public static EngineProfile vllm() {
        return new EngineProfile("vLLM 0.17.1", HOST_STEP_NANOS, 70_300, 22_900_000);
    }

    /**
     * SGLang 0.5.9 serving a hybrid of attention and linear-attention layers, as in the reference study: the same host
     * time per step as vLLM; per sequence and front end fitted on the reference's SGLang 8 req/s baseline block (Qwen3.5-9B),
     * whose tokens came 3x slower than vLLM's at a similar load. SGLang takes that model down a path of its own: the
     * mamba radix cache and no overlap scheduler ({@link SimParams#overlapsHostWork}); the reference does not say which
     * part of it costs the time, so the fit puts it where the data points (per-token time grows with the batch).
     */
    public static EngineProfile sglang() {
        return new EngineProfile("SGLang 0.5.9", HOST_STEP_NANOS, 287_000, 73_500_000);
    }

    /**
     * SGLang 0.5.9 serving a model without linear-attention layers: vLLM 0.17.1's fitted host times ({@link #vllm()}).
     * The reference has SGLang only on its hybrid path ({@link #sglang()}) and no run of either engine on a model
     * without one, so nothing measured tells SGLang's host work on a plain transformer apart from vLLM's; the twin
     * assumes it is alike (sampling, detokenising, the hop from the HTTP server to the scheduler) rather than carry the
     * hybrid path's cost over. {@code sim validate} tests the assumption against published SGLang results.
     */
    public static EngineProfile sglangWithoutLinearAttention() {
        EngineProfile v = vllm();
        return new EngineProfile("SGLang 0.5.9 without linear attention (vLLM 0.17.1's host times)", v.stepNanos(),
                v.sequenceNanos(), v.frontendNanos());
    }

    /**
     * The profile of the engine whose flags a dialect reads, for this model; the simulated engine's own reads vLLM's.
     */
    public static EngineProfile forDialect(SimDialect dialect, ModelProfile model) {
        if (dialect != SimDialect.SGLANG) {
            return vllm();
        }
        return EngineDefaults.hybrid(model) ? sglang() : sglangWithoutLinearAttention();
    }

    /** This profile with other fitted constants. */
    public EngineProfile withFitted(long newSequenceNanos, long newFrontendNanos) {
        return new EngineProfile(name, stepNanos, newSequenceNanos, newFrontendNanos);
    }

    /** One line for logs and the calibration table. */
    public String describe() {
        return String.format(Locale.ROOT, "%s: %.3f ms per step, %.1f us per sequence, %.1f ms front end", name,
                stepNanos / 1e6, sequenceNanos / 1e3, frontendNanos / 1e6);
    }
}
