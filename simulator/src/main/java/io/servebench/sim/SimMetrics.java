package io.servebench.sim;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The simulated engine's server-side counters, rendered as vLLM (V1) exposes them on {@code GET /metrics}, or SGLang
 * when it stands for SGLang: Prometheus text format 0.0.4, the engine's names, a {@code model_name} label. Counters only grow; the
 * scheduler thread updates them and any handler thread renders them.
 */
final class SimMetrics {

    /** Upper bounds of vLLM's {@code vllm:time_to_first_token_seconds} buckets, s. */
    static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0,
        7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};

    final LongAdder preemptions = new LongAdder();
    final LongAdder promptTokens = new LongAdder();
    final LongAdder generationTokens = new LongAdder();
    /** Prompt tokens looked up in the prefix cache at admission, and those found. */
    final LongAdder prefixCacheQueries = new LongAdder();
    final LongAdder prefixCacheHits = new LongAdder();
    /** Decoding steps that proposed draft tokens, the draft tokens proposed, and those accepted. */
    final LongAdder drafts = new LongAdder();
    final LongAdder draftTokens = new LongAdder();
    final LongAdder acceptedTokens = new LongAdder();
    /** Gauges, set by the scheduler around each step ({@link #held}). */
    volatile int running;
    volatile int waiting;

    /**
     * Sets the gauges from the scheduler's queues: before a step what it runs, after it what is left, so that they
     * read 0 once the last request has ended (the harness waits for that before it empties the cache).
     */
    void held(BatchScheduler batch) {
        running = batch.runningCount();
        waiting = batch.waitingCount();
    }

    /**
     * Upper bounds of the delivery-lateness buckets, s: how long after its due time in the model a token
     * event was written. Not a vLLM metric: the simulated engine's own, so a busy harness shows.
     */
    static final double[] LATENESS_BUCKETS = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1.0};
    /** The lateness histogram's name on {@code /metrics}. */
    static final String LATENESS = "servebench:sim_delivery_lateness_seconds";

    private final Histogram lateness = new Histogram(LATENESS_BUCKETS);
    private final Histogram ttft = new Histogram(TTFT_BUCKETS);

    /** Records one request's time from arrival to its first token, s. */
    void observeTtft(double seconds) {
        ttft.observe(seconds);
    }

    /** Records one token event's write, {@code lateNs} after its due time (negative: early, counted as 0). */
    void observeLateness(long lateNs) {
        lateness.observe(Math.max(0, lateNs) / 1e9);
    }

    /**
     * The exposition text for the model {@code model}, under the names of the engine {@code dialect} stands for:
     * SGLang's for {@link SimDialect#SGLANG} ({@link #renderSglang}), vLLM's otherwise.
     */
    String render(String model, SimDialect dialect) {
        String labels = "{model_name=\"" + model.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        StringBuilder out = new StringBuilder();
        if (dialect == SimDialect.SGLANG) {
            renderSglang(out, labels);
        } else {
            renderVllm(out, labels);
        }
        lateness.render(out, LATENESS, "How long after the model's due time each token event was written, in seconds.",
                labels);
        return out.toString();
    }

    /** vLLM V1's names ({@code vllm/v1/metrics/loggers.py}). */
    private void renderVllm(StringBuilder out, String labels) {
        gauge(out, "vllm:num_requests_running", "Number of requests in model execution batches.", labels, running);
        gauge(out, "vllm:num_requests_waiting", "Number of requests waiting to be processed.", labels, waiting);
        counter(out, "vllm:num_preemptions", "Cumulative number of preemption from the engine.", labels, preemptions.sum());
        counter(out, "vllm:prompt_tokens", "Number of prefill tokens processed.", labels, promptTokens.sum());
        counter(out, "vllm:generation_tokens", "Number of generation tokens processed.", labels, generationTokens.sum());
        counter(out, "vllm:prefix_cache_queries", "Prefix cache queries, in terms of number of queried tokens.", labels,
                prefixCacheQueries.sum());
        counter(out, "vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.", labels,
                prefixCacheHits.sum());
        counter(out, "vllm:spec_decode_num_drafts", "Number of spec decoding drafts.", labels, drafts.sum());
        counter(out, "vllm:spec_decode_num_draft_tokens", "Number of draft tokens.", labels, draftTokens.sum());
        counter(out, "vllm:spec_decode_num_accepted_tokens", "Number of accepted tokens.", labels, acceptedTokens.sum());
        ttft.render(out, "vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", labels);
    }

    /**
     * What SGLang exports of the same counts: {@code SchedulerMetricsCollector}'s request gauges and
     * {@code TokenizerMetricsCollector}'s token counters and TTFT histogram ({@code python/sglang/srt/metrics/collector.py});
     * cached prompt tokens under {@code cache_source="device"}; a preemption is SGLang's retraction, counted by
     * {@code sglang:num_retracted_requests_total}. SGLang has no speculative-decoding counters (its acceptance is a
     * gauge of its last logging interval), so none is written. The TTFT bucket bounds are vLLM's.
     */
    private void renderSglang(StringBuilder out, String labels) {
        gauge(out, "sglang:num_running_reqs", "The number of running requests.", labels, running);
        gauge(out, "sglang:num_queue_reqs", "The number of requests in the waiting queue.", labels, waiting);
        counter(out, "sglang:num_retracted_requests", "Total number of retracted requests.", labels, preemptions.sum());
        counter(out, "sglang:prompt_tokens", "Number of prefill tokens processed.", labels, promptTokens.sum());
        counter(out, "sglang:generation_tokens", "Number of generation tokens processed.", labels, generationTokens.sum());
        String device = labels.substring(0, labels.length() - 1) + ",cache_source=\"device\"}";
        counter(out, "sglang:cached_tokens", "Number of cached prompt tokens by source (device/host/storage).", device,
                prefixCacheHits.sum());
        ttft.render(out, "sglang:time_to_first_token_seconds", "Histogram of time to first token in seconds.", labels);
    }

    /** A Prometheus histogram: counts per bucket (each value in the first whose upper bound holds it), count, sum. */
    private static final class Histogram {
        private final double[] bounds;
        private final AtomicLongArray buckets;
        private final LongAdder count = new LongAdder();
        private final DoubleAdder sum = new DoubleAdder();

        Histogram(double[] bounds) {
            this.bounds = bounds;
            this.buckets = new AtomicLongArray(bounds.length);
        }

        void observe(double value) {
            for (int i = 0; i < bounds.length; i++) {
                if (value <= bounds[i]) {
                    buckets.incrementAndGet(i);
                    break;
                }
            }
            count.increment();
            sum.add(value);
        }

        /** As prometheus_client writes one: cumulative buckets, {@code +Inf}, count and sum, values as floats. */
        void render(StringBuilder out, String name, String help, String labels) {
            out.append("# HELP ").append(name).append(' ').append(help).append('\n');
            out.append("# TYPE ").append(name).append(" histogram\n");
            String labelPrefix = labels.substring(0, labels.length() - 1);
            long cumulative = 0;
            for (int i = 0; i < bounds.length; i++) {
                cumulative += buckets.get(i);
                out.append(name).append("_bucket").append(labelPrefix).append(",le=\"").append(bounds[i]).append("\"} ")
                        .append(cumulative).append(".0\n");
            }
            long total = count.sum();
            out.append(name).append("_bucket").append(labelPrefix).append(",le=\"+Inf\"} ").append(total).append(".0\n");
            out.append(name).append("_count").append(labels).append(' ').append(total).append(".0\n");
            out.append(name).append("_sum").append(labels).append(' ').append(String.format(Locale.ROOT, "%s", sum.sum()))
                    .append('\n');
        }
    }

    private static void gauge(StringBuilder out, String name, String help, String labels, long value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" gauge\n");
        out.append(name).append(labels).append(' ').append(value).append(".0\n");
    }

    /** A counter as prometheus_client writes it: the family without {@code _total}, the sample with it. */
    private static void counter(StringBuilder out, String family, String help, String labels, long value) {
        out.append("# HELP ").append(family).append("_total ").append(help).append('\n');
        out.append("# TYPE ").append(family).append("_total counter\n");
        out.append(family).append("_total").append(labels).append(' ').append(value).append(".0\n");
    }
}
