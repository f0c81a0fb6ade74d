package io.servebench.study;

import io.servebench.annotations.Workload;
import io.servebench.results.BlockResult;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The {@code @Workload} settings beyond the six basic ones (dataset, profile, rate, concurrency, requests,
 * warmup): profile shape, stop conditions, warm-up time and client options. Each is kept as text in
 * {@link WorkloadOptions#options()} under its {@link #key()}, the attribute's name, which is also its
 * {@code -p} name; this enum says what values it takes.
 */
public enum LoadOption {
    WARMUP_SECONDS(Type.NON_NEGATIVE_NUMBER, "zero or a positive number of seconds"),
    BURSTINESS(Type.POSITIVE_NUMBER, "a positive gamma shape (1 = Poisson, below 1 burstier)"),
    RAMP_UP_SECONDS(Type.POSITIVE_NUMBER, "a positive number of seconds"),
    MAX_CONCURRENCY(Type.POSITIVE_INTEGER, "a positive number of requests in flight"),
    DURATION_SECONDS(Type.POSITIVE_NUMBER, "a positive number of seconds"),
    MAX_ERRORS(Type.POSITIVE_INTEGER, "a positive number of failed requests"),
    SWEEP_RATES(Type.POSITIVE_INTEGER, "a positive number of rates between synchronous and throughput"),
    API(Type.CHOICE, "chat or completions", "chat", "completions"),
    EXTRA_BODY(Type.JSON_OBJECT, "a JSON object such as {\"temperature\": 0}"),
    CONTINUOUS_USAGE(Type.BOOLEAN, "true or false"),
    SATURATION_WINDOW_SECONDS(Type.POSITIVE_NUMBER, "a positive number of seconds"),
    CANCELLATION_RATE(Type.PERCENT, "a percentage above 0 and at most 100"),
    CANCELLATION_DELAY_SECONDS(Type.NON_NEGATIVE_NUMBER, "zero or a positive number of seconds"),
    CANCELLATION_AFTER(Type.CHOICE, "send or first-token", "send", "first-token"),
    TIMEOUT_SECONDS(Type.POSITIVE_NUMBER, "a positive number of seconds"),
    MODELS(Type.MODEL_MIX, "names with optional weights, e.g. \"sql-lora:3,chat-lora:1\""),
    MODEL_DISTRIBUTION(Type.MODEL_DISTRIBUTION, "weights, uniform or zipf (zipf:S for an exponent other than 1)"),
    ENDPOINT_WEIGHTS(Type.WEIGHTS, "whole numbers >= 1, one per URL of the engine, e.g. \"3,1\"");

    private enum Type { POSITIVE_NUMBER, NON_NEGATIVE_NUMBER, PERCENT, POSITIVE_INTEGER, CHOICE, JSON_OBJECT, BOOLEAN,
        MODEL_MIX, MODEL_DISTRIBUTION, WEIGHTS }

    private final Type type;
    private final String expected;
    /** The values a {@link Type#CHOICE} takes. */
    private final List<String> choices;

    LoadOption(Type type, String expected, String... choices) {
        this.type = type;
        this.expected = expected;
        this.choices = List.of(choices);
    }

    /**
     * The {@code @Workload} attribute's name, also the {@code -p} name and the key in a block's params: its place in
     * {@link BlockResult#LOAD_OPTION_PARAMS}, the one list of the load options' names, whose order the constants follow.
     */
    public String key() {
        return BlockResult.LOAD_OPTION_PARAMS.get(ordinal());
    }

    /** The option of that key, if any. */
    public static Optional<LoadOption> byKey(String key) {
        return Arrays.stream(values()).filter(o -> o.key().equals(key)).findFirst();
    }

    /** Every key, in declaration order. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(LoadOption::key).toList();
    }

    /**
     * What is wrong with {@code value} for this option, naming what was expected, or {@code null} when it
     * is fine.
     */
    public String problem(String value) {
        String v = value.strip();
        String key = key();
        String outOfRange = key + " = " + v + " is out of range; expected " + expected
                + (v.equals("-1") || v.equals("-1.0")
                ? " (-1 means \"not set\" only when left out: remove the attribute to inherit it)" : "");
        return switch (type) {
            case POSITIVE_NUMBER, NON_NEGATIVE_NUMBER, PERCENT -> {
                double d;
                try {
                    d = Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    yield key + " = \"" + v + "\" is not a number; expected " + expected;
                }
                boolean ok = Double.isFinite(d) && (type == Type.POSITIVE_NUMBER ? d > 0
                        : type == Type.PERCENT ? d > 0 && d <= 100 : d >= 0);
                yield ok ? null : outOfRange;
            }
            case POSITIVE_INTEGER -> {
                try {
                    yield Integer.parseInt(v) > 0 ? null : outOfRange;
                } catch (NumberFormatException e) {
                    yield key + " = \"" + v + "\" is not a whole number; expected " + expected;
                }
            }
            case CHOICE -> choices.contains(v) ? null : key + " = \"" + v + "\" is unknown; expected " + expected;
            case BOOLEAN -> v.equals("true") || v.equals("false") ? null
                    : key + " = \"" + v + "\" is neither true nor false; expected " + expected;
            case MODEL_MIX, MODEL_DISTRIBUTION -> {
                try {
                    io.servebench.workload.ModelMix.parse(type == Type.MODEL_MIX ? v : "m", type == Type.MODEL_MIX ? null : v);
                    yield null;
                } catch (IllegalArgumentException e) {
                    yield e.getMessage();
                }
            }
            case WEIGHTS -> v.matches("[1-9][0-9]{0,5}(\\s*,\\s*[1-9][0-9]{0,5})*") ? null
                    : key + " = \"" + v + "\" is not a list of weights; expected " + expected;
            case JSON_OBJECT -> {
                String problem = io.servebench.workload.BodyFields.problem(v);
                yield problem == null ? null : key + " " + problem;
            }
        };
    }

    /**
     * The options a {@code @Workload} annotation sets, as the runtime sees it: {@code -1} and {@code ""} mean
     * "not set here" and are left out.
     */
    static java.util.Map<String, String> of(Workload w) {
        java.util.Map<String, String> options = new java.util.LinkedHashMap<>();
        number(options, WARMUP_SECONDS, w.warmupSeconds());
        number(options, BURSTINESS, w.burstiness());
        number(options, RAMP_UP_SECONDS, w.rampUpSeconds());
        number(options, MAX_CONCURRENCY, w.maxConcurrency());
        number(options, DURATION_SECONDS, w.durationSeconds());
        number(options, MAX_ERRORS, w.maxErrors());
        number(options, SWEEP_RATES, w.sweepRates());
        text(options, API, w.api());
        text(options, EXTRA_BODY, w.extraBody());
        text(options, CONTINUOUS_USAGE, w.continuousUsage());
        number(options, SATURATION_WINDOW_SECONDS, w.saturationWindowSeconds());
        number(options, CANCELLATION_RATE, w.cancellationRate());
        number(options, CANCELLATION_DELAY_SECONDS, w.cancellationDelaySeconds());
        text(options, CANCELLATION_AFTER, w.cancellationAfter());
        number(options, TIMEOUT_SECONDS, w.timeoutSeconds());
        text(options, MODELS, w.models());
        text(options, MODEL_DISTRIBUTION, w.modelDistribution());
        text(options, ENDPOINT_WEIGHTS, w.endpointWeights());
        return options;
    }

    /** An annotation's number as option text: {@code 60} rather than {@code 60.0}. */
    public static String format(double value) {
        return value == Math.rint(value) && Double.isFinite(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value) : Double.toString(value);
    }

    private static void number(java.util.Map<String, String> options, LoadOption option, double value) {
        if (value != Workload.UNSET) {
            options.put(option.key(), format(value));
        }
    }

    private static void text(java.util.Map<String, String> options, LoadOption option, String value) {
        if (!value.isEmpty()) {
            options.put(option.key(), value);
        }
    }
}
