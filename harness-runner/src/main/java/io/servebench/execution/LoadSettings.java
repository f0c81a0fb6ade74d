package io.servebench.execution;

import io.servebench.annotations.Profile;
import io.servebench.engine.kind.EngineKind;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.Cancellation;
import io.servebench.load.LoadParams;
import io.servebench.load.OpenAiApi;
import io.servebench.load.StopConditions;
import io.servebench.plan.LoadOptionParams;
import io.servebench.plan.WorkloadParams;
import io.servebench.workload.Dataset;

import java.time.Duration;

/** What the load generator is told for one load of a workload point: its arrival profile and client settings. */
final class LoadSettings {

    private LoadSettings() {
    }

    /**
     * The arrival profile of a (non-sweep) workload point; rate profiles draw from {@code seed}, a trace replays
     * {@code dataset}'s arrivals.
     */
    static ArrivalProfile profile(WorkloadParams w, long seed, Dataset dataset) {
        LoadOptionParams o = w.options();
        switch (w.profile()) {
            case Profile.TRACE:
                return capped(new ArrivalProfile.Trace(dataset.arrivalsNs().orElseThrow(() -> new IllegalStateException(
                        "profile trace needs a trace: dataset, but " + dataset.name() + " is none"))), o.maxConcurrency());
            case Profile.CONCURRENT:
                return new ArrivalProfile.Concurrent(w.concurrency());
            case Profile.SYNCHRONOUS:
                return new ArrivalProfile.Synchronous();
            case Profile.THROUGHPUT:
                return capped(new ArrivalProfile.Throughput(), o.maxConcurrency());
            default:
                ArrivalProfile.Rate rate = switch (w.profile()) {
                    case Profile.POISSON -> new ArrivalProfile.Poisson(w.rate(), seed);
                    case Profile.GAMMA -> new ArrivalProfile.Gamma(w.rate(), o.burstiness(), seed);
                    default -> new ArrivalProfile.Constant(w.rate());
                };
                ArrivalProfile.Scheduled schedule = o.rampUpSeconds() > 0 ? new ArrivalProfile.RampUp(rate, o.rampUpSeconds()) : rate;
                return capped(schedule, o.maxConcurrency());
        }
    }

    /** {@code schedule} with at most {@code maxConcurrency} requests in flight, unless that is 0. */
    static ArrivalProfile.Scheduled capped(ArrivalProfile.Scheduled schedule, int maxConcurrency) {
        return maxConcurrency > 0 ? new ArrivalProfile.Capped(schedule, maxConcurrency) : schedule;
    }

    /**
     * The client settings of one load: the run's (API key, timeouts) and the workload's; continuous usage as the
     * workload says, else as the engine kind supports.
     */
    static LoadParams of(EngineKind kind, WorkloadParams w, ArrivalProfile profile, ClientOptions client, String apiKey) {
        LoadOptionParams o = w.options();
        boolean continuousUsage = o.continuousUsage() != null ? o.continuousUsage() : kind.continuousUsage();
        return LoadParams.of(profile)
                .withApi("completions".equals(o.api()) ? OpenAiApi.COMPLETIONS : OpenAiApi.CHAT)
                .withTimeouts(client.connectTimeout(), client.requestTimeout())
                .withApiKey(apiKey)
                .withContinuousUsageStats(continuousUsage)
                .withStop(new StopConditions(o.durationSeconds() > 0 ? Duration.ofNanos(Math.round(o.durationSeconds() * 1e9)) : null,
                        o.maxErrors(), o.saturationWindowSeconds() > 0
                        ? Duration.ofNanos(Math.round(o.saturationWindowSeconds() * 1e9)) : null))
                .withWarmupTime(Duration.ofNanos(Math.round(o.warmupSeconds() * 1e9)))
                .withExtraBody(o.extraBody())
                .withCancellation(new Cancellation(o.cancellationRate(),
                        Duration.ofNanos(Math.round(o.cancellationDelaySeconds() * 1e9)),
                        "first-token".equals(o.cancellationAfter()),
                        o.timeoutSeconds() > 0 ? Duration.ofNanos(Math.round(o.timeoutSeconds() * 1e9)) : null));
    }
}
