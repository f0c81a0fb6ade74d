package io.servebench.annotations;

/**
 * Names of the arrival profiles accepted by {@link Workload#profile()}. Strings rather than an enum
 * so that the annotation processor, not javac, reports an unknown name, naming the known ones.
 */
public final class Profile {

    /** Requests evenly spaced at {@link Workload#rate()} per second, sent whether or not earlier ones finished (open loop). */
    public static final String CONSTANT = "constant";

    /** Requests with exponentially distributed gaps of mean {@code 1 / rate}, seeded (open loop). */
    public static final String POISSON = "poisson";

    /** {@link Workload#concurrency()} closed-loop streams: each sends its next request when the previous one ends. */
    public static final String CONCURRENT = "concurrent";

    private Profile() {
    }
}
