package io.servebench.study;

import io.servebench.annotations.Profile;
import io.servebench.annotations.Workload;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The load settings written at one level of a study (class {@code @Workload}, method
 * {@code @Workload}, a workload {@code @Param} value, the command line). Every component is
 * nullable: {@code null} means "not set at this level", so levels combine with
 * {@link #overriddenBy(WorkloadOptions)}.
 *
 * <p>{@link StudyReader} maps an empty text to {@code null} and keeps every number written, so that an explicit
 * {@code rate = -1} is reported as out of range at compile time; a loaded class's {@code -1} is its default, left out.
 *
 * @param dataset     prompt source, e.g. {@code "sharegpt:PATH"}, {@code "synthetic-sharegpt"}, any {@link io.servebench.workload.DatasetKind}
 * @param profile     arrival profile, one of {@link Profile}'s names
 * @param rate        requests per second for rate profiles
 * @param concurrency in-flight requests for {@link Profile#CONCURRENT}
 * @param requests    measured requests per trial
 * @param warmup      requests sent before the measured ones, not measured
 * @param options     the {@link LoadOption}s set at this level, by {@link LoadOption#key()}, as text
 */
public record WorkloadOptions(String dataset, String profile, Double rate, Integer concurrency, Integer requests, Integer warmup,
                           Map<String, String> options) {

    /** Nothing set. */
    public static final WorkloadOptions UNSET = new WorkloadOptions(null, null, null, null, null, null);

    public WorkloadOptions {
        options = options == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(options));
    }

    /** The six basic settings, no {@link LoadOption}s. */
    public WorkloadOptions(String dataset, String profile, Double rate, Integer concurrency, Integer requests, Integer warmup) {
        this(dataset, profile, rate, concurrency, requests, warmup, Map.of());
    }

    /** The defaults documented on {@link Workload}: the bottom level every trial resolves against. */
    public static final WorkloadOptions DEFAULTS = new WorkloadOptions(
            io.servebench.workload.DatasetKind.SYNTHETIC_SHAREGPT.id(), Profile.CONSTANT, 1.0, 1, 100, 0);

    /** This spec with every setting that {@code other} sets replaced by {@code other}'s value. */
    public WorkloadOptions overriddenBy(WorkloadOptions other) {
        return new WorkloadOptions(
                other.dataset != null ? other.dataset : dataset,
                other.profile != null ? other.profile : profile,
                other.rate != null ? other.rate : rate,
                other.concurrency != null ? other.concurrency : concurrency,
                other.requests != null ? other.requests : requests,
                other.warmup != null ? other.warmup : warmup,
                merged(options, other.options));
    }

    private static Map<String, String> merged(Map<String, String> under, Map<String, String> over) {
        Map<String, String> merged = new LinkedHashMap<>(under);
        merged.putAll(over);
        return merged;
    }

    /**
     * This spec with the workload setting {@code name} (a {@link WorkloadSetting#key()} or a {@link LoadOption#key()})
     * set from its text, as a workload {@code @Param} or {@code -p name=value} gives it.
     *
     * @throws IllegalArgumentException when {@code name} is no workload setting or {@code value}
     *                                  is not a number of the setting's type
     */
    public WorkloadOptions with(String name, String value) {
        if (LoadOption.byKey(name).isPresent()) {
            return overriddenBy(new WorkloadOptions(null, null, null, null, null, null, Map.of(name, value)));
        }
        WorkloadSetting setting = WorkloadSetting.byKey(name).orElseThrow(() -> new IllegalArgumentException(
                "\"" + name + "\" is not a workload setting; expected one of " + WorkloadSetting.keys() + " or "
                        + LoadOption.keys()));
        try {
            return switch (setting) {
                case DATASET -> new WorkloadOptions(value, profile, rate, concurrency, requests, warmup, options);
                case PROFILE -> new WorkloadOptions(dataset, value, rate, concurrency, requests, warmup, options);
                case RATE -> new WorkloadOptions(dataset, profile, Double.parseDouble(value), concurrency, requests, warmup, options);
                case CONCURRENCY -> new WorkloadOptions(dataset, profile, rate, Integer.parseInt(value), requests, warmup, options);
                case REQUESTS -> new WorkloadOptions(dataset, profile, rate, concurrency, Integer.parseInt(value), warmup, options);
                case WARMUP -> new WorkloadOptions(dataset, profile, rate, concurrency, requests, Integer.parseInt(value), options);
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("workload setting " + name + " = \"" + value + "\" is not a "
                    + (setting.wholeNumber() ? "whole number" : "number"), e);
        }
    }
}
