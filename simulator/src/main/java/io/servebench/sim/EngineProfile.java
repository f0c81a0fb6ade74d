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
     * vLLM 0.17.1 (the reference study's): 1 ms per step (vLLM V1's scheduler and input preparation with CUDA
     * graphs, as its profiler shows for small decode batches); per sequence and front end fitted on the
     * reference's vLLM 8 req/s baseline block.
     */
    public static EngineProfile vllm() {
        return new EngineProfile("vLLM 0.17.1", 1_000_000, 57_200, 22_600_000);
    }

    /**
     * SGLang 0.5.9 (the reference study's): the same 1 ms per step as vLLM; per sequence and front end fitted
     * on the reference's SGLang 8 req/s baseline block, whose tokens came 3x slower than vLLM's at a similar
     * load: the reference does not say why, so the fit puts it where the data points (per-token time grows
     * with the batch).
     */
    public static EngineProfile sglang() {
        return new EngineProfile("SGLang 0.5.9", 1_000_000, 305_000, 51_500_000);
    }

    /** The profile of the engine whose flags a dialect reads; the simulated engine's own reads vLLM's. */
    public static EngineProfile forDialect(SimDialect dialect) {
        return dialect == SimDialect.SGLANG ? sglang() : vllm();
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
