package io.servebench.plan;

import io.servebench.study.LoadOption;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The resolved {@link LoadOption}s of a workload point, typed, with their defaults.
 *
 * @param warmupSeconds   requests due in the first this many seconds are extra warm-up requests; 0 for none
 * @param burstiness      gamma shape of the {@code gamma} profile (1 = Poisson)
 * @param rampUpSeconds   linear ramp-up of a rate profile, in seconds; 0 for none
 * @param maxConcurrency  cap on requests in flight for open-loop profiles; 0 for none
 * @param durationSeconds stop sending after this many seconds; 0 for no limit
 * @param maxErrors       stop sending after this many failed requests; 0 for no limit
 * @param sweepRates      constant rates between synchronous and throughput in a sweep; 0 when not a sweep
 * @param api             {@code chat} or {@code completions}
 * @param extraBody       JSON object of extra request body fields, {@code null} for none
 * @param continuousUsage ask for continuous usage stats; {@code null} to let the engine kind decide
 */
public record LoadOptionParams(double warmupSeconds, double burstiness, double rampUpSeconds, int maxConcurrency,
                          double durationSeconds, int maxErrors, int sweepRates, String api, String extraBody,
                          Boolean continuousUsage) {

    /** Every option at its default. */
    public static final LoadOptionParams DEFAULTS = new LoadOptionParams(0, 1, 0, 0, 0, 0, 0, "chat", null, null);

    /**
     * The options given as text by {@link LoadOption#key()}, the rest at their defaults.
     *
     * @throws IllegalArgumentException when a key is no option or a value is out of range, naming it
     */
    public static LoadOptionParams of(Map<String, String> options) {
        LoadOptionParams o = DEFAULTS;
        for (Map.Entry<String, String> e : options.entrySet()) {
            LoadOption option = LoadOption.byKey(e.getKey()).orElseThrow(() -> new IllegalArgumentException(
                    "\"" + e.getKey() + "\" is not a workload option; expected one of " + LoadOption.keys()));
            String problem = option.problem(e.getValue());
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            String v = e.getValue().strip();
            o = switch (option) {
                case WARMUP_SECONDS -> new LoadOptionParams(Double.parseDouble(v), o.burstiness, o.rampUpSeconds,
                        o.maxConcurrency, o.durationSeconds, o.maxErrors, o.sweepRates, o.api, o.extraBody, o.continuousUsage);
                case BURSTINESS -> new LoadOptionParams(o.warmupSeconds, Double.parseDouble(v), o.rampUpSeconds,
                        o.maxConcurrency, o.durationSeconds, o.maxErrors, o.sweepRates, o.api, o.extraBody, o.continuousUsage);
                case RAMP_UP_SECONDS -> new LoadOptionParams(o.warmupSeconds, o.burstiness, Double.parseDouble(v),
                        o.maxConcurrency, o.durationSeconds, o.maxErrors, o.sweepRates, o.api, o.extraBody, o.continuousUsage);
                case MAX_CONCURRENCY -> new LoadOptionParams(o.warmupSeconds, o.burstiness, o.rampUpSeconds,
                        Integer.parseInt(v), o.durationSeconds, o.maxErrors, o.sweepRates, o.api, o.extraBody, o.continuousUsage);
                case DURATION_SECONDS -> new LoadOptionParams(o.warmupSeconds, o.burstiness, o.rampUpSeconds,
                        o.maxConcurrency, Double.parseDouble(v), o.maxErrors, o.sweepRates, o.api, o.extraBody, o.continuousUsage);
                case MAX_ERRORS -> new LoadOptionParams(o.warmupSeconds, o.burstiness, o.rampUpSeconds,
                        o.maxConcurrency, o.durationSeconds, Integer.parseInt(v), o.sweepRates, o.api, o.extraBody, o.continuousUsage);
                case SWEEP_RATES -> new LoadOptionParams(o.warmupSeconds, o.burstiness, o.rampUpSeconds,
                        o.maxConcurrency, o.durationSeconds, o.maxErrors, Integer.parseInt(v), o.api, o.extraBody, o.continuousUsage);
                case API -> new LoadOptionParams(o.warmupSeconds, o.burstiness, o.rampUpSeconds,
                        o.maxConcurrency, o.durationSeconds, o.maxErrors, o.sweepRates, v, o.extraBody, o.continuousUsage);
                case EXTRA_BODY -> new LoadOptionParams(o.warmupSeconds, o.burstiness, o.rampUpSeconds,
                        o.maxConcurrency, o.durationSeconds, o.maxErrors, o.sweepRates, o.api, v, o.continuousUsage);
                case CONTINUOUS_USAGE -> new LoadOptionParams(o.warmupSeconds, o.burstiness, o.rampUpSeconds,
                        o.maxConcurrency, o.durationSeconds, o.maxErrors, o.sweepRates, o.api, o.extraBody,
                        Boolean.parseBoolean(v));
            };
        }
        return o;
    }

    /**
     * The options that differ from their defaults, by {@link LoadOption#key()}, as text: what plans and
     * result blocks show, and what tells two workload points apart.
     */
    public Map<String, String> nonDefault() {
        Map<String, String> out = new LinkedHashMap<>();
        if (warmupSeconds != DEFAULTS.warmupSeconds) {
            out.put(LoadOption.WARMUP_SECONDS.key(), LoadOption.format(warmupSeconds));
        }
        if (burstiness != DEFAULTS.burstiness) {
            out.put(LoadOption.BURSTINESS.key(), LoadOption.format(burstiness));
        }
        if (rampUpSeconds != DEFAULTS.rampUpSeconds) {
            out.put(LoadOption.RAMP_UP_SECONDS.key(), LoadOption.format(rampUpSeconds));
        }
        if (maxConcurrency != DEFAULTS.maxConcurrency) {
            out.put(LoadOption.MAX_CONCURRENCY.key(), Integer.toString(maxConcurrency));
        }
        if (durationSeconds != DEFAULTS.durationSeconds) {
            out.put(LoadOption.DURATION_SECONDS.key(), LoadOption.format(durationSeconds));
        }
        if (maxErrors != DEFAULTS.maxErrors) {
            out.put(LoadOption.MAX_ERRORS.key(), Integer.toString(maxErrors));
        }
        if (sweepRates != DEFAULTS.sweepRates) {
            out.put(LoadOption.SWEEP_RATES.key(), Integer.toString(sweepRates));
        }
        if (!api.equals(DEFAULTS.api)) {
            out.put(LoadOption.API.key(), api);
        }
        if (extraBody != null) {
            out.put(LoadOption.EXTRA_BODY.key(), extraBody);
        }
        if (continuousUsage != null) {
            out.put(LoadOption.CONTINUOUS_USAGE.key(), continuousUsage.toString());
        }
        return out;
    }
}
