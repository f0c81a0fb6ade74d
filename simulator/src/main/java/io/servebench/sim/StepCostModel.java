package io.servebench.sim;

/**
 * The duration of one forward step of the batch, from a roofline of the model on the GPUs. With
 * {@code B} the effective bandwidth (bytes/s) and {@code F} the effective FLOP/s, both summed over the
 * tensor-parallel GPUs:
 * <pre>
 *   step = max(weightBytes / B, 2 * activeParameters * computedTokens / F)   weights vs. compute
 *        + (kvBytesPerToken * contextTokens + stateBytesPerSequence * sequences) / B   attention reads
 *        + k * draftFraction * max(weightBytes / B, 2 * activeParameters * draftingSequences / F)   drafting
 *        + overheadFactor * engine.stepNanos                                        host work ({@link EngineProfile}):
 *        + engine.sequenceNanos * (sequences + acceptedDrafts)                    per step, and per sequence and
 *                                                                                  extra token it emits
 *        + {@value #PER_EXTRA_RANK_NANOS} ns * (tensorParallelSize - 1)          all-reduce
 * </pre>
 * Every term grows with the work in the step, so more prompt tokens, more context or more sequences
 * never make a step shorter. For Qwen3.5-9B on an H100 a decode step of ~18 sequences takes ~8 ms
 * (6.3 ms of it reading the weights) and a 340-token prefill ~11 ms.
 */
final class StepCostModel {

    /** All-reduce latency added per tensor-parallel rank beyond the first, ns. */
    static final long PER_EXTRA_RANK_NANOS = 250_000;

    private final SimParams settings;
    private final double bandwidth;
    private final double flops;

    StepCostModel(SimParams settings) {
        this.settings = settings;
        this.bandwidth = settings.gpu().effectiveBandwidth() * settings.tensorParallelSize();
        this.flops = settings.gpu().effectiveFlops() * settings.tensorParallelSize();
    }

    /**
     * Duration of one step, in nanoseconds.
     *
     * @param computedTokens     tokens run through the model: prefill chunk tokens plus, per decoding sequence,
     *                           1 (or 1 + k draft tokens to verify with speculative decoding)
     * @param contextTokens      KV-cache tokens attention reads, summed over the sequences in the step
     * @param sequences          sequences in the step
     * @param draftingSequences  decoding sequences for which k draft tokens are proposed (0 without speculation)
     * @param acceptedDrafts     draft tokens accepted in the step: the output processing (detokenising, parsing)
     *                           of each is host work like a sequence's own token
     */
    long stepNanos(long computedTokens, long contextTokens, int sequences, int draftingSequences, int acceptedDrafts) {
        ModelProfile m = settings.model();
        double weights = m.weightBytes() / bandwidth;
        double compute = 2 * m.activeParameters() * computedTokens / flops;
        double attention = (m.kvBytesPerToken() * contextTokens + m.stateBytesPerSequence() * sequences) / bandwidth;
        double draft = draftingSequences == 0 ? 0
                : settings.speculativeTokens() * m.draftFraction()
                        * Math.max(weights, 2 * m.activeParameters() * draftingSequences / flops);
        double seconds = Math.max(weights, compute) + attention + draft;
        EngineProfile engine = settings.engine();
        double overhead = settings.performanceMode().overheadFactor() * engine.stepNanos()
                + (double) engine.sequenceNanos() * (sequences + acceptedDrafts)
                + (double) PER_EXTRA_RANK_NANOS * (settings.tensorParallelSize() - 1);
        return Math.round(seconds * 1e9 + overhead);
    }
}
