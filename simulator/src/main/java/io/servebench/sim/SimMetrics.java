package io.servebench.sim;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The simulated engine's server-side counters, rendered as vLLM (V1) exposes them on {@code GET /metrics}:
 * Prometheus text format 0.0.4, the {@code vllm:} names, a {@code model_name} label. Counters only grow; the
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
    /** Gauges, set by the scheduler after each step. */
    volatile int running;
    volatile int waiting;

    private final AtomicLongArray ttftBuckets = new AtomicLongArray(TTFT_BUCKETS.length);
    private final LongAdder ttftCount = new LongAdder();
    private final DoubleAdder ttftSum = new DoubleAdder();

    /** Records one request's time from arrival to its first token, s. */
    void observeTtft(double seconds) {
        for (int i = 0; i < TTFT_BUCKETS.length; i++) {
            if (seconds <= TTFT_BUCKETS[i]) {
                ttftBuckets.incrementAndGet(i);
                break;
            }
        }
        ttftCount.increment();
        ttftSum.add(seconds);
    }

    /** The exposition text for the model {@code model}. */
    String render(String model) {
        String labels = "{model_name=\"" + model.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        StringBuilder out = new StringBuilder();
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
        String name = "vllm:time_to_first_token_seconds";
        out.append("# HELP ").append(name).append(" Histogram of time to first token in seconds.\n");
        out.append("# TYPE ").append(name).append(" histogram\n");
        String labelPrefix = labels.substring(0, labels.length() - 1);
        long cumulative = 0;
        for (int i = 0; i < TTFT_BUCKETS.length; i++) {
            cumulative += ttftBuckets.get(i);
            out.append(name).append("_bucket").append(labelPrefix).append(",le=\"").append(TTFT_BUCKETS[i]).append("\"} ")
                    .append(cumulative).append(".0\n");
        }
        long count = ttftCount.sum();
        out.append(name).append("_bucket").append(labelPrefix).append(",le=\"+Inf\"} ").append(count).append(".0\n");
        out.append(name).append("_count").append(labels).append(' ').append(count).append(".0\n");
        out.append(name).append("_sum").append(labels).append(' ').append(String.format(Locale.ROOT, "%s", ttftSum.sum()))
                .append('\n');
        return out.toString();
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
