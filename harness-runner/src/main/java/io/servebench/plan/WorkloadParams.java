package io.servebench.plan;

import io.servebench.annotations.Profile;
import io.servebench.workload.LoadOption;

/**
 * One fully resolved workload: what a trial sends to a server.
 *
 * @param dataset     where prompts come from ({@code sharegpt:PATH} or {@code synthetic-sharegpt})
 * @param profile     arrival profile name ({@link Profile})
 * @param rate        requests per second for rate profiles
 * @param concurrency in-flight requests for {@link Profile#CONCURRENT}
 * @param requests    measured requests
 * @param warmup      warm-up requests sent first and left out of the results
 * @param options     profile shape, stop conditions, warm-up time and client options
 */
public record WorkloadParams(String dataset, String profile, double rate, int concurrency, int requests, int warmup,
                            LoadOptionParams options) {

    public WorkloadParams {
        java.util.Objects.requireNonNull(options, "options");
    }

    /** A point with every {@link LoadOptionParams} option at its default. */
    public WorkloadParams(String dataset, String profile, double rate, int concurrency, int requests, int warmup) {
        this(dataset, profile, rate, concurrency, requests, warmup, LoadOptionParams.DEFAULTS);
    }

    /** This point with another request count (quick mode shortens trials). */
    public WorkloadParams withRequests(int newRequests) {
        return new WorkloadParams(dataset, profile, rate, concurrency, newRequests, warmup, options);
    }

    /**
     * One line for plans and reports, e.g. {@code constant 8 req/s, 1000 requests (+10 warm-up), sharegpt:x.json},
     * followed by the options that differ from their defaults ({@code maxConcurrency=16}).
     */
    public String label() {
        String load = loadLabel();
        String extras = options.nonDefault().entrySet().stream()
                .filter(e -> !e.getKey().equals(LoadOption.SWEEP_RATES.key()))
                .map(e -> e.getKey() + "=" + e.getValue()).collect(java.util.stream.Collectors.joining(" "));
        return load + ", " + requests + " requests" + (warmup > 0 ? " (+" + warmup + " warm-up)" : "") + ", " + dataset
                + (extras.isEmpty() ? "" : ", " + extras);
    }

    /**
     * The offered load alone, e.g. {@code constant 8 req/s}, {@code concurrent 4 streams}, {@code sweep: synchronous,
     * throughput, then 3 constant rates between (chosen at run time)}.
     */
    public String loadLabel() {
        return switch (profile) {
            case Profile.CONCURRENT -> "concurrent " + concurrency + " streams";
            case Profile.SYNCHRONOUS, Profile.THROUGHPUT -> profile;
            case Profile.TRACE -> "trace arrivals";
            case Profile.SWEEP -> "sweep: synchronous, throughput, then " + options.sweepRates()
                    + " constant rates between (chosen at run time)";
            default -> profile + " " + LoadOption.format(rate) + " " + io.servebench.workload.Datasets.rateUnit(dataset);
        };
    }

    /** Whether the offered load is set by {@link #rate()}: constant, poisson and gamma. */
    public boolean hasRate() {
        return Profile.CONSTANT.equals(profile) || Profile.POISSON.equals(profile) || Profile.GAMMA.equals(profile);
    }

    /** Result blocks this point gives: one per sweep step for a sweep, else one. */
    public int resultBlocks() {
        return Profile.SWEEP.equals(profile) ? options.sweepRates() + 2 : 1;
    }
}
