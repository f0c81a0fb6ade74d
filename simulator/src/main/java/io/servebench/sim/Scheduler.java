package io.servebench.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A continuous-batching scheduler in the style of vLLM V1, run by one thread on the model's own clock.
 *
 * <p>Time is the model's, never the thread's: a step starts when the previous one ends in the model (or,
 * when the engine was idle, at the arrival of the request that wakes it), lasts what {@link StepCostModel}
 * gives it, and its tokens are due at its end. A request takes part in a step only if it arrived (by the
 * engine's receive stamp) before the step began. The thread makes each step's decisions
 * {@value #ADMISSION_GRACE_NS} ns after the step's start (so a request received just before it has been
 * handed over) and hands the tokens over with their due time; the handlers write them then. A busy CPU
 * that makes a write late delays that write only, which the handler records as delivery lateness; it
 * never makes the simulated GPU slower.
 *
 * <p>Each step: (1) running requests are scheduled first, oldest first: a decoding request costs
 * 1 + k tokens of the step budget ({@code maxNumBatchedTokens}; k draft tokens with speculative decoding),
 * a request still prefilling takes the next chunk of its prompt that fits the remaining budget (chunked
 * prefill). Each needs KV-cache room for the tokens it computes; when the pool is full the newest running
 * request is preempted: it frees its cache and goes back to the front of the queue, to recompute its
 * prompt and output later. (2) Waiting requests are admitted in arrival order while fewer than
 * {@code maxNumSeqs} run, budget is left and their first chunk fits in the cache. With prefix caching, an
 * admitted request skips the leading full {@value #BLOCK_TOKENS}-token blocks of its prompt that an earlier
 * prompt already computed. (3) The step lasts its modelled duration; then every request whose prefill
 * completed emits its first token, and every decoding request emits 1 token, or with speculative
 * decoding 1 + j tokens in one emission, where j counts draft tokens accepted in a row, each with the
 * acceptance rate.
 *
 * <p>KV memory is accounted in bytes: a request holds its per-sequence state plus
 * {@code kvBytesPerToken} for every computed token.
 */
final class Scheduler implements AutoCloseable {

    /** Tokens per KV-cache block; prefix caching matches whole blocks. */
    static final int BLOCK_TOKENS = 16;
    /**
     * How long after a step's start (in the model's time) its decisions are made: a request received just
     * before the step began has this long to reach the scheduler. Shorter than the smallest step, so the
     * tokens are handed over before they are due.
     */
    static final long ADMISSION_GRACE_NS = 500_000;

    private final SimParams settings;
    private final SimMetrics metrics;
    private final StepCostModel cost;
    private final double poolBytes;
    private final BlockingQueue<SimRequest> arrivals = new LinkedBlockingQueue<>();
    private final Deque<SimRequest> waiting = new ArrayDeque<>();
    private final List<SimRequest> running = new ArrayList<>();
    /** Block hashes whose KV an earlier prompt computed, least recently used first. */
    private final LinkedHashMap<Long, Boolean> prefixCache;
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean resetRequested;
    private double usedBytes;
    private long admissions;
    /** The model's time at which the next step starts ({@link System#nanoTime()} scale). */
    private long clockNs;

    Scheduler(SimParams settings) {
        this(settings, new SimMetrics());
    }

    /** A scheduler that counts what it does into {@code metrics} (the engine's {@code /metrics}). */
    Scheduler(SimParams settings, SimMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
        this.cost = new StepCostModel(settings);
        this.poolBytes = settings.kvPoolBytes();
        // the cache lives in free KV blocks; bounding it by the pool's block count keeps it as large as the GPU could hold
        long maxBlocks = (long) (poolBytes / (settings.model().kvBytesPerToken() * BLOCK_TOKENS));
        this.prefixCache = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > maxBlocks;
            }
        };
        this.clockNs = System.nanoTime();
        this.thread = new Thread(this::loop, "sim-scheduler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues a request; its tokens arrive on {@link SimRequest#emissions}. */
    void submit(SimRequest request) {
        if (closed) {
            request.emissions.add(SimRequest.Emission.failed("engine is shut down"));
            return;
        }
        arrivals.add(request);
    }

    /**
     * Empties the prefix cache before the next request is admitted, as vLLM's {@code /reset_prefix_cache}
     * and SGLang's {@code /flush_cache} do between benchmark runs. The scheduler thread owns the cache, so
     * it clears it itself.
     */
    void resetPrefixCache() {
        resetRequested = true;
    }

    /** Stops the scheduler thread and fails every request not finished. Idempotent. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<SimRequest> left = new ArrayList<>(running);
        left.addAll(waiting);
        arrivals.drainTo(left);
        for (SimRequest r : left) {
            r.emissions.add(SimRequest.Emission.failed("engine is shut down"));
        }
        running.clear();
        waiting.clear();
    }

    private void loop() {
        try {
            while (!closed) {
                if (running.isEmpty() && waiting.isEmpty()) {
                    SimRequest first = arrivals.take();
                    addWaiting(first);
                    // idle until this arrival: the next step starts when it came in, not when this thread woke
                    if (first.arrivalNs - clockNs > 0) {
                        clockNs = first.arrivalNs;
                    }
                }
                sleepUntil(clockNs + ADMISSION_GRACE_NS);
                SimRequest r;
                while ((r = arrivals.poll()) != null) {
                    addWaiting(r);
                }
                if (resetRequested) {
                    resetRequested = false;
                    prefixCache.clear();
                }
                dropCancelled();
                metrics.running = running.size();
                metrics.waiting = waiting.size();
                step();
            }
        } catch (InterruptedException e) {
            // close() interrupts to stop the loop; it fails whatever is left
        }
    }

    /**
     * Queues an arrival behind the waiting requests that arrived before it (handler threads may hand
     * requests over out of order); preempted requests, at the front, stay first.
     */
    private void addWaiting(SimRequest r) {
        java.util.Iterator<SimRequest> back = waiting.descendingIterator();
        int after = 0;
        while (back.hasNext()) {
            SimRequest w = back.next();
            if (w.preemptions > 0 || w.arrivalNs - r.arrivalNs <= 0) {
                break;
            }
            after++;
        }
        if (after == 0) {
            waiting.addLast(r);
            return;
        }
        Deque<SimRequest> later = new ArrayDeque<>();
        for (int i = 0; i < after; i++) {
            later.addFirst(waiting.pollLast());
        }
        waiting.addLast(r);
        waiting.addAll(later);
    }

    private static void sleepUntil(long wallNs) throws InterruptedException {
        for (long now = System.nanoTime(); wallNs - now > 0; now = System.nanoTime()) {
            LockSupport.parkNanos(wallNs - now);
            if (Thread.interrupted()) {
                throw new InterruptedException("closed while waiting for a step");
            }
        }
    }

    private record Work(SimRequest request, int tokens, boolean prefill) {
    }

    private void step() throws InterruptedException {
        long start = clockNs;
        List<Work> batch = new ArrayList<>();
        int budget = settings.maxNumBatchedTokens();
        int k = settings.speculativeTokens();
        for (int i = 0; i < running.size() && budget > 0; i++) {
            SimRequest r = running.get(i);
            int tokens = r.prefilling ? Math.min(r.prefillTarget - r.computed, budget) : Math.min(1 + k, budget);
            if (!reserve(r, tokens)) {
                // r itself was the newest and got preempted; the list shrank past it
                break;
            }
            budget -= tokens;
            batch.add(new Work(r, tokens, r.prefilling));
        }
        while (!waiting.isEmpty() && running.size() < settings.maxNumSeqs() && budget > 0
                && waiting.peekFirst().arrivalNs - start <= 0) {
            SimRequest r = waiting.peekFirst();
            int cached = settings.prefixCaching() ? cachedPrefix(r) : 0;
            int target = r.promptTokens + r.generated;
            int tokens = Math.min(target - cached, budget);
            double bytes = bytesFor(cached + tokens);
            if (usedBytes + bytes > poolBytes) {
                break;
            }
            waiting.pollFirst();
            r.computed = cached;
            r.prefillTarget = target;
            r.prefilling = true;
            r.heldBytes = bytes;
            r.admissionOrder = admissions++;
            if (!r.everAdmitted) {
                r.cachedTokens = cached;
                r.everAdmitted = true;
            }
            if (settings.prefixCaching()) {
                metrics.prefixCacheQueries.add(r.promptTokens);
                metrics.prefixCacheHits.add(cached);
            }
            usedBytes += bytes;
            running.add(r);
            budget -= tokens;
            batch.add(new Work(r, tokens, true));
        }
        if (batch.isEmpty()) {
            // nothing ran: the model's clock moves on to the next arrival it waits for
            SimRequest next = waiting.peekFirst();
            if (next != null && next.arrivalNs - clockNs > 0) {
                clockNs = next.arrivalNs;
            }
            return;
        }
        long computedTokens = 0;
        long contextTokens = 0;
        int drafting = 0;
        for (Work w : batch) {
            computedTokens += w.tokens;
            contextTokens += w.request.computed + w.tokens;
            if (!w.prefill && k > 0) {
                drafting++;
            }
        }
        long end = start + cost.stepNanos(computedTokens, contextTokens, batch.size(), drafting);
        for (Work w : batch) {
            finishWork(w, end);
        }
        clockNs = end;
    }

    /** Grows r's KV allocation by {@code tokens}, preempting newer requests; false when r itself was preempted. */
    private boolean reserve(SimRequest r, int tokens) {
        double needed = bytesFor(r.computed + tokens) - r.heldBytes;
        while (usedBytes + needed > poolBytes) {
            SimRequest newest = running.get(running.size() - 1);
            preempt(newest);
            if (newest == r) {
                return false;
            }
        }
        r.heldBytes += needed;
        usedBytes += needed;
        return true;
    }

    private void preempt(SimRequest r) {
        running.remove(r);
        usedBytes -= r.heldBytes;
        r.heldBytes = 0;
        r.computed = 0;
        r.prefilling = false;
        r.preemptions++;
        metrics.preemptions.increment();
        waiting.addFirst(r);
    }

    private void finishWork(Work w, long dueNs) {
        SimRequest r = w.request;
        int emitted;
        if (w.prefill) {
            r.computed += w.tokens;
            if (r.computed < r.prefillTarget) {
                return;
            }
            r.prefilling = false;
            if (settings.prefixCaching()) {
                for (long h : r.blockHashes) {
                    prefixCache.put(h, Boolean.TRUE);
                }
            }
            emitted = 1;
            if (r.generated == 0) {
                metrics.promptTokens.add(r.promptTokens);
            }
        } else {
            int accepted = 0;
            while (accepted < w.tokens - 1 && r.acceptance.nextDouble() < settings.acceptanceRate()) {
                accepted++;
            }
            if (w.tokens > 1) {
                metrics.drafts.increment();
                metrics.draftTokens.add(w.tokens - 1);
                metrics.acceptedTokens.add(accepted);
            }
            emitted = Math.min(1 + accepted, r.outputTokens - r.generated);
            r.computed += emitted;
        }
        r.generated += emitted;
        metrics.generationTokens.add(emitted);
        boolean last = r.generated >= r.outputTokens;
        if (last) {
            running.remove(r);
            usedBytes -= r.heldBytes;
            r.heldBytes = 0;
        }
        r.emissions.add(new SimRequest.Emission(emitted, last, null, dueNs));
    }

    private int cachedPrefix(SimRequest r) {
        // at least one prompt token is always computed, to produce the logits of the first output token, and
        // hits are whole blocks: as vLLM V1, a fully cached prompt recomputes its whole last block
        int maxBlocks = Math.min(r.blockHashes.length, (r.promptTokens - 1) / BLOCK_TOKENS);
        int blocks = 0;
        while (blocks < maxBlocks && prefixCache.get(r.blockHashes[blocks]) != null) {
            blocks++;
        }
        return blocks * BLOCK_TOKENS;
    }

    private void dropCancelled() {
        waiting.removeIf(r -> r.cancelled);
        for (int i = running.size() - 1; i >= 0; i--) {
            SimRequest r = running.get(i);
            if (r.cancelled) {
                running.remove(i);
                usedBytes -= r.heldBytes;
                r.heldBytes = 0;
            }
        }
    }

    private double bytesFor(int tokens) {
        return settings.model().stateBytesPerSequence() + settings.model().kvBytesPerToken() * tokens;
    }
}
