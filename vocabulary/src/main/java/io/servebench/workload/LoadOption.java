package io.servebench.workload;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code @Workload} settings beyond the six basic ones (dataset, profile, rate, concurrency, requests,
 * warmup): profile shape, stop conditions, warm-up time and client options, each named once, here: its key (the
 * attribute's name, also its {@code -p} name and its param in the results), the values it takes, its default and the
 * words for them, from which the annotation is read, {@code -p} is checked, the help lists them, {@code
 * plan.LoadOptionParams} types them and the results name a block's load settings ({@code BlockResult.LOAD_OPTION_PARAMS}
 * is this list's keys): the vocabulary's, below the study model and the result model alike, so that neither spells the
 * keys again. A study keeps each as text in {@code study.WorkloadOptions#options()} under its key.
 */
public enum LoadOption {
    WARMUP_SECONDS("warmupSeconds", "requests due in the first this many seconds are extra warm-up requests",
            Type.NON_NEGATIVE_NUMBER, "0", "zero or a positive number of seconds"),
    BURSTINESS("burstiness", "the gamma profile's shape",
            Type.POSITIVE_NUMBER, "1", "a positive gamma shape (1 = Poisson, below 1 burstier)"),
    RAMP_UP_SECONDS("rampUpSeconds", "a rate profile's linear ramp-up",
            Type.POSITIVE_NUMBER, "0", "a positive number of seconds"),
    MAX_CONCURRENCY("maxConcurrency", "the most requests in flight of an open-loop profile",
            Type.POSITIVE_INTEGER, "0", "a positive number of requests in flight"),
    DURATION_SECONDS("durationSeconds", "stop sending after this long",
            Type.POSITIVE_NUMBER, "0", "a positive number of seconds"),
    MAX_ERRORS("maxErrors", "stop sending after this many failed requests",
            Type.POSITIVE_INTEGER, "0", "a positive number of failed requests"),
    SWEEP_RATES("sweepRates", "a sweep's constant rates between synchronous and throughput",
            Type.POSITIVE_INTEGER, "0", "a positive number of rates between synchronous and throughput"),
    API("api", "the OpenAI API the requests use",
            Type.CHOICE, "chat", "chat or completions", "chat", "completions"),
    EXTRA_BODY("extraBody", "fields added to every request body",
            Type.JSON_OBJECT, null, "a JSON object such as {\"temperature\": 0}"),
    CONTINUOUS_USAGE("continuousUsage", "ask for token usage with every event (unset: as the engine kind supports)",
            Type.BOOLEAN, null, "true or false"),
    EXACT_OUTPUT("exactOutput", "ask for exactly each reply's length (min_tokens and ignore_eos beside max_tokens);"
            + " false for a server that refuses those fields, whose replies may then end sooner",
            Type.BOOLEAN, "true", "true or false"),
    SATURATION_WINDOW_SECONDS("saturationWindowSeconds", "stop sending once the server stays over-saturated this long",
            Type.POSITIVE_NUMBER, "0", "a positive number of seconds"),
    CANCELLATION_RATE("cancellationRate", "the share of measured requests the client calls off",
            Type.PERCENT, "0", "a percentage above 0 and at most 100"),
    CANCELLATION_DELAY_SECONDS("cancellationDelaySeconds", "how long after its send or first token a request is called off",
            Type.NON_NEGATIVE_NUMBER, "0", "zero or a positive number of seconds"),
    CANCELLATION_AFTER("cancellationAfter", "what the cancellation delay runs from",
            Type.CHOICE, "send", "send or first-token", "send", "first-token"),
    TIMEOUT_SECONDS("timeoutSeconds", "the longest a request may last from its send",
            Type.POSITIVE_NUMBER, "0", "a positive number of seconds"),
    MODELS("models", "the models or LoRA adapters the requests draw from (unset: the served model)",
            Type.MODEL_MIX, null, "names with optional weights, e.g. \"sql-lora:3,chat-lora:1\""),
    MODEL_DISTRIBUTION("modelDistribution", "how the requests draw from the models",
            Type.MODEL_DISTRIBUTION, "weights",
            "weights, uniform or zipf (zipf:S for an exponent other than 1)"),
    ENDPOINT_WEIGHTS("endpointWeights", "the shares of an engine's replicas (unset: round robin)",
            Type.WEIGHTS, null, "whole numbers >= 1, one per URL of the engine, e.g. \"3,1\"");

    private enum Type { POSITIVE_NUMBER, NON_NEGATIVE_NUMBER, PERCENT, POSITIVE_INTEGER, CHOICE, JSON_OBJECT, BOOLEAN,
        MODEL_MIX, MODEL_DISTRIBUTION, WEIGHTS }

    private final String key;
    /** What the option does, in words: the help's. */
    private final String meaning;
    private final Type type;
    /** The value when none is set, as text; {@code null} where none is the default (no cap, no body fields, ...). */
    private final String defaultText;
    private final String expected;
    /** The values a {@link Type#CHOICE} takes. */
    private final List<String> choices;

    LoadOption(String key, String meaning, Type type, String defaultText, String expected, String... choices) {
        this.key = key;
        this.meaning = meaning;
        this.type = type;
        this.defaultText = defaultText;
        this.expected = expected;
        this.choices = List.of(choices);
    }

    /** The {@code @Workload} attribute's name, also the {@code -p} name and the key in a block's params. */
    public String key() {
        return key;
    }

    /** What the option does, in words, for the help. */
    public String meaning() {
        return meaning;
    }

    /** What values the option takes, in words: the help's and every error's. */
    public String expected() {
        return expected;
    }

    /** What stands for the value in a usage line: {@code N}, {@code SECONDS}, {@code chat|completions}, ... */
    public String valueLabel() {
        return switch (type) {
            case POSITIVE_NUMBER, NON_NEGATIVE_NUMBER -> key.endsWith("Seconds") ? "SECONDS" : "NUMBER";
            case PERCENT -> "PERCENT";
            case POSITIVE_INTEGER -> "N";
            case CHOICE, BOOLEAN -> String.join("|", type == Type.BOOLEAN ? List.of("true", "false") : choices);
            case JSON_OBJECT -> "JSON";
            case MODEL_MIX -> "NAME[:W],...";
            case MODEL_DISTRIBUTION -> "DISTRIBUTION";
            case WEIGHTS -> "W,W,...";
        };
    }

    /** The value an option left unset has, as text; {@code null} where that is none at all. */
    public String defaultText() {
        return defaultText;
    }

    /**
     * Whether one value of this option may itself hold commas (a JSON object, a weighted list of models or of
     * replicas), so that a command line's {@code -p NAME=V1,V2} gives it one value rather than a list of them.
     */
    public boolean holdsCommas() {
        return type == Type.JSON_OBJECT || type == Type.MODEL_MIX || type == Type.WEIGHTS;
    }

    /** The option of that key, if any. */
    public static Optional<LoadOption> byKey(String key) {
        return Arrays.stream(values()).filter(o -> o.key.equals(key)).findFirst();
    }

    /** Every key, in declaration order. */
    public static List<String> keys() {
        return Arrays.stream(values()).map(LoadOption::key).toList();
    }

    /**
     * {@code value}, checked by {@link #problem(String)}, as the one text it is kept as: numbers as
     * {@link #format(double)} writes them ({@code 60} for {@code 60.0}), anything else stripped.
     */
    public String normalize(String value) {
        String v = value.strip();
        return switch (type) {
            case POSITIVE_NUMBER, NON_NEGATIVE_NUMBER, PERCENT -> format(Double.parseDouble(v));
            case POSITIVE_INTEGER -> Integer.toString(Integer.parseInt(v));
            default -> v;
        };
    }

    /**
     * For a value of -1, what it means: an annotation's default for "not set", which a study or a command line cannot
     * give; nothing for another value.
     */
    public static String unsetNote(String value) {
        String v = value.strip();
        return v.equals("-1") || v.equals("-1.0")
                ? " (-1 stands for \"not set\" only where the setting is left out: leave it out to inherit it)" : "";
    }

    /**
     * What is wrong with {@code value} for this option, naming what was expected, or {@code null} when it
     * is fine.
     */
    public String problem(String value) {
        String v = value.strip();
        String key = key();
        String outOfRange = key + " = " + v + " is out of range; expected " + expected + unsetNote(v);
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
                    ModelMix.parse(type == Type.MODEL_MIX ? v : "m", type == Type.MODEL_MIX ? null : v);
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

    /** An annotation's number as option text: {@code 60} rather than {@code 60.0}. */
    public static String format(double value) {
        return value == Math.rint(value) && Double.isFinite(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value) : Double.toString(value);
    }
}
