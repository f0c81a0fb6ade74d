package io.servebench.workload;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The six settings every workload has (what {@code @Workload}'s first six attributes set), each named once, here: its
 * key (the attribute's name, its {@code -p} name and its param in the results), whether it is a number and what
 * numbers it takes. The study checker, the planner's {@code -p} check, the result model's list of a block's load params
 * ({@code BlockResult.WORKLOAD_PARAMS}) and the reports read a block's load from these keys; the settings beyond them
 * are the {@link LoadOption}s.
 */
public enum WorkloadSetting {
    /** The prompts: a dataset spec ({@link Datasets#problem(String)} checks it). */
    DATASET,
    /** The arrival profile's name. */
    PROFILE,
    /** Requests per second of a rate profile. */
    RATE,
    /** Streams of a closed loop. */
    CONCURRENCY,
    /** Measured requests. */
    REQUESTS,
    /** Requests sent before the measured ones. */
    WARMUP;

    /** The constant's name in lower case, as {@code @Workload} names its attribute. */
    private final String key = name().toLowerCase(Locale.ROOT);

    /** The {@code @Workload} attribute's name, also the {@code -p} name and the key in a block's params. */
    public String key() {
        return key;
    }

    /** What the setting does, in words: the help's. */
    public String meaning() {
        return switch (this) {
            case DATASET -> "the prompts, as a dataset spec";
            case PROFILE -> "how requests are sent: the arrival profile";
            case RATE -> "requests per second of a rate profile";
            case CONCURRENCY -> "streams of the concurrent (closed-loop) profile";
            case REQUESTS -> "measured requests of each block";
            case WARMUP -> "requests sent before the measured ones, left out of the figures";
        };
    }

    /** Whether the setting is a number, which a workload {@code @Param} field may set for every variant. */
    public boolean numeric() {
        return this != DATASET && this != PROFILE;
    }

    /** Whether the setting is a whole number (a count), not any number. */
    public boolean wholeNumber() {
        return numeric() && this != RATE;
    }

    /**
     * What a numeric setting's value must be, for messages: "a positive, finite number of requests per second".
     *
     * @throws IllegalStateException for a text setting, whose own check words what it expects
     */
    public String expected() {
        return switch (this) {
            case RATE -> "a positive, finite number of requests per second (for every request at once, profile throughput)";
            case CONCURRENCY -> "a positive number of in-flight requests";
            case REQUESTS -> "a positive number of measured requests";
            case WARMUP -> "zero or a positive number of warm-up requests";
            case DATASET, PROFILE -> throw new IllegalStateException(key + " is checked as text, not as a number");
        };
    }

    /**
     * Whether a numeric setting may take this value.
     *
     * @throws IllegalStateException for a text setting
     */
    public boolean inRange(double value) {
        return switch (this) {
            case RATE -> value > 0 && Double.isFinite(value);
            case WARMUP -> value >= 0;
            case CONCURRENCY, REQUESTS -> value > 0;
            case DATASET, PROFILE -> throw new IllegalStateException(key + " is checked as text, not as a number");
        };
    }

    /**
     * The keys of the workload's settings beside its point on the load axis (the profile and its rate or streams): the
     * other settings and every load option, in their order. Two blocks at one point that differ in any of these are told
     * apart by them.
     */
    public static List<String> besideTheLoad() {
        return java.util.stream.Stream.concat(Arrays.stream(values()).filter(s -> s != PROFILE && s != RATE && s != CONCURRENCY)
                .map(WorkloadSetting::key), LoadOption.keys().stream()).toList();
    }

    /** The setting of that key, if any. */
    public static Optional<WorkloadSetting> byKey(String key) {
        return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
    }

    /** Every key, in declaration order: the order a block's params are written in. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(WorkloadSetting::key).toList();
    }

    /** The numeric settings' keys: those a workload {@code @Param} field may set. */
    public static List<String> numericKeys() {
        return Arrays.stream(values()).filter(WorkloadSetting::numeric).map(WorkloadSetting::key).toList();
    }
}
