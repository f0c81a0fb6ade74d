package io.servebench.results;

import java.util.Arrays;
import java.util.Optional;

/**
 * Metrics the engine reports about itself on its Prometheus {@code /metrics} endpoint, as deltas
 * between a scrape before and a scrape after one repetition (vLLM's names; SGLang's where they
 * match). Keys of {@link RepetitionResult#serverMetrics()}. An engine that does not offer one leaves it absent.
 */
public enum ServerMetric {
    /** Accepted draft tokens over proposed draft tokens. */
    SPEC_DECODE_ACCEPTANCE_RATE("spec_decode_acceptance_rate", "Speculative decoding acceptance rate (server)", "ratio"),
    /** {@code 1 + accepted draft tokens / drafts}: tokens produced per decoding step of a drafting request. */
    SPEC_DECODE_ACCEPTANCE_LENGTH("spec_decode_mean_acceptance_length",
            "Speculative decoding mean acceptance length (server)", "tokens"),
    /** Prompt tokens found in the prefix cache over prompt tokens looked up. */
    PREFIX_CACHE_HIT_RATE("prefix_cache_hit_rate", "Prefix cache hit rate (server)", "ratio"),
    PREEMPTIONS("preemptions", "Preemptions (server)", "preemptions"),
    PROMPT_TOKENS("prompt_tokens", "Prompt tokens (server)", "tokens"),
    GENERATION_TOKENS("generation_tokens", "Generated tokens (server)", "tokens"),
    /** From the server's TTFT histogram: sum over count of the delta. */
    TTFT_MEAN("ttft_mean", "Mean TTFT (ms) (server)", "ms"),
    /**
     * Quantiles of the delta histogram, interpolated linearly within a bucket as Prometheus' histogram_quantile does,
     * and held to the most its sum allows (a quantile is at most the sum over the values from its rank up).
     */
    TTFT_P50("ttft_p50", "Median TTFT (ms) (server)", "ms"),
    TTFT_P90("ttft_p90", "P90 TTFT (ms) (server)", "ms"),
    TTFT_P99("ttft_p99", "P99 TTFT (ms) (server)", "ms"),
    /**
     * The simulated engine's own: the share of token events written more than {@value #LATE_MS} ms after
     * the time its model gave them (a busy machine delays the writes, never the model).
     */
    DELIVERY_LATE_SHARE("delivery_late_share", "Token events written over 1 ms late (simulated engine)", "ratio"),
    /** The simulated engine's own: P99 of how late token events were written, from its lateness histogram, as the TTFT quantiles. */
    DELIVERY_LATENESS_P99("delivery_lateness_p99", "P99 token delivery lateness (ms) (simulated engine)", "ms");

    /**
     * How a repetition's note begins when the engine's figures were scraped but are not of its load (a restart between
     * the scrapes, another replica behind one address): the reports then say they were left out, not that there were
     * none.
     */
    public static final String LEFT_OUT_NOTE = "the engine's own figures (/metrics) are left out, as they are not of"
            + " this load: ";

    /**
     * The key under which a quantile's histogram bucket is kept beside it ({@code ttft_p99_bucket_low},
     * {@code ttft_p99_bucket_high}, in the metric's unit): the values the histogram allows it, of which the metric
     * itself is an interpolation.
     */
    public static String bucketKey(ServerMetric quantile, boolean high) {
        return quantile.id + (high ? "_bucket_high" : "_bucket_low");
    }

    /** The lateness above which a simulated engine's write counts as late, ms. */
    public static final double LATE_MS = 1.0;

    private final String id;
    private final String label;
    private final String unit;

    ServerMetric(String id, String label, String unit) {
        this.id = id;
        this.label = label;
        this.unit = unit;
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    public String unit() {
        return unit;
    }

    /** The metric with this {@link #id()}, if any. */
    public static Optional<ServerMetric> byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst();
    }

    /** Whether {@code key} may stand in a repetition's server metrics: a metric's id, or a quantile's bucket bound. */
    public static boolean isKey(String key) {
        return byId(key).isPresent() || Arrays.stream(values()).filter(ServerMetric::quantile)
                .anyMatch(m -> key.equals(bucketKey(m, false)) || key.equals(bucketKey(m, true)));
    }

    /** Whether this is a quantile of one of the engine's histograms, kept with its bucket ({@link #bucketKey}). */
    public boolean quantile() {
        return this == TTFT_P50 || this == TTFT_P90 || this == TTFT_P99 || this == DELIVERY_LATENESS_P99;
    }
}
