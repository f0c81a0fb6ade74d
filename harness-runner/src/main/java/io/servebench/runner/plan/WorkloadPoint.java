package io.servebench.runner.plan;

import io.servebench.annotations.Profile;

/**
 * One fully resolved workload: what a trial sends to a server.
 *
 * @param dataset     where prompts come from ({@code sharegpt:PATH} or {@code synthetic-sharegpt})
 * @param profile     arrival profile name ({@link Profile})
 * @param rate        requests per second for rate profiles
 * @param concurrency in-flight requests for {@link Profile#CONCURRENT}
 * @param requests    measured requests
 * @param warmup      warm-up requests sent first and left out of the results
 */
public record WorkloadPoint(String dataset, String profile, double rate, int concurrency, int requests, int warmup) {

    /** One line for plans and reports, e.g. {@code constant 8 req/s, 1000 requests (+10 warm-up), sharegpt:x.json}. */
    public String label() {
        String load = Profile.CONCURRENT.equals(profile)
                ? "concurrent " + concurrency + " streams"
                : profile + " " + formatRate(rate) + " req/s";
        return load + ", " + requests + " requests" + (warmup > 0 ? " (+" + warmup + " warm-up)" : "") + ", " + dataset;
    }

    /** The rate without a trailing {@code .0}: {@code 8}, {@code 0.5}. */
    public static String formatRate(double rate) {
        return rate == Math.rint(rate) && Math.abs(rate) < 1e15 ? Long.toString((long) rate) : Double.toString(rate);
    }
}
