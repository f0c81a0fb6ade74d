package io.servebench.load;

import io.servebench.workload.RequestSpec;

import java.time.Duration;
import java.util.List;

/**
 * What one {@link LoadWorker} sends: its share of a load's schedule and the load's parameters, as the first line of
 * its input (JSON). The API key is not here: it travels in the worker's environment ({@link LoadWorkers#API_KEY_ENV}).
 *
 * @param baseUris         the engine's replicas
 * @param adapterAfterBase how the engine takes an adapter ({@link Target#adapterAfterBase()})
 * @param weights          the spread's weight of each replica
 * @param durationNs       the load's longest duration counted from this share's first send, 0 for no limit
 * @param timeoutNs        the longest a request may last, 0 for no limit
 * @param dataset          the workload's dataset spec, whose tokenizer counts the tokens of events as a single process
 *                         would ({@code Datasets#tokenizer}); {@code null} for one token per event
 * @param firstOffsetNs    this share's first intended send after the load's start
 * @param offsetsNs        this share's arrivals (its conversations' first turns) counted from its first, the first 0
 * @param specs            this share's requests in sending order, each conversation's turns together, warm-up flags set
 */
record WorkerJob(List<String> baseUris, String model, boolean adapterAfterBase, List<Integer> weights, String api, long connectTimeoutNs,
                 long requestTimeoutNs, int maxConnections, boolean continuousUsage, long durationNs, String extraBody,
                 String requestIdPrefix, double cancelPercent, long cancelDelayNs, boolean cancelAfterFirstToken,
                 long timeoutNs, String dataset, long firstOffsetNs, long[] offsetsNs, List<RequestSpec> specs) {

    /** The targets this share goes to. */
    List<Target> targets() {
        return baseUris.stream().map(u -> new Target(java.net.URI.create(u), model, adapterAfterBase)).toList();
    }

    /** The load's parameters for this share, with {@code apiKey}: its own trace, warm-up already decided. */
    LoadParams params(String apiKey) {
        return new LoadParams(new ArrivalProfile.Trace(offsetsNs), OpenAiApi.valueOf(api), Duration.ofNanos(connectTimeoutNs),
                Duration.ofNanos(requestTimeoutNs), maxConnections, apiKey, continuousUsage,
                new StopConditions(durationNs == 0 ? null : Duration.ofNanos(durationNs), 0), Duration.ZERO, extraBody,
                requestIdPrefix, new Cancellation(cancelPercent, Duration.ofNanos(cancelDelayNs), cancelAfterFirstToken,
                timeoutNs == 0 ? null : Duration.ofNanos(timeoutNs)));
    }

    int warmups() {
        return (int) specs.stream().filter(RequestSpec::warmup).count();
    }
}
