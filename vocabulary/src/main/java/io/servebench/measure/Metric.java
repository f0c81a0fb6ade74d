package io.servebench.measure;

import java.util.Arrays;
import java.util.Optional;

/**
 * The catalogue of metrics a trial reports: stable ids (used as keys in the result model's {@code RepetitionResult}, in the
 * journal and in {@code results.json}), the labels of the reference study (kept verbatim, odd spacing
 * included, so its numbers line up with ours by label) and units. Definitions are DESIGN.md's.
 */
public enum Metric {
    SUCCESSFUL_REQUESTS("successful_requests", "Successful requests", "requests", Kind.SCALAR),
    FAILED_REQUESTS("failed_requests", "Failed requests", "requests", Kind.SCALAR),
    /** Length of the measurement window: first intended send of a measured request to the last completion. */
    DURATION("duration", "Benchmark duration (s)", "s", Kind.SCALAR),
    /** Prompt tokens of the successful requests. */
    TOTAL_INPUT_TOKENS("total_input_tokens", "Total input tokens", "tokens", Kind.SCALAR),
    /** Output tokens of the successful requests. */
    TOTAL_OUTPUT_TOKENS("total_output_tokens", "Total generated tokens", "tokens", Kind.SCALAR),
    REQUEST_THROUGHPUT("request_throughput", "Request throughput (req/s)", "req/s", Kind.SCALAR),
    OUTPUT_THROUGHPUT("output_throughput", "Output token throughput (tok/s)", "tok/s", Kind.SCALAR),
    /** Most output tokens in any 1 s window wholly inside the measurement window, per second. */
    PEAK_OUTPUT_THROUGHPUT("peak_output_throughput", "Peak output token throughput (tok/s)", "tok/s", Kind.SCALAR),
    TOTAL_THROUGHPUT("total_token_throughput", "Total Token throughput (tok/s)", "tok/s", Kind.SCALAR),
    /** Largest number of requests in flight (sent, not yet done) at once. */
    MAX_CONCURRENCY("max_concurrency", "Peak concurrent requests", "requests", Kind.SCALAR),
    /** Time-weighted mean number of requests in flight over the measurement window. */
    MEAN_CONCURRENCY("mean_concurrency", "Mean concurrent requests", "requests", Kind.SCALAR),
    /** Successful requests meeting every stated SLO per second of the measurement window; absent without an SLO. */
    GOODPUT("goodput", "Goodput (req/s)", "req/s", Kind.SCALAR),
    /** Share of the measured requests (failed ones included) that succeeded and met every stated SLO; absent without an SLO. */
    SLO_ATTAINMENT("slo_attainment", "Requests meeting the SLOs (%)", "%", Kind.SCALAR),
    /** Measured requests sent per second of the sending span: {@code (n − 1) / (last s − first s)}; absent below 2 sends. */
    ACHIEVED_SEND_RATE("achieved_send_rate", "Achieved send rate (req/s)", "req/s", Kind.SCALAR),
    /** The same over the intended send times {@code a}: the rate the arrival schedule asked for. */
    SCHEDULED_SEND_RATE("scheduled_send_rate", "Scheduled send rate (req/s)", "req/s", Kind.SCALAR),
    /** The most token events parsed from one network read, over the successful requests. */
    EVENTS_PER_READ_MAX("events_per_read_max", "Max token events per read", "events", Kind.SCALAR),
    /**
     * The harness's own heap in use at its highest while the load ran (sampled every 100 ms), MB: a client near its
     * heap's limit measures itself, not the server.
     */
    HARNESS_HEAP_PEAK("harness_heap_peak", "Harness heap in use, peak (MB)", "MB", Kind.SCALAR),
    /** The harness process's resident memory at its highest while the load ran (sampled every 100 ms), MB. */
    HARNESS_RSS_PEAK("harness_rss_peak", "Harness resident memory, peak (MB)", "MB", Kind.SCALAR),
    /**
     * Energy the engine's GPUs used over the measurement window, all together, J: the driver's energy counter where the
     * source reads it, else power samples integrated; the simulated engine's from its power model.
     */
    GPU_ENERGY("gpu_energy", "GPU energy (J)", "J", Kind.SCALAR),
    /** {@link #GPU_ENERGY} per output token of the successful requests, J. */
    ENERGY_PER_OUTPUT_TOKEN("energy_per_output_token", "Energy per output token (J)", "J/token", Kind.SCALAR),
    /** {@link #GPU_ENERGY} per successful request, J. */
    ENERGY_PER_REQUEST("energy_per_request", "Energy per request (J)", "J/request", Kind.SCALAR),
    /** Output tokens per joule of {@link #GPU_ENERGY}. */
    OUTPUT_TOKENS_PER_JOULE("output_tokens_per_joule", "Output tokens per joule", "tokens/J", Kind.SCALAR),
    /** {@link #GPU_ENERGY} over the measurement window's length: the GPUs' mean power together, W. */
    GPU_POWER_MEAN("gpu_power_mean", "Mean GPU power (W)", "W", Kind.SCALAR),
    /** The highest power sample of any one GPU in the window, W. */
    GPU_POWER_PEAK("gpu_power_peak", "Peak GPU power (W)", "W", Kind.SCALAR),
    /** GPU utilisation (share of time a kernel ran) averaged over the samples of every GPU, %. */
    GPU_UTILIZATION("gpu_utilization", "Mean GPU utilization (%)", "%", Kind.SCALAR),
    /** The most device memory in use on any one GPU, MiB. */
    GPU_MEMORY_PEAK("gpu_memory_peak", "Peak GPU memory (MiB)", "MiB", Kind.SCALAR),
    /** Time in the window during which a GPU reported a power, thermal or hardware slowdown, s. */
    GPU_THROTTLED("gpu_throttled", "GPU throttled (s)", "s", Kind.SCALAR),
    /**
     * With a GPU price per hour: the GPUs' cost of the measurement window per million output tokens of the successful
     * requests, in the price's currency.
     */
    COST_PER_MILLION_OUTPUT_TOKENS("cost_per_million_output_tokens", "Cost per million output tokens", "per 1M tokens",
            Kind.SCALAR),
    /**
     * Measured requests the client called off on purpose ({@code cancellationRate}): neither successful nor failed, in
     * no distribution; present when the load cancels requests.
     */
    CANCELLED_REQUESTS("cancelled_requests", "Cancelled requests", "requests", Kind.SCALAR),
    /** Failed requests that outlived the load's {@code timeoutSeconds}; present when the load sets one. */
    TIMED_OUT_REQUESTS("timed_out_requests", "Timed-out requests", "requests", Kind.SCALAR),

    /** {@code e − s} per successful request. */
    E2E_LATENCY("e2e_latency", "Latency(s)", "s", Kind.DISTRIBUTION),
    /** {@code f − s}. */
    TTFT("ttft", "TTFT (ms)", "ms", Kind.DISTRIBUTION),
    /** {@code (e − f) / (o − 1)} for {@code o > 1}. */
    TPOT("tpot", "TPOT (ms)", "ms", Kind.DISTRIBUTION),
    /** Per output token: a token event {@code g} after the previous one with {@code n} tokens gives {@code n} samples {@code g / n}. */
    ITL("itl", "ITL (ms)", "ms", Kind.DISTRIBUTION),
    /** One sample {@code g} per token event after the first. */
    INTER_CHUNK_LATENCY("inter_chunk_latency", "Inter-chunk latency (ms)", "ms", Kind.DISTRIBUTION),
    /** First {@code delta.content} event minus {@code s}. */
    TIME_TO_FIRST_CONTENT("ttfc", "Time to first content token (ms)", "ms", Kind.DISTRIBUTION),
    /** {@code f − a}: TTFT including client-side queueing. */
    TTFT_FROM_SCHEDULE("ttft_from_schedule", "TTFT from schedule (ms)", "ms", Kind.DISTRIBUTION),
    /** {@code e − a}. */
    E2E_FROM_SCHEDULE("e2e_from_schedule", "Latency from schedule (s)", "s", Kind.DISTRIBUTION),
    /** {@code s − a}. */
    SCHEDULE_LAG("schedule_lag", "Schedule lag (ms)", "ms", Kind.DISTRIBUTION),
    /**
     * Under a concurrency cap only: from {@code a} to the moment the request got a slot, client-side
     * queueing that TTFT and latency from schedule include and TTFT and latency exclude.
     */
    CLIENT_QUEUE_WAIT("client_queue_wait", "Client queue wait (ms)", "ms", Kind.DISTRIBUTION);

    /** Whether a metric is one number per repetition or a distribution of samples. */
    public enum Kind { SCALAR, DISTRIBUTION }

    private final String id;
    private final String label;
    private final String unit;
    private final Kind kind;

    Metric(String id, String label, String unit, Kind kind) {
        this.id = id;
        this.label = label;
        this.unit = unit;
        this.kind = kind;
    }

    public String id() {
        return id;
    }

    /** The label as reports show it; for a distribution, the part after the statistic ("TTFT (ms)"). */
    public String label() {
        return label;
    }

    /** The label of one statistic of a distribution metric, e.g. "Median TTFT (ms)". */
    public String label(Stat stat) {
        if (kind != Kind.DISTRIBUTION) {
            throw new IllegalArgumentException(this + " is a scalar metric; it has no " + stat + " statistic");
        }
        return stat.label() + " " + label;
    }

    public String unit() {
        return unit;
    }

    public Kind kind() {
        return kind;
    }

    /** The metric with this {@link #id()}, if any. */
    public static Optional<Metric> byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst();
    }
}
