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
 * @param saturationWindowSeconds stop sending once the server is over-saturated over this many seconds; 0 for no such stop
 * @param cancellationRate         percent of measured requests the client calls off; 0 for none
 * @param cancellationDelaySeconds how long after its send or first token a cancelled request is called off
 * @param cancellationAfter        {@code send} or {@code first-token}: what the delay runs from
 * @param timeoutSeconds           the longest a request may last from its send; 0 for no limit
 * @param models                   the models or LoRA adapters the requests draw from, {@code null} for the served model
 * @param modelDistribution        how they are drawn: {@code weights}, {@code uniform}, {@code zipf[:S]}
 * @param endpointWeights          the weights of an engine's replicas, {@code null} for round robin
 */
public record LoadOptionParams(double warmupSeconds, double burstiness, double rampUpSeconds, int maxConcurrency,
                          double durationSeconds, int maxErrors, int sweepRates, String api, String extraBody,
                          Boolean continuousUsage, double saturationWindowSeconds, double cancellationRate,
                          double cancellationDelaySeconds, String cancellationAfter, double timeoutSeconds, String models,
                          String modelDistribution, String endpointWeights) {

    /** Every option at its default. */
    public static final LoadOptionParams DEFAULTS = new LoadOptionParams(0, 1, 0, 0, 0, 0, 0, "chat", null, null, 0, 0, 0,
            "send", 0, null, "weights", null);

    /**
     * The options given as text by {@link LoadOption#key()}, the rest at their defaults.
     *
     * @throws IllegalArgumentException when a key is no option or a value is out of range, naming it
     */
    public static LoadOptionParams of(Map<String, String> options) {
        Builder b = new Builder();
        for (Map.Entry<String, String> e : options.entrySet()) {
            LoadOption option = LoadOption.byKey(e.getKey()).orElseThrow(() -> new IllegalArgumentException(
                    "\"" + e.getKey() + "\" is not a workload option; expected one of " + LoadOption.keys()));
            String problem = option.problem(e.getValue());
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            b.set(option, e.getValue().strip());
        }
        return b.build();
    }

    /** The options as they are read, one by one, from their defaults. */
    private static final class Builder {
        private double warmupSeconds = DEFAULTS.warmupSeconds;
        private double burstiness = DEFAULTS.burstiness;
        private double rampUpSeconds = DEFAULTS.rampUpSeconds;
        private int maxConcurrency = DEFAULTS.maxConcurrency;
        private double durationSeconds = DEFAULTS.durationSeconds;
        private int maxErrors = DEFAULTS.maxErrors;
        private int sweepRates = DEFAULTS.sweepRates;
        private String api = DEFAULTS.api;
        private String extraBody = DEFAULTS.extraBody;
        private Boolean continuousUsage = DEFAULTS.continuousUsage;
        private double saturationWindowSeconds = DEFAULTS.saturationWindowSeconds;
        private double cancellationRate = DEFAULTS.cancellationRate;
        private double cancellationDelaySeconds = DEFAULTS.cancellationDelaySeconds;
        private String cancellationAfter = DEFAULTS.cancellationAfter;
        private double timeoutSeconds = DEFAULTS.timeoutSeconds;
        private String models = DEFAULTS.models;
        private String modelDistribution = DEFAULTS.modelDistribution;
        private String endpointWeights = DEFAULTS.endpointWeights;

        /** Sets one option from its text, which {@link LoadOption#problem(String)} found valid. */
        void set(LoadOption option, String v) {
            switch (option) {
                case WARMUP_SECONDS -> warmupSeconds = Double.parseDouble(v);
                case BURSTINESS -> burstiness = Double.parseDouble(v);
                case RAMP_UP_SECONDS -> rampUpSeconds = Double.parseDouble(v);
                case MAX_CONCURRENCY -> maxConcurrency = Integer.parseInt(v);
                case DURATION_SECONDS -> durationSeconds = Double.parseDouble(v);
                case MAX_ERRORS -> maxErrors = Integer.parseInt(v);
                case SWEEP_RATES -> sweepRates = Integer.parseInt(v);
                case API -> api = v;
                case EXTRA_BODY -> extraBody = v;
                case CONTINUOUS_USAGE -> continuousUsage = Boolean.parseBoolean(v);
                case SATURATION_WINDOW_SECONDS -> saturationWindowSeconds = Double.parseDouble(v);
                case CANCELLATION_RATE -> cancellationRate = Double.parseDouble(v);
                case CANCELLATION_DELAY_SECONDS -> cancellationDelaySeconds = Double.parseDouble(v);
                case CANCELLATION_AFTER -> cancellationAfter = v;
                case TIMEOUT_SECONDS -> timeoutSeconds = Double.parseDouble(v);
                case MODELS -> models = v;
                case MODEL_DISTRIBUTION -> modelDistribution = v;
                case ENDPOINT_WEIGHTS -> endpointWeights = v;
            }
        }

        LoadOptionParams build() {
            return new LoadOptionParams(warmupSeconds, burstiness, rampUpSeconds, maxConcurrency, durationSeconds, maxErrors,
                    sweepRates, api, extraBody, continuousUsage, saturationWindowSeconds, cancellationRate,
                    cancellationDelaySeconds, cancellationAfter, timeoutSeconds, models, modelDistribution, endpointWeights);
        }
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
        if (saturationWindowSeconds != DEFAULTS.saturationWindowSeconds) {
            out.put(LoadOption.SATURATION_WINDOW_SECONDS.key(), LoadOption.format(saturationWindowSeconds));
        }
        if (cancellationRate != DEFAULTS.cancellationRate) {
            out.put(LoadOption.CANCELLATION_RATE.key(), LoadOption.format(cancellationRate));
        }
        if (cancellationDelaySeconds != DEFAULTS.cancellationDelaySeconds) {
            out.put(LoadOption.CANCELLATION_DELAY_SECONDS.key(), LoadOption.format(cancellationDelaySeconds));
        }
        if (!cancellationAfter.equals(DEFAULTS.cancellationAfter)) {
            out.put(LoadOption.CANCELLATION_AFTER.key(), cancellationAfter);
        }
        if (timeoutSeconds != DEFAULTS.timeoutSeconds) {
            out.put(LoadOption.TIMEOUT_SECONDS.key(), LoadOption.format(timeoutSeconds));
        }
        if (models != null) {
            out.put(LoadOption.MODELS.key(), models);
        }
        if (!modelDistribution.equals(DEFAULTS.modelDistribution)) {
            out.put(LoadOption.MODEL_DISTRIBUTION.key(), modelDistribution);
        }
        if (endpointWeights != null) {
            out.put(LoadOption.ENDPOINT_WEIGHTS.key(), endpointWeights);
        }
        return out;
    }
}
