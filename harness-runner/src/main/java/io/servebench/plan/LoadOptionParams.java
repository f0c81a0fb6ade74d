package io.servebench.plan;

import io.servebench.workload.LoadOption;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The resolved {@link LoadOption}s of a workload point: the options set to something other than their default, each
 * as the one text {@link LoadOption#normalize} gives it, and typed views of every option, defaults included.
 *
 * @param set the options that differ from their defaults, by option; what tells two workload points apart
 */
public record LoadOptionParams(Map<LoadOption, String> set) {

    /** Every option at its default. */
    public static final LoadOptionParams DEFAULTS = new LoadOptionParams(Map.of());

    public LoadOptionParams {
        Map<LoadOption, String> kept = new EnumMap<>(LoadOption.class);
        set.forEach((option, text) -> {
            if (text != null && !text.equals(option.defaultText())) {
                kept.put(option, text);
            }
        });
        set = Collections.unmodifiableMap(kept);
    }

    /**
     * The options given as text by {@link LoadOption#key()}, the rest at their defaults.
     *
     * @throws IllegalArgumentException when a key is no option or a value is out of range, naming it
     */
    public static LoadOptionParams of(Map<String, String> options) {
        Map<LoadOption, String> set = new EnumMap<>(LoadOption.class);
        for (Map.Entry<String, String> e : options.entrySet()) {
            LoadOption option = LoadOption.byKey(e.getKey()).orElseThrow(() -> new IllegalArgumentException(
                    "\"" + e.getKey() + "\" is not a workload option; expected one of " + LoadOption.keys()));
            String problem = option.problem(e.getValue());
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            set.put(option, option.normalize(e.getValue()));
        }
        return new LoadOptionParams(set);
    }

    /** The option's text, or its default's; {@code null} for an unset option whose default is none. */
    public String text(LoadOption option) {
        return set.getOrDefault(option, option.defaultText());
    }

    /**
     * The options that differ from their defaults, by {@link LoadOption#key()}, as text, in the options' order: what
     * plans and result blocks show.
     */
    public Map<String, String> nonDefault() {
        Map<String, String> out = new LinkedHashMap<>();
        set.forEach((option, text) -> out.put(option.key(), text));
        return out;
    }

    /** {@link LoadOption#WARMUP_SECONDS}. */
    public double warmupSeconds() {
        return number(LoadOption.WARMUP_SECONDS);
    }

    /** {@link LoadOption#BURSTINESS}. */
    public double burstiness() {
        return number(LoadOption.BURSTINESS);
    }

    /** {@link LoadOption#RAMP_UP_SECONDS}. */
    public double rampUpSeconds() {
        return number(LoadOption.RAMP_UP_SECONDS);
    }

    /** {@link LoadOption#MAX_CONCURRENCY}. */
    public int maxConcurrency() {
        return whole(LoadOption.MAX_CONCURRENCY);
    }

    /** {@link LoadOption#DURATION_SECONDS}. */
    public double durationSeconds() {
        return number(LoadOption.DURATION_SECONDS);
    }

    /** {@link LoadOption#MAX_ERRORS}. */
    public int maxErrors() {
        return whole(LoadOption.MAX_ERRORS);
    }

    /** {@link LoadOption#SWEEP_RATES}. */
    public int sweepRates() {
        return whole(LoadOption.SWEEP_RATES);
    }

    /** {@link LoadOption#API}. */
    public String api() {
        return text(LoadOption.API);
    }

    /** {@link LoadOption#EXTRA_BODY}. */
    public String extraBody() {
        return text(LoadOption.EXTRA_BODY);
    }

    /** {@link LoadOption#CONTINUOUS_USAGE}. */
    public Boolean continuousUsage() {
        String text = text(LoadOption.CONTINUOUS_USAGE);
        return text == null ? null : Boolean.valueOf(text);
    }

    /** {@link LoadOption#EXACT_OUTPUT}: true unless the workload says false. */
    public boolean exactOutput() {
        String text = text(LoadOption.EXACT_OUTPUT);
        return text == null || Boolean.parseBoolean(text);
    }

    /** {@link LoadOption#SATURATION_WINDOW_SECONDS}. */
    public double saturationWindowSeconds() {
        return number(LoadOption.SATURATION_WINDOW_SECONDS);
    }

    /** {@link LoadOption#CANCELLATION_RATE}. */
    public double cancellationRate() {
        return number(LoadOption.CANCELLATION_RATE);
    }

    /** {@link LoadOption#CANCELLATION_DELAY_SECONDS}. */
    public double cancellationDelaySeconds() {
        return number(LoadOption.CANCELLATION_DELAY_SECONDS);
    }

    /** {@link LoadOption#CANCELLATION_AFTER}. */
    public String cancellationAfter() {
        return text(LoadOption.CANCELLATION_AFTER);
    }

    /** {@link LoadOption#TIMEOUT_SECONDS}. */
    public double timeoutSeconds() {
        return number(LoadOption.TIMEOUT_SECONDS);
    }

    /** {@link LoadOption#MODELS}. */
    public String models() {
        return text(LoadOption.MODELS);
    }

    /** {@link LoadOption#MODEL_DISTRIBUTION}. */
    public String modelDistribution() {
        return text(LoadOption.MODEL_DISTRIBUTION);
    }

    /** {@link LoadOption#ENDPOINT_WEIGHTS}. */
    public String endpointWeights() {
        return text(LoadOption.ENDPOINT_WEIGHTS);
    }

    private double number(LoadOption option) {
        return Double.parseDouble(text(option));
    }

    private int whole(LoadOption option) {
        return Integer.parseInt(text(option));
    }
}
