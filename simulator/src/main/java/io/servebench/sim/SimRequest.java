package io.servebench.sim;

import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One generation request as the scheduler sees it. Fields below "scheduler state" are only touched by
 * the scheduler thread; the handler thread reads {@link #cachedTokens} and {@link #preemptions} after the
 * last {@link Emission} arrived, which the queue's hand-over makes visible.
 */
final class SimRequest {

    /**
     * What a step produced for this request: {@code tokens} new tokens, or the end, or a failure, due to be
     * written at {@code dueNs} ({@link System#nanoTime()}), the end of the step in the model's time.
     */
    record Emission(int tokens, boolean last, String failure, long dueNs) {
        /** A failure, due at once. */
        static Emission failed(String why) {
            return new Emission(0, true, why, System.nanoTime());
        }
    }

    final String id;
    /** When the engine received the request ({@link System#nanoTime()}): where the model's time starts for it. */
    final long arrivalNs;
    final int promptTokens;
    /** Cumulative hash of each full prefix-cache page of the prompt ({@link SimDialect#cachePageTokens()}), in order. */
    final long[] blockHashes;
    final int outputTokens;
    /** Draws speculative-decoding acceptances; seeded per request so runs repeat. */
    final SplittableRandom acceptance;
    final BlockingQueue<Emission> emissions = new LinkedBlockingQueue<>();
    volatile boolean cancelled;

    // scheduler state
    /** Tokens whose KV is in the cache. */
    int computed;
    /** Tokens produced so far. */
    int generated;
    /** Whether the request is (re)computing its prompt and earlier output, and up to how many tokens. */
    boolean prefilling;
    int prefillTarget;
    /** Bytes of the KV pool held. */
    double heldBytes;
    long admissionOrder;
    boolean everAdmitted;
    int cachedTokens;
    int preemptions;
    /** The LoRA adapter the request names, {@code null} for the base model. */
    String adapter;
    /** The most tokens it may generate ({@link OutputPlan#maxTokens()}); without a plan, exactly its output. */
    int maxNewTokens;

    SimRequest(String id, long arrivalNs, int promptTokens, long[] blockHashes, int outputTokens, long seed) {
        this.id = id;
        this.arrivalNs = arrivalNs;
        this.promptTokens = promptTokens;
        this.blockHashes = blockHashes;
        this.outputTokens = outputTokens;
        this.maxNewTokens = outputTokens;
        this.acceptance = new SplittableRandom(seed);
    }
}
