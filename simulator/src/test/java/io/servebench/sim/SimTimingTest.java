package io.servebench.sim;

import io.servebench.truth.SentEvent;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The timing model seen from outside, through the server's ground truth. Assertions lean on lower bounds:
 * a step never ends before its modelled duration, while thread jitter only makes things later.
 */
class SimTimingTest {

    private static final String MODEL = SimulatedEngineTest.MODEL;

    @Test
    void aLongerPromptGivesALongerTimeToFirstToken() throws IOException {
        try (SimulatedEngine engine = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of()), 0, 1)) {
            SimHttp.post(engine, "/v1/chat/completions", "short", SimHttp.chat(SimHttp.words(20, "s"), exact(2)));
            SimHttp.post(engine, "/v1/chat/completions", "long", SimHttp.chat(SimHttp.words(6000, "l"), exact(2)));
            long shortTtft = ttft(engine.groundTruth("short").orElseThrow());
            long longTtft = ttft(engine.groundTruth("long").orElseThrow());
            // 6000 prompt tokens are ~1.1e14 FLOP: at least 150 ms on the modelled H100, in one 8192-token step
            assertThat(longTtft).isGreaterThan(150_000_000L).isGreaterThan(shortTtft);
        }
    }

    @Test
    void moreConcurrentSequencesGiveALongerTimePerToken() throws IOException {
        // a model whose steps are dominated by KV reads (1 MiB per token) and whose prefill is nearly free,
        // so that the test is quick and the effect of batch size is large
        ModelProfile kvHeavy = new ModelProfile(MODEL, 1e9, 1e9, 2, 1024.0 * 1024, 0, 0, 262_144, 0.05, 4096, 32);
        GpuProfile gpu = new GpuProfile("test GPU", 80.0 * 1024 * 1024 * 1024, 3.35e12, 1e17, 0.85, 0.6, 450e9);
        SimParams settings = new SimParams(SimDialect.VLLM, kvHeavy, gpu, 2048, 256, 65536, false, null, 0, List.of(0.0),
                SimParams.PerformanceMode.BALANCED, false, null, 0.9, 1, List.of(), null, SchedulerTest.TEST_ENGINE);
        try (SimulatedEngine engine = SimulatedEngine.startRecording(settings, 0, 1)) {
            String prompt = SimHttp.words(1000, "w");
            SimHttp.post(engine, "/v1/chat/completions", "alone", SimHttp.chat(prompt, exact(40)));
            postAtOnce(engine, 24, i -> "crowd-" + i, id -> SimHttp.chat(prompt, exact(40)));
            long alone = medianGap(List.of(engine.groundTruth("alone").orElseThrow()));
            // one running sequence: ~1000 x 1 MiB of KV per step, ~1.7 ms; 12 or more of them: 12+ GiB, 4.5 ms or more.
            // Only the steps while at least half the burst runs count: its requests reach the batch some steps apart.
            List<GroundTruth> crowd = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                crowd.add(engine.groundTruth("crowd-" + i).orElseThrow());
            }
            long crowded = medianGapWhileRunning(crowd, 12);
            assertThat(crowded).isGreaterThan(4_000_000L).isGreaterThan(2 * alone);
        }
    }

    @Test
    void speculativeDecodingSendsMultiTokenChunks() throws IOException {
        SimParams settings = SimParams.fromFlags(SimDialect.SIM, MODEL,
                List.of("--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":3}", "--sim-acceptance-rate=0.8"));
        try (SimulatedEngine engine = SimulatedEngine.startRecording(settings, 0, 3)) {
            SimHttp.Reply reply = SimHttp.post(engine, "/v1/chat/completions", "spec",
                    SimHttp.chat("Go", exact(60) + ",\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}"));
            GroundTruth truth = engine.groundTruth("spec").orElseThrow();
            assertThat(truth.completionTokens()).isEqualTo(60);
            assertThat(truth.events().size()).isLessThan(60);
            assertThat(truth.events()).anySatisfy(e -> assertThat(e.tokens()).isGreaterThan(1));
            assertThat(truth.events()).allSatisfy(e -> assertThat(e.tokens()).isBetween(1, 4));
            // the stream agrees: one chunk per event, each with the event's count in its usage difference
            assertThat(reply.events()).hasSize(truth.events().size() + 2);
            for (int i = 0; i < truth.events().size(); i++) {
                int before = reply.events().get(i).at("/usage/completion_tokens").asInt();
                int after = reply.events().get(i + 1).at("/usage/completion_tokens").asInt();
                assertThat(after - before).isEqualTo(truth.events().get(i).tokens());
            }
        }
    }

    @Test
    void aFullKvCachePreemptsAndRecomputesButEveryRequestCompletes() throws IOException {
        // 6 GiB of memory: less vLLM's 3.05 GiB on one GPU and 1 GB of weights leaves ~2000 tokens of 1 MiB KV
        ModelProfile kvHeavy = new ModelProfile(MODEL, 0.5e9, 0.5e9, 2, 1024.0 * 1024, 0, 0, 262_144, 0.05, 4096, 32);
        GpuProfile small = new GpuProfile("small GPU", 6.0 * 1024 * 1024 * 1024, 3.35e12, 1e17, 0.85, 0.6, 450e9);
        SimParams settings = new SimParams(SimDialect.VLLM, kvHeavy, small, 1024, 64, 8192, false, null, 0, List.of(0.0),
                SimParams.PerformanceMode.BALANCED, false, null, 1.0, 1, List.of(), null, SchedulerTest.TEST_ENGINE);
        try (SimulatedEngine engine = SimulatedEngine.startRecording(settings, 0, 1)) {
            postAtOnce(engine, 4, i -> "kv-" + i, id -> SimHttp.chat(SimHttp.words(100, "p" + id), exact(500)));
            int preemptions = 0;
            for (int i = 0; i < 4; i++) {
                GroundTruth truth = engine.groundTruth("kv-" + i).orElseThrow();
                assertThat(truth.completionTokens()).isEqualTo(500);
                assertThat(truth.error()).isNull();
                preemptions += truth.preemptions();
            }
            assertThat(preemptions).isPositive();
        }
    }

    @Test
    void prefixCachingSkipsTheSharedPrefixOfALaterPrompt() throws IOException {
        // SGLang caches prefixes by default
        try (SimulatedEngine engine = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of()), 0, 1);
             SimulatedEngine noCache = SimulatedEngine.startRecording(
                     SimParams.fromFlags(SimDialect.SGLANG, MODEL, List.of("--disable-radix-cache")), 0, 1)) {
            String shared = SimHttp.words(3000, "shared");
            for (SimulatedEngine e : List.of(engine, noCache)) {
                SimHttp.post(e, "/v1/chat/completions", "first", SimHttp.chat(shared + "first question", exact(2)));
                SimHttp.post(e, "/v1/chat/completions", "second", SimHttp.chat(shared + "second question", exact(2)));
            }
            GroundTruth cached = engine.groundTruth("second").orElseThrow();
            assertThat(cached.cachedPromptTokens()).isGreaterThanOrEqualTo(2992);
            assertThat(engine.groundTruth("first").orElseThrow().cachedPromptTokens()).isZero();
            assertThat(noCache.groundTruth("second").orElseThrow().cachedPromptTokens()).isZero();
            // 3000 uncached tokens cost at least ~90 ms of prefill
            assertThat(ttft(noCache.groundTruth("second").orElseThrow())).isGreaterThan(80_000_000L);
        }
    }

    @Test
    void clientsSeeEventsWhenTheServerSaysItSentThem() throws Exception {
        try (SimulatedEngine engine = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of()), 0, 1)) {
            java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                            engine.baseUri().resolve("/v1/chat/completions"))
                    .header("X-Request-Id", "watched")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(SimHttp.chat("Watch", exact(40))))
                    .build();
            List<Long> arrivals = new ArrayList<>();
            java.net.http.HttpClient.newHttpClient()
                    .send(request, java.net.http.HttpResponse.BodyHandlers.ofLines())
                    .body()
                    .forEach(line -> {
                        if (line.contains("\"content\":\" ")) {
                            arrivals.add(System.nanoTime());
                        }
                    });
            List<SentEvent> sent = engine.groundTruth("watched").orElseThrow().events();
            assertThat(arrivals).hasSize(sent.size());
            // an event held back in a buffer (no flush, or Nagle waiting on a delayed ACK) would arrive with a later
            // one, a whole step or more after its recorded write; a flushed one arrives within a scheduling hiccup
            long[] lags = new long[sent.size()];
            for (int i = 0; i < lags.length; i++) {
                lags[i] = arrivals.get(i) - sent.get(i).writtenNs();
            }
            Arrays.sort(lags);
            assertThat(lags[lags.length / 2]).isLessThan(5_000_000L);
        }
    }

    @Test
    void theModelsScheduleDoesNotBendUnderABusyCpuButTheLateWritesAreRecorded() throws Exception {
        List<List<Long>> idle = dueOffsets("idle", 0);
        List<List<Long>> busy = dueOffsets("busy", 3 * Runtime.getRuntime().availableProcessors());
        // the same requests, one after another, so each meets an idle engine: the model's times, measured from
        // each arrival, are the same to the nanosecond however busy the machine was
        assertThat(busy).isEqualTo(idle);
        assertThat(idle.get(0)).hasSize(12);
    }

    /**
     * Sends five identical requests one after another, with {@code burners} threads spinning meanwhile, and
     * returns each one's event due times minus its arrival. Checks that every event was written at or after
     * its due time and that the engine's /metrics counted each write's lateness.
     */
    private static List<List<Long>> dueOffsets(String prefix, int burners) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < burners; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() % 7;
                }
                if (x == 42) {
                    System.out.print("");
                }
            });
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        try (SimulatedEngine engine = SimulatedEngine.startRecording(SimParams.fromFlags(SimDialect.VLLM, MODEL, List.of()), 0, 1)) {
            List<List<Long>> offsets = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                SimHttp.post(engine, "/v1/chat/completions", prefix + i, SimHttp.chat(SimHttp.words(300, "p"), exact(12)));
                GroundTruth truth = engine.groundTruth(prefix + i).orElseThrow();
                offsets.add(truth.events().stream().map(e -> e.dueNs() - truth.receivedNs()).toList());
                assertThat(truth.events()).allSatisfy(e -> assertThat(e.latenessNs()).isNotNegative());
            }
            String metrics = SimHttp.get(engine, "/metrics").body();
            assertThat(metrics).contains("servebench:sim_delivery_lateness_seconds_count{model_name=\"" + MODEL + "\"} 60.0");
            return offsets;
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    private static String exact(int n) {
        return "\"max_tokens\":" + n + ",\"min_tokens\":" + n + ",\"stream\":true";
    }

    private static long ttft(GroundTruth truth) {
        return truth.firstEventNs() - truth.receivedNs();
    }

    /** The median gap between consecutive token events of each request, over all of them. */
    /**
     * The median gap, by the model's schedule ({@link SentEvent#dueNs()}), between consecutive events of
     * {@code truths} during which at least {@code atLeast} of them were running (between their first and last event):
     * the requests of a burst reach the batch over several steps, and the earliest may finish before the last start.
     */
    private static long medianGapWhileRunning(List<GroundTruth> truths, int atLeast) {
        List<Long> gaps = new ArrayList<>();
        for (GroundTruth truth : truths) {
            List<SentEvent> events = truth.events();
            for (int i = 1; i < events.size(); i++) {
                long at = events.get(i).dueNs();
                long running = truths.stream().filter(t -> t.events().get(0).dueNs() <= at
                        && at <= t.events().get(t.events().size() - 1).dueNs()).count();
                if (running >= atLeast) {
                    gaps.add(at - events.get(i - 1).dueNs());
                }
            }
        }
        assertThat(gaps).as("steps while %d of the %d requests ran", atLeast, truths.size()).isNotEmpty();
        gaps.sort(null);
        return gaps.get(gaps.size() / 2);
    }

    private static long medianGap(List<GroundTruth> truths) {
        List<Long> gaps = new ArrayList<>();
        for (GroundTruth truth : truths) {
            List<SentEvent> events = truth.events();
            for (int i = 1; i < events.size(); i++) {
                gaps.add(events.get(i).writtenNs() - events.get(i - 1).writtenNs());
            }
        }
        gaps.sort(null);
        return gaps.get(gaps.size() / 2);
    }

    /**
     * Sends {@code count} chat requests at once, one thread each (the common pool has a single worker on 2 cores
     * and would send them one by one), and waits for all of them.
     */
    private static void postAtOnce(SimulatedEngine engine, int count, java.util.function.IntFunction<String> id,
                                   java.util.function.Function<String, String> body) {
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(count);
        try {
            List<CompletableFuture<SimHttp.Reply>> replies = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String requestId = id.apply(i);
                replies.add(CompletableFuture.supplyAsync(() -> SimHttp.post(engine, "/v1/chat/completions", requestId,
                        body.apply(requestId)), clients));
            }
            replies.forEach(CompletableFuture::join);
        } finally {
            clients.shutdownNow();
        }
    }
}
