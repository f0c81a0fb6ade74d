package io.servebench.load;

import java.time.Duration;
import java.util.Objects;

/**
 * How the load generator drives an endpoint.
 *
 * @param profile              when requests go out
 * @param api                  which streaming API to call
 * @param connectTimeout       the longest wait for a TCP connection to be established
 * @param requestTimeout       the longest silence allowed while a request is in flight: waiting for the response
 *                             head or for the next bytes of the stream. A server that stops answering fails the
 *                             request with a {@code timeout} error after this long; a stream that keeps sending is
 *                             never cut short, however long it runs
 * @param maxConnections       for {@link ArrivalProfile.Scheduled} profiles, the most requests in flight (the
 *                             connection pool's size, total and per route); requests beyond it wait for a free
 *                             connection, which shows as schedule lag. {@link ArrivalProfile.Concurrent} sizes the
 *                             pool from its stream count instead
 * @param apiKey               sent as {@code Authorization: Bearer <key>}; {@code null} to send none. Never logged
 * @param continuousUsageStats ask for cumulative usage on every chunk ({@code stream_options.continuous_usage_stats},
 *                             a vLLM extension, also in SGLang since 0.5.5) so each token event's token count is exact
 * @param stop                 when to stop sending early
 * @param warmupTime           requests whose intended send time falls within this long after the start are warm-up
 *                             requests, whatever their spec says; {@link Duration#ZERO} for none
 * @param extraBody            a JSON object whose fields are added to every request body (e.g.
 *                             {@code {"temperature":0}}); {@code null} for none. It may not set the fields the
 *                             client relies on ({@link io.servebench.workload.BodyFields#RESERVED})
 * @param requestIdPrefix      put before each request's index in its {@code X-Request-Id} header ({@link #requestId});
 *                             empty for none. A run gives each repetition its own, so that the ids of a run are unique
 *                             and an engine that draws its random choices per request id (the simulated engine does)
 *                             draws anew for every repetition
 * @param cancellation         which requests the client calls off on purpose, and the longest a request may last
 */
public record LoadParams(
        ArrivalProfile profile,
        OpenAiApi api,
        Duration connectTimeout,
        Duration requestTimeout,
        int maxConnections,
        String apiKey,
        boolean continuousUsageStats,
        StopConditions stop,
        Duration warmupTime,
        String extraBody,
        String requestIdPrefix,
        Cancellation cancellation) {

    /** Default cap on requests in flight for open-loop profiles: high, so that it never throttles silently. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(5);

    public LoadParams {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(api, "api");
        requirePositive("connectTimeout", connectTimeout);
        requirePositive("requestTimeout", requestTimeout);
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be >= 1, got " + maxConnections);
        }
        if (apiKey != null && apiKey.isBlank()) {
            throw new IllegalArgumentException("apiKey must be null (no key) or non-blank, got a blank string");
        }
        Objects.requireNonNull(stop, "stop");
        if (warmupTime == null || warmupTime.isNegative()) {
            throw new IllegalArgumentException("warmupTime must be zero or positive, got " + warmupTime);
        }
        if (!warmupTime.isZero() && profile instanceof ArrivalProfile.Scheduled scheduled
                && scheduled.uncapped() instanceof ArrivalProfile.Throughput) {
            throw new IllegalArgumentException("a warm-up time needs a profile that spreads requests over time, but "
                    + profile + " sends every request at the start; give a warm-up request count instead");
        }
        Objects.requireNonNull(requestIdPrefix, "requestIdPrefix");
        Objects.requireNonNull(cancellation, "cancellation");
        if (extraBody != null) {
            String problem = io.servebench.workload.BodyFields.problem(extraBody);
            if (problem != null) {
                throw new IllegalArgumentException("extraBody " + problem);
            }
        }
    }

    /** Parameters without stop conditions, warm-up time or extra body fields. */
    public LoadParams(ArrivalProfile profile, OpenAiApi api, Duration connectTimeout, Duration requestTimeout,
                      int maxConnections, String apiKey, boolean continuousUsageStats) {
        this(profile, api, connectTimeout, requestTimeout, maxConnections, apiKey, continuousUsageStats,
                StopConditions.NONE, Duration.ZERO, null, "", Cancellation.NONE);
    }

    /** The chat API, default timeouts and cap, no API key, continuous usage stats requested. */
    public static LoadParams of(ArrivalProfile profile) {
        return new LoadParams(profile, OpenAiApi.CHAT, DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT,
                DEFAULT_MAX_CONNECTIONS, null, true);
    }

    public LoadParams withApi(OpenAiApi newApi) {
        return new LoadParams(profile, newApi, connectTimeout, requestTimeout, maxConnections, apiKey, continuousUsageStats,
                stop, warmupTime, extraBody, requestIdPrefix, cancellation);
    }

    public LoadParams withTimeouts(Duration newConnectTimeout, Duration newRequestTimeout) {
        return new LoadParams(profile, api, newConnectTimeout, newRequestTimeout, maxConnections, apiKey,
                continuousUsageStats, stop, warmupTime, extraBody, requestIdPrefix, cancellation);
    }

    public LoadParams withMaxConnections(int newMaxConnections) {
        return new LoadParams(profile, api, connectTimeout, requestTimeout, newMaxConnections, apiKey,
                continuousUsageStats, stop, warmupTime, extraBody, requestIdPrefix, cancellation);
    }

    public LoadParams withApiKey(String newApiKey) {
        return new LoadParams(profile, api, connectTimeout, requestTimeout, maxConnections, newApiKey,
                continuousUsageStats, stop, warmupTime, extraBody, requestIdPrefix, cancellation);
    }

    public LoadParams withContinuousUsageStats(boolean enabled) {
        return new LoadParams(profile, api, connectTimeout, requestTimeout, maxConnections, apiKey, enabled,
                stop, warmupTime, extraBody, requestIdPrefix, cancellation);
    }

    public LoadParams withStop(StopConditions newStop) {
        return new LoadParams(profile, api, connectTimeout, requestTimeout, maxConnections, apiKey, continuousUsageStats,
                newStop, warmupTime, extraBody, requestIdPrefix, cancellation);
    }

    public LoadParams withWarmupTime(Duration newWarmupTime) {
        return new LoadParams(profile, api, connectTimeout, requestTimeout, maxConnections, apiKey, continuousUsageStats,
                stop, newWarmupTime, extraBody, requestIdPrefix, cancellation);
    }

    public LoadParams withExtraBody(String newExtraBody) {
        return new LoadParams(profile, api, connectTimeout, requestTimeout, maxConnections, apiKey, continuousUsageStats,
                stop, warmupTime, newExtraBody, requestIdPrefix, cancellation);
    }

    public LoadParams withRequestIdPrefix(String newRequestIdPrefix) {
        return new LoadParams(profile, api, connectTimeout, requestTimeout, maxConnections, apiKey, continuousUsageStats,
                stop, warmupTime, extraBody, newRequestIdPrefix, cancellation);
    }

    public LoadParams withCancellation(Cancellation newCancellation) {
        return new LoadParams(profile, api, connectTimeout, requestTimeout, maxConnections, apiKey, continuousUsageStats,
                stop, warmupTime, extraBody, requestIdPrefix, newCancellation);
    }

    /** The {@code X-Request-Id} of the request whose record id is {@code index}. */
    public String requestId(long index) {
        return requestIdPrefix + index;
    }

    /**
     * The most requests this configuration can have in flight: the connection pool's size. Closed-loop
     * profiles size it from their streams and {@link ArrivalProfile.Capped} from its cap, so the pool is
     * never the limit; other open-loop profiles use {@link #maxConnections()}, and a request waiting for a
     * connection shows as schedule lag.
     */
    public int maxInFlight() {
        return profile.maxInFlight() > 0 ? profile.maxInFlight() : maxConnections;
    }

    /** Like the record's default, but with the API key redacted so that the object is safe to log. */
    @Override
    public String toString() {
        return "LoadParams[profile=" + profile + ", api=" + api + ", connectTimeout=" + connectTimeout
                + ", requestTimeout=" + requestTimeout + ", maxConnections=" + maxConnections
                + ", apiKey=" + (apiKey == null ? "none" : "<redacted>")
                + ", continuousUsageStats=" + continuousUsageStats + ", stop=" + stop + ", warmupTime=" + warmupTime
                + ", extraBody=" + extraBody + ", requestIdPrefix=" + requestIdPrefix + ", cancellation=" + cancellation + "]";
    }

    private static void requirePositive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, got " + d);
        }
    }
}
