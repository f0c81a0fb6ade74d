package io.servebench.sim;

/**
 * The duration of one forward step of the batch, from a roofline of the model on the GPUs. With
 * {@code B} the effective bandwidth (bytes/s) and {@code F} the effective FLOP/s, both summed over the
 * tensor-parallel GPUs:
 * <pre>
 *   step = max(weightBytes / B, 2 * activeParameters * computedTokens / F)   weights vs. compute
 *        + (kvBytesPerToken * contextTokens + stateBytesPerSequence * sequences) / B   attention reads
 *        + k * draftFraction * max(weightBytes / B, 2 * activeParameters * draftingSequences / F)   drafting
 *        + overheadFactor * {@value #BASE_OVERHEAD_NANOS} ns + {@value #PER_SEQUENCE_NANOS} ns * sequences
 *        + {@value #PER_EXTRA_RANK_NANOS} ns * (tensorParallelSize - 1)          host work, all-reduce
 * </pre>
 * Every term grows with the work in the step, so more prompt tokens, more context or more sequences
 * never make a step shorter. For Qwen3.5-9B on an H100 a decode step of ~18 sequences takes ~8 ms
 * (6.3 ms of it reading the weights) and a 340-token prefill ~11 ms.
 */
final class StepCostModel {

    /** Fixed host-side cost of a step (scheduling, input preparation, kernel launches), ns. */
    static final long BASE_OVERHEAD_NANOS = 1_000_000;
    /** Host-side cost per sequence in the step (sampling, detokenizing, output processing), ns. */
    static final long PER_SEQUENCE_NANOS = 15_000;
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
     */
    long stepNanos(long computedTokens, long contextTokens, int sequences, int draftingSequences) {
        ModelProfile m = settings.model();
        double weights = m.weightBytes() / bandwidth;
        double compute = 2 * m.activeParameters() * computedTokens / flops;
        double attention = (m.kvBytesPerToken() * contextTokens + m.stateBytesPerSequence() * sequences) / bandwidth;
        double draft = draftingSequences == 0 ? 0
                : settings.speculativeTokens() * m.draftFraction()
                        * Math.max(weights, 2 * m.activeParameters() * draftingSequences / flops);
        double seconds = Math.max(weights, compute) + attention + draft;
        double overhead = settings.performanceMode().overheadFactor() * BASE_OVERHEAD_NANOS
                + (double) PER_SEQUENCE_NANOS * sequences
                + (double) PER_EXTRA_RANK_NANOS * (settings.tensorParallelSize() - 1);
        return Math.round(seconds * 1e9 + overhead);
    }
}
