package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

/**
 * The scheduler's decisions, read from when each emission falls due on the model's clock. The test model
 * makes a step's duration easy to compute by hand: 2e9 bytes of weights at 2e12 B/s are 1 ms, compute is
 * free (1e30 FLOP/s), a token of context is 1,000 bytes (0.5 ns per token read), and the host adds
 * 1 ms per step and 15 us per sequence. So a step of n sequences whose attention reads c tokens of KV
 * (those in the cache after the step: the step's own tokens included) lasts 2 ms + n x 15 us + c x 0.5 ns.
 */
class SchedulerTest {

    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final long MS = 1_000_000;
    private static final double KV_PER_TOKEN = 1000;
    /** 1 ms of host work per step, 15 us per sequence, no front end: the hand-computed steps below. */
    static final EngineProfile TEST_ENGINE = new EngineProfile("test engine", 1_000_000, 15_000, 0);

    static SimParams settings(int maxModelLen, int maxNumSeqs, int maxNumBatchedTokens, double poolBytes) {
        return settings(maxModelLen, maxNumSeqs, maxNumBatchedTokens, poolBytes, false);
    }

    private static SimParams settings(int maxModelLen, int maxNumSeqs, int maxNumBatchedTokens, double poolBytes,
                                      boolean prefixCaching) {
        return settings(maxModelLen, maxNumSeqs, maxNumBatchedTokens, poolBytes, prefixCaching, null, 0, 0);
    }

    private static SimParams settings(int maxModelLen, int maxNumSeqs, int maxNumBatchedTokens, double poolBytes,
                                      boolean prefixCaching, String specMethod, int specTokens, double acceptance) {
        return settings(SimDialect.VLLM, maxModelLen, maxNumSeqs, maxNumBatchedTokens, poolBytes, prefixCaching,
                specMethod, specTokens, acceptance);
    }

    private static SimParams settings(SimDialect dialect, int maxModelLen, int maxNumSeqs, int maxNumBatchedTokens,
                                      double poolBytes, boolean prefixCaching, String specMethod, int specTokens,
                                      double acceptance) {
        return settings(dialect, maxModelLen, maxNumSeqs, maxNumBatchedTokens, poolBytes, prefixCaching, specMethod,
                specTokens, List.of(acceptance));
    }

    private static SimParams settings(SimDialect dialect, int maxModelLen, int maxNumSeqs, int maxNumBatchedTokens,
                                      double poolBytes, boolean prefixCaching, String specMethod, int specTokens,
                                      List<Double> acceptance) {
        ModelProfile model = new ModelProfile("test", 1e9, 1e9, 2, KV_PER_TOKEN, 0, 0, 262_144, 0.05, 4096, 32);
        // memory such that 90% of it, less the activation reserve (vLLM's; SGLang keeps none) and the weights, is the
        // pool asked for; SGLang's 90% is of what the CUDA context leaves
        boolean sglang = dialect == SimDialect.SGLANG;
        double reserve = sglang ? 0 : SimParams.vllmReserveBytes(maxNumBatchedTokens);
        double memory = (poolBytes + 2e9 + reserve) / 0.9 + (sglang ? SimParams.SGLANG_CONTEXT_BYTES : 0);
        GpuProfile gpu = new GpuProfile("test GPU", memory, 2e12, 1e30, 1.0, 1.0, 450e9);
        return new SimParams(dialect, model, gpu, maxModelLen, maxNumSeqs, maxNumBatchedTokens, prefixCaching, specMethod,
                specTokens, acceptance, SimParams.PerformanceMode.BALANCED, false, null, 0.9, 1, List.of(), null, TEST_ENGINE);
    }

    /**
     * Hand-computed: the weights' products (2 GB at 92% of 2 TB/s, and 4 us for each of 32 layers' four products), 1 ms
     * of host work, 15 us per sequence, 0.5 ns per token of context.
     */
    static long step(int sequences, long contextTokens) {
        return MS + sequences * 15_000L + gpuStep(contextTokens);
    }

    /** The GPU's part of {@link #step}: the weights' products, the attention and the kernels' floors. */
    static long gpuStep(long contextTokens) {
        double products = 2e9 / (2e12 * StepCostModel.PRODUCT_READ_EFFICIENCY) * 1e9
                + 32 * 4 * StepCostModel.GEMM_FIXED_NANOS;
        double attention = contextTokens * KV_PER_TOKEN / 2e12 * 1e9;
        return Math.round(products + attention + kernelFloors(attention));
    }

    /**
     * The test model's 32 layers' kernels beyond the roofline: five small kernels a layer at 2 us, and each layer's
     * attention at least 10 us.
     */
    static double kernelFloors(double attentionNanos) {
        return 32 * 5 * 2_000 + 32 * Math.max(0, 10_000 - attentionNanos / 32);
    }

    /**
     * vLLM V1 admits no waiting request in a step that preempted one ({@code if not preempted_reqs}, {@code
     * vllm/v1/core/sched/scheduler.py}): a pool of 100 tokens, steps of 20, A (50 + 40) and B (40 + 40). A prefills in
     * three steps, B joins in the third and finishes its prefill two steps later; both decode until the pool is full,
     * and then A's next token preempts B. B's next chunk (20 tokens) would fit in the 40 it freed, but it waits for the
     * next step rather than coming straight back in.
     */
    @Test
    void vllmAdmitsNoWaitingRequestInAStepThatPreemptedOne() {
        SimMetrics metrics = new SimMetrics();
        BatchScheduler batch = new BatchScheduler(settings(95, 8, 20, 100 * KV_PER_TOKEN), metrics, (r, e) -> {
        });
        batch.add(request("a", 0, 50, 40));
        batch.add(request("b", 0, 40, 40));
        long clock = 0;
        int preemptions = 0;
        for (int steps = 0; steps < 100 && preemptions == 0; steps++) {
            clock = batch.step(clock);
            preemptions = (int) metrics.preemptions.sum();
        }
        assertThat(preemptions).isEqualTo(1);
        assertThat(batch.runningCount()).isEqualTo(1);
        assertThat(batch.waitingCount()).isEqualTo(1);
        batch.step(clock);
        assertThat(batch.runningCount()).as("B back the step after").isEqualTo(2);
    }

    /**
     * An arrival time 100 ms ahead: the scheduler makes its first step's decisions then, by which time every
     * request of the test has been handed over, however slow this thread is scheduled.
     */
    private static long arrival() {
        return System.nanoTime() + 100 * MS;
    }

    private static SimRequest request(String id, long arrivalNs, int prompt, int output) {
        return new SimRequest(id, arrivalNs, prompt, new long[0], output, 1);
    }

    /** Every emission of {@code r} up to its last. */
    private static List<SimRequest.Emission> drain(SimRequest r) throws InterruptedException {
        List<SimRequest.Emission> out = new ArrayList<>();
        SimRequest.Emission e;
        do {
            e = r.emissions.poll(10, TimeUnit.SECONDS);
            assertThat(e).as("an emission of " + r.id).isNotNull();
            assertThat(e.failure()).isNull();
            out.add(e);
        } while (!e.last());
        return out;
    }

    /**
     * A LoRA adapter of rank 16 on the test model (hidden size 4096, 32 layers, 1e9 parameters: an MLP as wide as the
     * residual stream): 12.5 x 4096 projection widths a layer, so 2 B x 16 x 51,200 x 32 = 52,428,800 B, copied in at
     * 50 GB/s (1,048,576 ns) when the GPU does not hold it, read at 2 TB/s (26,214 ns) by every step it is in; its
     * FLOPs cost nothing on the test GPU.
     */
    @Test
    void anAdapterIsCopiedInOnceAndReadByEveryStepItIsIn() throws InterruptedException {
        SimParams settings = settings(4096, 8, 8192, 1e9).withLora(new LoraParams(List.of("a", "b"), 1, 16));
        try (Scheduler scheduler = new Scheduler(settings)) {
            long t0 = arrival();
            SimRequest a = request("a", t0, 16, 2);
            a.adapter = "a";
            scheduler.submit(a);
            List<SimRequest.Emission> emissions = drain(a);
            long copy = 1_048_576;
            long read = 26_214;
            assertThat(emissions.get(0).dueNs() - t0).isCloseTo(step(1, 16) + copy + read, offset(2L));
            assertThat(emissions.get(1).dueNs() - emissions.get(0).dueNs()).isCloseTo(step(1, 17) + read, offset(2L));
        }
    }

    /**
     * vLLM's rule: a step holds requests of at most max-loras adapters, and a waiting request whose adapter would be one
     * too many is passed over. With one slot, b (adapter b) waits for a (adapter a) to finish, and the base model's c
     * is not held up; with two slots b starts with a.
     */
    @Test
    void aRequestOfOneAdapterTooManyWaitsAndOthersGoOn() throws InterruptedException {
        for (int slots : new int[] {1, 2}) {
            SimParams settings = settings(4096, 8, 8192, 1e9).withLora(new LoraParams(List.of("a", "b"), slots, 16));
            try (Scheduler scheduler = new Scheduler(settings)) {
                long t0 = arrival();
                SimRequest a = request("a", t0, 16, 5);
                a.adapter = "a";
                SimRequest b = request("b", t0, 16, 5);
                b.adapter = "b";
                SimRequest c = request("c", t0, 16, 5);
                scheduler.submit(a);
                scheduler.submit(b);
                scheduler.submit(c);
                List<SimRequest.Emission> ea = drain(a);
                List<SimRequest.Emission> eb = drain(b);
                List<SimRequest.Emission> ec = drain(c);
                if (slots == 1) {
                    assertThat(eb.get(0).dueNs()).as("b's first token, one slot").isGreaterThan(ea.get(4).dueNs());
                } else {
                    assertThat(eb.get(0).dueNs()).as("b's first token, two slots").isEqualTo(ea.get(0).dueNs());
                }
                assertThat(ec.get(0).dueNs()).as("the base model's request").isEqualTo(ea.get(0).dueNs());
            }
        }
    }

    @Test
    void aPromptLongerThanTheTokenBudgetIsPrefilledInChunksBeforeItsFirstToken() throws InterruptedException {
        try (Scheduler scheduler = new Scheduler(settings(4096, 8, 512, 1e9))) {
            long t0 = arrival();
            SimRequest a = request("a", t0, 1000, 2);
            scheduler.submit(a);
            List<SimRequest.Emission> emissions = drain(a);

            // step 1: 512 prompt tokens; step 2: the other 488, then the first token; step 3: the second
            long s1 = step(1, 512);
            long s2 = step(1, 1000);
            long s3 = step(1, 1001);
            assertThat(emissions).extracting(SimRequest.Emission::tokens).containsExactly(1, 1);
            assertThat(emissions.get(0).dueNs() - t0).isCloseTo(s1 + s2, offset(2L));
            assertThat(emissions.get(1).dueNs() - t0).isCloseTo(s1 + s2 + s3, offset(3L));
        }
    }

    @Test
    void atTheSequenceCapAThirdRequestWaitsUntilARunningOneFinishes() throws InterruptedException {
        try (Scheduler scheduler = new Scheduler(settings(4096, 2, 8192, 1e9))) {
            long t0 = arrival();
            SimRequest a = request("a", t0, 16, 3);
            SimRequest b = request("b", t0, 16, 3);
            SimRequest c = request("c", t0, 16, 3);
            scheduler.submit(a);
            scheduler.submit(b);
            scheduler.submit(c);
            List<SimRequest.Emission> ea = drain(a);
            List<SimRequest.Emission> ec = drain(c);
            drain(b);

            // steps 1-3 run a and b (prefill with the first token, then two decodes): 2 sequences each;
            // c is admitted in step 4, the first with a free slot, and prefills alone
            long s1 = step(2, 32);
            long s2 = step(2, 34);
            long s3 = step(2, 36);
            long s4 = step(1, 16);
            assertThat(ea.get(0).dueNs() - t0).isCloseTo(s1, offset(1L));
            assertThat(ea.get(2).dueNs() - t0).isCloseTo(s1 + s2 + s3, offset(3L));
            assertThat(ec.get(0).dueNs() - t0).isCloseTo(s1 + s2 + s3 + s4, offset(4L));
            assertThat(c.preemptions).isZero();
        }
    }

    @Test
    void whenTheKvPoolIsFullTheNewestRunningRequestIsPreemptedAndLaterFinishes() throws InterruptedException {
        // a pool of 100 tokens: two prompts of 40 fit, but not 2 x (40 + 30 generated)
        try (Scheduler scheduler = new Scheduler(settings(90, 8, 8192, 100 * KV_PER_TOKEN))) {
            long t0 = arrival();
            SimRequest a = request("a", t0, 40, 30);
            SimRequest b = request("b", t0 + 1, 40, 30);
            scheduler.submit(a);
            scheduler.submit(b);
            List<SimRequest.Emission> ea = drain(a);
            List<SimRequest.Emission> eb = drain(b);

            assertThat(ea.stream().mapToInt(SimRequest.Emission::tokens).sum()).isEqualTo(30);
            assertThat(eb.stream().mapToInt(SimRequest.Emission::tokens).sum()).isEqualTo(30);
            assertThat(a.preemptions).isZero();
            assertThat(b.preemptions).isPositive();
            // b recomputed its prompt and output after a finished, so it ends after a
            assertThat(eb.get(eb.size() - 1).dueNs()).isGreaterThan(ea.get(ea.size() - 1).dueNs());
        }
    }

    /**
     * A request preempted in the middle of its prompt keeps the pages it computed in the prefix cache, as vLLM V1 caches
     * each step's full blocks when it schedules them and frees a preempted request's blocks with their hashes: admitted
     * again, it finds them and prefills only the rest. Chunks of 32 tokens (two pages), a pool of 120 tokens: a (a
     * prompt of 32, 80 tokens to write) decodes beside b's chunks (a prompt of 96) until a's growth preempts b.
     */
    @Test
    void aRequestPreemptedInTheMiddleOfItsPromptFindsThePagesItComputedWhenAdmittedAgain() throws InterruptedException {
        SimMetrics metrics = new SimMetrics();
        try (Scheduler scheduler = new Scheduler(settings(120, 8, 33, 120 * KV_PER_TOKEN, true), metrics)) {
            long t0 = arrival();
            SimRequest a = new SimRequest("a", t0, 32, new long[] {101, 102}, 80, 1);
            SimRequest b = new SimRequest("b", t0 + 1, 96, new long[] {1, 2, 3, 4, 5, 6}, 2, 1);
            scheduler.submit(a);
            scheduler.submit(b);
            drain(a);
            drain(b);
            // step 1: a's 32 prompt tokens and b's first (the budget's 33rd); steps 2 and 3: a decodes, b computes 32
            // more each (65 held, a 34: 99 of 120); step 4: b's next chunk would make 132, so b, the newest, is
            // preempted with 65 computed: four full pages of 16. It is admitted again when a has finished.
            assertThat(b.preemptions).isEqualTo(1);
            assertThat(metrics.prefixCacheHits.sum()).isEqualTo(64);
            assertThat(metrics.prefixCacheQueries.sum()).isEqualTo(32 + 96 + 96);
        }
    }

    /**
     * SGLang's admission ({@code schedule_policy.py}, {@code PrefillAdder.add_one_req}): a request joins when its prompt,
     * its whole max_tokens and a page are less than the pool left after the running requests' remaining max_tokens
     * times the ratio (0.7 at first) and after what the step admitted already (prompt, max_tokens, page each). A pool of
     * 100 tokens: in step 1, a (20 + 40 + 1 = 61 < 100) and b (10 + 20 + 1 = 31 < 100 - 61) join, c (5 + 5 + 1 = 11)
     * does not (100 - 61 - 31 = 8). In step 2 a and b hold 21 and 11 tokens and are expected to write 0.7 x 39 and
     * 0.7 x 19 more: 32 + 27.3 + 13.3 + 11 < 100, so c is prefilled, in a step of its own. vLLM admits c in step 1: its
     * 5 tokens fit.
     */
    @Test
    void sglangAdmitsARequestOnlyWithRoomForItsOutputBesideWhatTheRunningOnesAreExpectedToWrite() throws InterruptedException {
        for (SimDialect dialect : List.of(SimDialect.SGLANG, SimDialect.VLLM)) {
            boolean sglang = dialect == SimDialect.SGLANG;
            java.util.function.LongBinaryOperator step = sglang
                    ? (n, c) -> Math.max(gpuStep(c), MS + n * 15_000L)
                    : (n, c) -> step((int) n, c);
            try (Scheduler scheduler = new Scheduler(settings(dialect, 90, 8, 8192, 100 * KV_PER_TOKEN, false, null, 0,
                    0))) {
                long t0 = arrival();
                SimRequest a = request("a", t0, 20, 40);
                SimRequest b = request("b", t0, 10, 20);
                SimRequest c = request("c", t0, 5, 5);
                scheduler.submit(a);
                scheduler.submit(b);
                scheduler.submit(c);
                List<SimRequest.Emission> ec = drain(c);
                drain(a);
                drain(b);

                long firstOfC = ec.get(0).dueNs() - t0;
                if (sglang) {
                    assertThat(firstOfC).isCloseTo(step.applyAsLong(2, 30) + step.applyAsLong(1, 5), offset(2L));
                } else {
                    assertThat(firstOfC).isCloseTo(step.applyAsLong(3, 35), offset(1L));
                }
            }
        }
    }

    /**
     * SGLang's expectation of outputs ({@code new_token_ratio_tracker.py}): from 0.7 it falls by (0.7 - 0.7 x 0.14) / 600
     * a decode step to 0.098, is set after a retraction to (generated + 20 per request) / (max_tokens + 1) over the
     * requests left, at most 1, and is 0.7 again once the engine idles.
     */
    @Test
    void sglangsExpectationOfOutputsFallsWithEveryDecodeStepAndIsResetByARetraction() {
        OutputReserve reserve = new OutputReserve(1);
        assertThat(reserve.ratio()).isEqualTo(0.7);
        reserve.decoded();
        assertThat(reserve.ratio()).isCloseTo(0.7 - 0.602 / 600, offset(1e-12));
        for (int i = 0; i < 700; i++) {
            reserve.decoded();
        }
        assertThat(reserve.ratio()).isCloseTo(0.098, offset(1e-12));
        SimRequest shortOne = request("s", 0, 10, 100);
        shortOne.generated = 10;
        SimRequest longOne = request("l", 0, 10, 100);
        longOne.generated = 30;
        reserve.retracted(List.of(shortOne, longOne));
        assertThat(reserve.ratio()).isCloseTo((10 + 30 + 2 * 20) / 201.0, offset(1e-12));
        assertThat(reserve.expected(longOne)).isCloseTo(70 * 80 / 201.0, offset(1e-9));
        reserve.idle();
        assertThat(reserve.ratio()).isEqualTo(0.7);
    }

    /**
     * {@code --schedule-conservativeness} scales where the expectation starts and ends: from {@code min(0.7 c, 1)} to
     * 0.14 of that, over the same 600 decode steps ({@code NewTokenRatioTracker.from_server_args}); 0.3 admits against a
     * reserve of 0.21, 2 against all of every running request's output.
     */
    @Test
    void sglangsScheduleConservativenessScalesItsExpectationOfOutputs() {
        OutputReserve bold = new OutputReserve(0.3);
        assertThat(bold.ratio()).isCloseTo(0.21, offset(1e-12));
        for (int i = 0; i < 700; i++) {
            bold.decoded();
        }
        assertThat(bold.ratio()).isCloseTo(0.21 * 0.14, offset(1e-12));
        assertThat(new OutputReserve(2).ratio()).isEqualTo(1.0);
        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--schedule-conservativeness=0.3"));
        assertThat(sglang.scheduleConservativeness()).isEqualTo(0.3);
        assertThat(sglang.ignoredFlags()).isEmpty();
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B",
                List.of("--schedule-conservativeness=-1"))).hasMessageContaining("a number at least 0");
    }

    @Test
    void aRepeatedPromptHitsItsWholeCachedBlocksButRecomputesAtLeastItsLastToken() throws InterruptedException {
        try (Scheduler scheduler = new Scheduler(settings(4096, 8, 8192, 1e9, true))) {
            long t0 = arrival();
            long[] blocks = {11, 12, 13, 14};
            SimRequest first = new SimRequest("first", t0, 70, blocks, 1, 1);
            scheduler.submit(first);
            drain(first);
            // 70 tokens: 4 full blocks cached, 6 tokens computed
            SimRequest longer = new SimRequest("longer", System.nanoTime(), 70, blocks, 1, 1);
            scheduler.submit(longer);
            drain(longer);
            // 64 tokens, every block cached: as vLLM V1, the hit stops a whole block short, so 48
            SimRequest exact = new SimRequest("exact", System.nanoTime(), 64, blocks, 1, 1);
            scheduler.submit(exact);
            drain(exact);
            // a prompt whose first block differs hits nothing
            SimRequest other = new SimRequest("other", System.nanoTime(), 70, new long[] {99, 12, 13, 14}, 1, 1);
            scheduler.submit(other);
            drain(other);

            assertThat(first.cachedTokens).isZero();
            assertThat(longer.cachedTokens).isEqualTo(64);
            assertThat(exact.cachedTokens).isEqualTo(48);
            assertThat(other.cachedTokens).isZero();
        }
    }

    @Test
    void sglangsRadixCacheMatchesTokenByTokenAndRecomputesOnlyTheLastToken() throws InterruptedException {
        try (Scheduler scheduler = new Scheduler(settings(SimDialect.SGLANG, 4096, 8, 8192, 1e9, true, null, 0, 0))) {
            // pages of one token: a hash per token, cumulative as the engine computes them
            long[] tokens = java.util.stream.LongStream.rangeClosed(1, 70).toArray();
            SimRequest first = new SimRequest("first", arrival(), 70, tokens, 1, 1);
            scheduler.submit(first);
            drain(first);
            SimRequest again = new SimRequest("again", System.nanoTime(), 70, tokens, 1, 1);
            scheduler.submit(again);
            drain(again);
            // the first 37 tokens shared, then another continuation
            long[] forked = tokens.clone();
            for (int t = 37; t < forked.length; t++) {
                forked[t] = 1000 + t;
            }
            SimRequest fork = new SimRequest("fork", System.nanoTime(), 70, forked, 1, 1);
            scheduler.submit(fork);
            drain(fork);

            assertThat(first.cachedTokens).isZero();
            // vLLM would hit 64 of the 70 (four whole 16-token blocks); SGLang all but the last token
            assertThat(again.cachedTokens).isEqualTo(69);
            assertThat(fork.cachedTokens).isEqualTo(37);
        }
    }

    @Test
    void speculativeDecodingEmitsOnePlusTheAcceptedDraftsAndEachDecodeStepPaysForTheDraftsAndTheirOutput()
            throws InterruptedException {
        // 3 draft tokens, each costing 5% of a step's weight read (0.05 ms): 0.15 ms more per decode step
        long draftNs = 150_000;
        for (double acceptance : new double[] {1.0, 0.0}) {
            try (Scheduler scheduler = new Scheduler(settings(4096, 8, 8192, 1e9, false, "mtp", 3, acceptance))) {
                long t0 = arrival();
                SimRequest r = request("r", t0, 16, 10);
                scheduler.submit(r);
                List<SimRequest.Emission> e = drain(r);

                // the prefill step emits the first token; every draft accepted: 1 + 3 per decode step, the last
                // capped at the tokens left; none accepted: 1 per step
                List<Integer> expected = acceptance == 1.0 ? List.of(1, 4, 4, 1) : List.of(1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
                assertThat(e).extracting(SimRequest.Emission::tokens).as("acceptance " + acceptance)
                        .containsExactlyElementsOf(expected);
                assertThat(e.get(0).dueNs() - t0).isCloseTo(step(1, 16), offset(1L));
                for (int i = 1; i < e.size(); i++) {
                    // a decode step over at most 16 + 10 + 3 tokens of KV: within 15 ns of its bare cost, plus the
                    // host's 15 us for each accepted draft it emits
                    long accepted = e.get(i).tokens() - 1;
                    assertThat(e.get(i).dueNs() - e.get(i - 1).dueNs()).as("step " + i)
                            .isCloseTo(step(1, 0) + draftNs + accepted * 15_000, offset(15L));
                }
            }
        }
    }

    @Test
    void eachDraftPositionHasItsOwnAcceptance() throws InterruptedException {
        // the first draft always accepted, the second never: every decode step emits exactly 2 tokens
        SimParams settings = settings(SimDialect.VLLM, 4096, 8, 8192, 1e9, false, "mtp", 3, List.of(1.0, 0.0));
        try (Scheduler scheduler = new Scheduler(settings)) {
            SimRequest r = request("r", arrival(), 16, 9);
            scheduler.submit(r);

            assertThat(drain(r)).extracting(SimRequest.Emission::tokens).containsExactly(1, 2, 2, 2, 2);
        }
        assertThat(settings.acceptanceRate(0)).isEqualTo(1.0);
        assertThat(settings.acceptanceRate(5)).as("past the list: its last value").isEqualTo(0.0);
    }

    /**
     * SGLang runs a prefill batch whenever it can form one and decodes only when it cannot (scheduler.py,
     * get_next_batch_to_run: "Run prefill first if possible"): a request arriving while another decodes is prefilled
     * alone, and the decoding one gets no token in that step; vLLM puts both in one step.
     */
    @Test
    void sglangPrefillsANewcomerInAStepOfItsOwnWhileVllmMixesItWithTheDecodes() throws InterruptedException {
        for (SimDialect dialect : List.of(SimDialect.SGLANG, SimDialect.VLLM)) {
            // SGLang's overlap scheduler hides the host's work behind the GPU's: a step lasts the longer of the two
            boolean sglang = dialect == SimDialect.SGLANG;
            java.util.function.LongBinaryOperator step = sglang
                    ? (n, c) -> Math.max(gpuStep(c), MS + n * 15_000L)
                    : (n, c) -> step((int) n, c);
            long s1 = step.applyAsLong(1, 16);
            long s2 = step.applyAsLong(1, 17);
            try (Scheduler scheduler = new Scheduler(settings(dialect, 4096, 8, 8192, 1e9, false, null, 0, 0))) {
                long t0 = arrival();
                SimRequest a = request("a", t0, 16, 3);
                // b arrives just after step 2 (a's first decode) began, so it waits for step 3
                SimRequest b = request("b", t0 + s1 + 1_000, 16, 1);
                scheduler.submit(a);
                scheduler.submit(b);
                List<SimRequest.Emission> ea = drain(a);
                List<SimRequest.Emission> eb = drain(b);

                assertThat(ea.get(1).dueNs() - t0).isCloseTo(s1 + s2, offset(2L));
                if (sglang) {
                    // step 3 prefills b alone; step 4 decodes a (18 tokens of context)
                    long s3 = step.applyAsLong(1, 16);
                    assertThat(eb.get(0).dueNs() - t0).isCloseTo(s1 + s2 + s3, offset(3L));
                    assertThat(ea.get(2).dueNs() - t0).isCloseTo(s1 + s2 + s3 + step.applyAsLong(1, 18), offset(4L));
                } else {
                    // step 3 decodes a and prefills b together
                    long s3 = step.applyAsLong(2, 18 + 16);
                    assertThat(eb.get(0).dueNs() - t0).isCloseTo(s1 + s2 + s3, offset(3L));
                    assertThat(ea.get(2).dueNs() - t0).isCloseTo(s1 + s2 + s3, offset(3L));
                }
            }
        }
    }

    /**
     * Without chunked prefill a prompt is prefilled whole or waits. vLLM's {@code --no-enable-chunked-prefill} defaults
     * a step to the max model length (Qwen3-8B's 40,960: {@code max(max_model_len, 8192)}), takes a 20,000-token
     * prompt in one step, and leaves a 30,000-token one waiting for a step it fits ({@code v1/core/sched/scheduler.py});
     * with chunked prefill the first takes 8,192 of them. SGLang's {@code --chunked-prefill-size -1} takes a prefill
     * batch's first prompt whole though it is over {@code --max-prefill-tokens}' 16,384, and the next in a batch of its
     * own ({@code PrefillAdder.add_one_req}).
     */
    @Test
    void withoutChunkedPrefillAPromptIsPrefilledWholeOrWaits() {
        SimParams vllm = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--no-enable-chunked-prefill"));
        assertThat(vllm.chunkedPrefill()).isFalse();
        assertThat(vllm.maxNumBatchedTokens()).isEqualTo(40_960);
        SimRequest a = request("a", 0, 20_000, 10);
        SimRequest b = request("b", 0, 30_000, 10);
        BatchScheduler whole = scheduling(vllm, a, b);
        whole.step(0);
        assertThat(a.computed).isEqualTo(20_000);
        assertThat(whole.waitingCount()).isEqualTo(1);

        SimRequest chunkedA = request("a", 0, 20_000, 10);
        scheduling(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of()), chunkedA).step(0);
        assertThat(chunkedA.computed).isEqualTo(8192);

        SimParams sglang = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--chunked-prefill-size=-1"));
        assertThat(sglang.chunkedPrefill()).isFalse();
        assertThat(sglang.maxNumBatchedTokens()).isEqualTo(16_384);
        SimRequest first = request("first", 0, 20_000, 10);
        SimRequest second = request("second", 0, 1_000, 10);
        BatchScheduler sglangBatch = scheduling(sglang, first, second);
        long end = sglangBatch.step(0);
        assertThat(first.computed).isEqualTo(20_000);
        assertThat(sglangBatch.waitingCount()).isEqualTo(1);
        sglangBatch.step(end);
        assertThat(second.computed).isEqualTo(1_000);
    }

    /**
     * vLLM caps one request's prompt tokens in a step at {@code --long-prefill-token-threshold} ({@code
     * v1/core/sched/scheduler.py}: "if 0 < long_prefill_token_threshold < num_new_tokens"), which {@code
     * --max-num-partial-prefills} above 1 sets to 4% of the max model length when it is left at 0 ({@code
     * SchedulerConfig}): Qwen3-8B's 40,960 gives 1,638.
     */
    @Test
    void vllmCapsARequestsPromptTokensInAStepAtItsLongPrefillThreshold() {
        SimRequest capped = request("capped", 0, 5_000, 10);
        scheduling(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--long-prefill-token-threshold=1000")),
                capped).step(0);
        assertThat(capped.computed).isEqualTo(1_000);
        SimParams partial = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--max-num-partial-prefills=2"));
        assertThat(partial.longPrefillTokenThreshold()).isEqualTo(1_638);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of()).longPrefillTokenThreshold()).isZero();
    }

    /**
     * SGLang's {@code --enable-mixed-chunk} joins its running batch to a prefill batch ({@code mix_with_running},
     * {@code managers/scheduler.py}), each decoding request taking one token of the prefill's budget ({@code
     * PrefillAdder}: {@code rem_chunk_tokens -= mixed_with_decode_tokens}, {@code schedule_policy.py}): while a newcomer
     * prefills, the decoding request still gets its token, and the newcomer's chunk is the budget less it. Without the
     * flag the decoding request waits out the prefill step.
     */
    @Test
    void sglangsMixedChunkDecodesBesideAPrefillWithinItsBudget() {
        SimParams mixed = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--enable-mixed-chunk",
                "--chunked-prefill-size=4096"));
        SimParams apart = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--chunked-prefill-size=4096"));
        assertThat(mixed.prefillsApart()).isFalse();
        assertThat(apart.prefillsApart()).isTrue();
        // SGLang turns it off with speculative decoding, and its overlap scheduler off with n-gram drafts
        // ("The overlap scheduler and mixed chunked prefill are disabled because of using ngram speculative decoding.")
        SimParams ngram = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--enable-mixed-chunk",
                "--speculative-algorithm=NGRAM", "--speculative-num-draft-tokens=4"));
        assertThat(ngram.prefillsApart()).isTrue();
        assertThat(ngram.overlapsHostWork()).isFalse();
        assertThat(apart.overlapsHostWork()).isTrue();
        for (SimParams settings : List.of(mixed, apart)) {
            SimRequest decoding = request("decoding", 0, 100, 50);
            BatchScheduler batch = scheduling(settings, decoding);
            long t = batch.step(0);
            t = batch.step(t);
            int generated = decoding.generated;
            SimRequest newcomer = request("newcomer", t, 10_000, 10);
            batch.add(newcomer);
            batch.step(t);
            if (settings == mixed) {
                assertThat(decoding.generated).isEqualTo(generated + 1);
                assertThat(newcomer.computed).isEqualTo(4096 - 1);
            } else {
                assertThat(decoding.generated).isEqualTo(generated);
                assertThat(newcomer.computed).isEqualTo(4096);
            }
        }
    }

    /** A scheduler of {@code settings} with {@code requests} waiting, its emissions dropped. */
    private static BatchScheduler scheduling(SimParams settings, SimRequest... requests) {
        BatchScheduler batch = new BatchScheduler(settings, new SimMetrics(), (r, e) -> {
        });
        for (SimRequest r : requests) {
            batch.add(r);
        }
        return batch;
    }

    /** vLLM without chunked prefill refuses a given step shorter than its max model length, in its own words. */
    @Test
    void vllmWithoutChunkedPrefillRefusesAStepShorterThanItsMaxModelLength() {
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B",
                List.of("--no-enable-chunked-prefill", "--max-num-batched-tokens=8192")))
                .hasMessageContaining("max_num_batched_tokens (8192) is smaller than max_model_len (40960)");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B",
                List.of("--chunked-prefill-size=lots"))).hasMessageContaining("or -1 to prefill prompts whole");
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B",
                List.of("--chunked-prefill-size=-1", "--max-prefill-tokens=4096")).maxNumBatchedTokens()).isEqualTo(4096);
    }
}
