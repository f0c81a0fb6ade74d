package io.servebench.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decisions of a continuous-batching scheduler in the style of vLLM V1, one step at a time on a clock
 * its caller keeps: the real-time {@link Scheduler} thread and the discrete-event {@link VirtualEngine}
 * run the same steps, so they agree on every token's due time for the same arrivals. A step starts at the
 * time it is given, lasts what {@link StepCostModel} gives it, and its tokens are due at its end; a request
 * takes part only if it arrived before the step began. Not thread-safe: one caller drives it.
 *
 * <p>Each step: (0) with SGLang, unless {@code --enable-mixed-chunk} ({@link SimParams#prefillsApart}), a step that can
 * prefill does only that: its running
 * requests that are decoding wait for the next step without a prefill. (1) running requests are scheduled first, oldest first: a decoding request costs
 * 1 + k tokens of the step budget ({@code maxNumBatchedTokens}; k draft tokens with speculative decoding),
 * a request still prefilling takes the next chunk of its prompt that fits the remaining budget (chunked
 * prefill). Each needs KV-cache room for the tokens it computes; when the pool is full the newest running
 * request is preempted: it frees its cache and goes back to the front of the queue, to recompute its
 * prompt and output later. (2) Unless vLLM preempted a request in this step ({@link
 * SimDialect#admitsNoneAfterPreemption}), waiting requests are admitted in arrival order while fewer than
 * {@code maxNumSeqs} run, budget is left and their first chunk fits in the cache; SGLang admits one only with room
 * for its prompt and whole {@code max_tokens} beside what the running requests are expected to still generate
 * ({@link OutputReserve}). With prefix caching, an
 * admitted request skips the leading full pages of its prompt that an earlier prompt already computed: vLLM
 * matches 16-token blocks, SGLang's radix cache single tokens ({@link SimDialect#cachePageTokens()}). (3) The step lasts its modelled duration; then every request whose prefill
 * completed emits its first token, and every decoding request emits 1 token, or with speculative
 * decoding 1 + j tokens in one emission, where j counts draft tokens accepted in a row, each with the
 * acceptance rate.
 *
 * <p>KV memory is accounted in bytes: a request holds its per-sequence state (unless SGLang keeps it in its own
 * pool, whose size bounds {@code maxNumSeqs} instead) plus {@code kvBytesPerToken} for every computed token.
 */
final class BatchScheduler {

    /** Where a step's emissions go: the request's queue (real time) or the virtual engine's timeline. */
    interface Sink {
        void emit(SimRequest request, SimRequest.Emission emission);
    }

    private final SimParams settings;
    private final SimMetrics metrics;
    private final StepCostModel cost;
    private final Sink sink;
    private final double poolBytes;
    /** Tokens per prefix-cache page: a cached prefix is matched in whole pages. */
    private final int pageTokens;
    private final Deque<SimRequest> waiting = new ArrayDeque<>();
    private final List<SimRequest> running = new ArrayList<>();
    /** Block hashes whose KV an earlier prompt computed, least recently used first. */
    private final LinkedHashMap<Long, Boolean> prefixCache;
    private double usedBytes;
    private long admissions;
    /** SGLang's expectation of the running requests' outputs; {@code null} for an engine that reserves none. */
    private final OutputReserve outputs;
    /** Requests preempted in the step being scheduled. */
    private int preemptedInStep;
    private final PowerMeter power;
    /** The LoRA adapters the GPU holds, least recently used first: at most {@link LoraParams#maxLoras()}. */
    private final LinkedHashMap<String, Boolean> loadedAdapters = new LinkedHashMap<>(16, 0.75f, true);

    BatchScheduler(SimParams settings, SimMetrics metrics, Sink sink) {
        this.settings = settings;
        this.metrics = metrics;
        this.cost = new StepCostModel(settings);
        this.power = new PowerMeter(settings.gpu(), settings.tensorParallelSize());
        this.sink = sink;
        this.poolBytes = settings.kvPoolBytes();
        this.pageTokens = settings.dialect().cachePageTokens();
        this.outputs = settings.dialect().reservesOutput() ? new OutputReserve(settings.scheduleConservativeness()) : null;
        // the cache lives in free KV blocks; bounding it by the pool's block count keeps it as large as the GPU could hold
        long maxBlocks = (long) (poolBytes / (settings.model().kvBytes(pageTokens) * settings.kvCopies()));
        this.prefixCache = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > maxBlocks;
            }
        };
    }

    /** What the engine's GPUs drew, step by step. */
    PowerMeter power() {
        return power;
    }

    /** Whether no request is running or waiting. */
    boolean idle() {
        return running.isEmpty() && waiting.isEmpty();
    }

    int runningCount() {
        return running.size();
    }

    int waitingCount() {
        return waiting.size();
    }

    /** Empties the prefix cache, as vLLM's {@code /reset_prefix_cache} and SGLang's {@code /flush_cache} do. */
    void clearPrefixCache() {
        prefixCache.clear();
    }

    /** Removes every request not finished and returns them, running ones first. */
    List<SimRequest> drain() {
        List<SimRequest> left = new ArrayList<>(running);
        left.addAll(waiting);
        running.clear();
        waiting.clear();
        usedBytes = 0;
        return left;
    }

    /**
     * Queues an arrival behind the waiting requests that arrived before it (handler threads may hand
     * requests over out of order); preempted requests, at the front, stay first.
     */
    void add(SimRequest r) {
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

    /** One request's part of a step; {@code accepted} counts the draft tokens it accepts (decode steps only). */
    private record Work(SimRequest request, int tokens, boolean prefill, int accepted) {
    }

    /**
     * Runs the step that starts at {@code startNs}: schedules, emits what it produced (due at its end) and
     * returns the end, the clock of the next step. When nothing could run it returns the arrival of the next
     * waiting request, or {@code startNs} if that has arrived already.
     */
    long step(long startNs) {
        long start = startNs;
        List<Work> batch = new ArrayList<>();
        int budget = settings.maxNumBatchedTokens();
        int k = settings.speculativeTokens();
        if (outputs != null && running.isEmpty()) {
            outputs.idle();
        }
        // SGLang runs a prefill batch whenever one can be formed, and decodes only when none can
        boolean prefillOnly = settings.prefillsApart() && prefillPending(start);
        preemptedInStep = 0;
        for (int i = 0; i < running.size() && budget > 0; i++) {
            SimRequest r = running.get(i);
            if (prefillOnly && !r.prefilling) {
                continue;
            }
            int tokens = r.prefilling ? Math.min(capped(r.prefillTarget - r.computed), budget) : Math.min(1 + k, budget);
            if (!reserve(r, tokens)) {
                // r itself was the newest and got preempted; the list shrank past it
                break;
            }
            budget -= tokens;
            batch.add(new Work(r, tokens, r.prefilling, r.prefilling ? 0
                    : acceptedDrafts(r, Math.min(tokens - 1, r.outputTokens - r.generated - 1))));
        }
        if (outputs != null && !prefillOnly && !batch.isEmpty() && batch.stream().noneMatch(Work::prefill)) {
            // SGLang's decode step: a retraction resets the expectation of outputs, a step without one lowers it (a
            // mixed chunk's step is its prefill batch's, update_running_batch not reached)
            if (preemptedInStep > 0) {
                outputs.retracted(running);
            } else {
                outputs.decoded();
            }
        }
        // what admission holds back for the running requests' outputs, and what this step's admissions hold
        double expectedBytes = expectedOutputBytes();
        double admittedBytes = 0;
        double usedAtStart = usedBytes;
        java.util.Set<String> adapters = new java.util.HashSet<>();
        batch.forEach(w -> {
            if (w.request.adapter != null) {
                adapters.add(w.request.adapter);
            }
        });
        for (SimRequest r = nextAdmissible(start, budget, adapters); r != null; r = nextAdmissible(start, budget, adapters)) {
            int cached = settings.prefixCaching() ? cachedPrefix(r) : 0;
            int target = r.promptTokens + r.generated;
            int tokens = settings.chunkedPrefill() ? Math.min(capped(target - cached), budget) : capped(target - cached);
            // without chunked prefill a prompt that does not fit waits: vLLM stops scheduling ("If chunked_prefill is
            // disabled, we can stop the scheduling here.", v1/core/sched/scheduler.py); SGLang stops at a prompt of its
            // batch's remaining input tokens or more, but takes the batch's first whole whatever its length
            // (PrefillAdder.add_one_req: "real_input_tokens >= self.rem_input_tokens and len(self.can_run_list) != 0")
            boolean waits = settings.dialect() == SimDialect.SGLANG ? tokens >= budget && !batch.isEmpty()
                    : tokens > budget;
            if (!settings.chunkedPrefill() && waits) {
                break;
            }
            double bytes = bytesFor(cached + tokens);
            if (usedBytes + bytes > poolBytes) {
                break;
            }
            if (outputs != null) {
                double reserved = reservedBytes(r);
                if (usedAtStart + expectedBytes + admittedBytes + reserved >= poolBytes) {
                    break;
                }
                admittedBytes += reserved;
            }
            waiting.remove(r);
            if (r.adapter != null) {
                adapters.add(r.adapter);
            }
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
            batch.add(new Work(r, tokens, true, 0));
        }
        if (batch.isEmpty()) {
            // nothing ran: the model's clock moves on to the next arrival it waits for
            SimRequest next = waiting.peekFirst();
            if (next == null) {
                return start;
            }
            if (next.arrivalNs - start > 0) {
                return next.arrivalNs;
            }
            if (running.isEmpty()) {
                // alone on an empty GPU and still not admitted: its first chunk is larger than the whole pool
                waiting.pollFirst();
                sink.emit(next, new SimRequest.Emission(0, true,
                        "the request needs more KV cache than the engine's pool holds", start));
            }
            return start;
        }
        long computedTokens = 0;
        long contextTokens = 0;
        long windowedTokens = 0;
        long pairs = 0;
        long windowedPairs = 0;
        int drafting = 0;
        int accepted = 0;
        ModelProfile.Window window = settings.model().window();
        for (Work w : batch) {
            long before = w.request.computed;
            computedTokens += w.tokens;
            contextTokens += before + w.tokens;
            windowedTokens += window.keys(before + w.tokens);
            pairs += w.tokens * before + w.tokens * (w.tokens + 1) / 2;
            windowedPairs += window.pairs(before, w.tokens);
            if (!w.prefill && k > 0) {
                drafting++;
            }
            accepted += w.accepted;
        }
        StepCostModel.Step cost = this.cost.step(computedTokens,
                new StepCostModel.AttentionWork(contextTokens, windowedTokens, pairs, windowedPairs), batch.size(),
                drafting, accepted, loraWork(batch, adapters));
        long end = start + cost.nanos();
        power.record(start, end, cost);
        for (Work w : batch) {
            finishWork(w, end);
        }
        return end;
    }

    /** A request's prompt tokens for one step, at most vLLM's {@code long_prefill_token_threshold} where one is set. */
    private int capped(int tokens) {
        int threshold = settings.longPrefillTokenThreshold();
        return threshold > 0 ? Math.min(tokens, threshold) : tokens;
    }

    /**
     * The first waiting request that has arrived by {@code start} and may join a step with {@code budget} left and the
     * adapters {@code adapters} in it: one whose adapter would be one too many is passed over for the next, as vLLM's
     * scheduler skips it ({@link LoraParams}); {@code null} when none may, as in a vLLM step that preempted ({@link
     * SimDialect#admitsNoneAfterPreemption}).
     */
    private SimRequest nextAdmissible(long start, int budget, java.util.Set<String> adapters) {
        if (running.size() >= settings.maxNumSeqs() || budget <= 0
                || preemptedInStep > 0 && settings.dialect().admitsNoneAfterPreemption()) {
            return null;
        }
        for (SimRequest r : waiting) {
            if (r.arrivalNs - start > 0) {
                return null;
            }
            if (r.adapter == null || adapters.contains(r.adapter) || adapters.size() < settings.lora().maxLoras()) {
                return r;
            }
        }
        return null;
    }

    /** The step's LoRA work: its adapters' tokens, and the adapters the GPU must first copy in (least recent out). */
    private StepCostModel.LoraWork loraWork(List<Work> batch, java.util.Set<String> adapters) {
        if (adapters.isEmpty()) {
            return StepCostModel.LoraWork.NONE;
        }
        long tokens = 0;
        for (Work w : batch) {
            if (w.request.adapter != null) {
                tokens += w.tokens;
            }
        }
        int swapped = 0;
        for (String adapter : adapters) {
            if (loadedAdapters.get(adapter) == null) {
                swapped++;
                loadedAdapters.put(adapter, Boolean.TRUE);
            }
        }
        // the step's own adapters were touched last: only others leave
        while (loadedAdapters.size() > settings.lora().maxLoras()) {
            loadedAdapters.remove(loadedAdapters.keySet().iterator().next());
        }
        return new StepCostModel.LoraWork(tokens, adapters.size(), swapped);
    }

    /**
     * Whether a step starting at {@code start} would prefill: a running request is part-way through its prompt, or the
     * first waiting request can be admitted with its first chunk in the KV cache.
     */
    private boolean prefillPending(long start) {
        for (SimRequest r : running) {
            if (r.prefilling) {
                return true;
            }
        }
        java.util.Set<String> adapters = new java.util.HashSet<>();
        for (SimRequest running : running) {
            if (running.adapter != null) {
                adapters.add(running.adapter);
            }
        }
        SimRequest r = nextAdmissible(start, settings.maxNumBatchedTokens(), adapters);
        if (r == null) {
            return false;
        }
        int cached = settings.prefixCaching() ? cachedPrefix(r) : 0;
        int tokens = Math.min(r.promptTokens + r.generated - cached, settings.maxNumBatchedTokens());
        return usedBytes + bytesFor(cached + tokens) <= poolBytes && (outputs == null
                || usedBytes + expectedOutputBytes() + reservedBytes(r) < poolBytes);
    }

    /**
     * What SGLang's admission counts for a request it admits: its prompt (with what it generated before a retraction)
     * beyond the cached prefix, its whole remaining {@code max_tokens} and one page; the cached prefix is held already
     * and counted here too, as this scheduler charges it to the request.
     */
    private double reservedBytes(SimRequest r) {
        return bytesFor(r.promptTokens + r.generated + OutputReserve.remaining(r) + pageTokens);
    }

    /** The KV bytes of the output the running requests are expected to still generate; 0 for vLLM. */
    private double expectedOutputBytes() {
        if (outputs == null) {
            return 0;
        }
        double bytes = 0;
        for (SimRequest r : running) {
            bytes += settings.model().kvBytes((long) Math.ceil(outputs.expected(r))) * settings.kvCopies();
        }
        return bytes;
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
        preemptedInStep++;
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
            int pagesBefore = r.computed / pageTokens;
            r.computed += w.tokens;
            if (settings.prefixCaching()) {
                cachePages(r, pagesBefore);
            }
            if (r.computed < r.prefillTarget) {
                return;
            }
            r.prefilling = false;
            emitted = 1;
            if (r.generated == 0) {
                metrics.promptTokens.add(r.promptTokens);
            }
        } else {
            int accepted = w.accepted;
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
        sink.emit(r, new SimRequest.Emission(emitted, last, null, dueNs));
    }

    /**
     * How many of {@code drafts} draft tokens the request accepts in a row, each with its position's acceptance rate
     * (drafts past the end of its output are never emitted, so not drawn); drawn when the step is scheduled,
     * since the host's work in the step grows with the tokens it emits.
     */
    private int acceptedDrafts(SimRequest r, int drafts) {
        int accepted = 0;
        while (accepted < drafts && r.acceptance.nextDouble() < settings.acceptanceRate(accepted)) {
            accepted++;
        }
        return accepted;
    }

    /**
     * Caches the prompt's pages that the request's computed tokens now fill, from page {@code from} on: chunk by chunk,
     * not when its prefill ends. vLLM V1 caches every full block of the tokens a step computes as it schedules them
     * ({@code KVCacheManager.allocate_slots}: {@code num_tokens_to_cache = min(total_computed_tokens + num_new_tokens,
     * request.num_tokens)}, then {@code cache_blocks}), and a preempted request's freed blocks keep their hashes until
     * they are handed out again ({@code free}: "the tail blocks are evicted first"); SGLang inserts a chunked request's
     * computed prefix into its radix tree after each chunk ({@code cache_unfinished_req}). So a request preempted in
     * the middle of a long prompt finds its computed pages when it is admitted again, and recomputes only the rest.
     */
    private void cachePages(SimRequest r, int from) {
        int pages = Math.min(r.blockHashes.length, r.computed / pageTokens);
        for (int i = from; i < pages; i++) {
            prefixCache.put(r.blockHashes[i], Boolean.TRUE);
        }
    }

    private int cachedPrefix(SimRequest r) {
        // at least one prompt token is always computed, to produce the logits of the first output token, and
        // hits are whole pages: as vLLM V1, a fully cached prompt recomputes its whole last 16-token block; with
        // SGLang's pages of one token, only its last token
        int maxBlocks = Math.min(r.blockHashes.length, (r.promptTokens - 1) / pageTokens);
        int blocks = 0;
        while (blocks < maxBlocks && prefixCache.get(r.blockHashes[blocks]) != null) {
            blocks++;
        }
        return blocks * pageTokens;
    }

    /** Drops requests whose client left. */
    void dropCancelled() {
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
        return settings.pooledStateBytesPerSequence() + settings.model().kvBytes(tokens) * settings.kvCopies();
    }
}
