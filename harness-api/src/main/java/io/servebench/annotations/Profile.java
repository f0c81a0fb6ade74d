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

    /** One request at a time: each goes out when the previous one has ended (closed loop, latency without queueing). */
    public static final String SYNCHRONOUS = "synchronous";

    /**
     * Gamma-distributed gaps of mean {@code 1 / rate} and shape {@link Workload#burstiness()} (open loop, seeded),
     * as {@code vllm bench serve --burstiness}: 1 is Poisson, below 1 burstier, above 1 more even.
     */
    public static final String GAMMA = "gamma";

    /** Every request at once (open loop): the most the server can take; cap it with {@link Workload#maxConcurrency()}. */
    public static final String THROUGHPUT = "throughput";

    /**
     * As guidellm's sweep: {@link #SYNCHRONOUS}, then {@link #THROUGHPUT}, then {@link Workload#sweepRates()}
     * constant rates evenly spaced between the two measured request rates; each step is its own result block.
     */
    public static final String SWEEP = "sweep";

    /**
     * Requests at the times a production trace recorded (open loop): the dataset must be a
     * {@code trace:PATH[,timeScale=X]}, whose {@code timestamp}s give the arrivals; its lines are sent in file order.
     */
    public static final String TRACE = "trace";

    private Profile() {
    }
}
