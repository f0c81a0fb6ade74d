package io.servebench.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The {@code name=value} options of a dataset spec, split at the commas outside parentheses, so that
 * {@code in=uniform(64,512),out=fixed(128)} is two options.
 *
 * @param spec   the whole spec, for messages
 * @param values the options by name, in the order given
 */
record SpecOptions(String spec, Map<String, String> values) {

    /** {@code text} split at the commas that are not inside parentheses. */
    static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i).strip());
                start = i + 1;
            }
        }
        parts.add(text.substring(start).strip());
        return parts;
    }

    /**
     * @throws IllegalArgumentException for an option that is not {@code name=value}, not one of {@code known}, or given
     *                                  twice
     */
    static SpecOptions of(String spec, List<String> parts, List<String> known) {
        String problem = problem(parts, known);
        if (problem != null) {
            throw new IllegalArgumentException("dataset " + spec + ": " + problem);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String part : parts) {
            values.put(part.substring(0, part.indexOf('=')).strip(), part.substring(part.indexOf('=') + 1).strip());
        }
        return new SpecOptions(spec, values);
    }

    /** What is wrong with the options, {@code null} when nothing is. */
    static String problem(List<String> parts, List<String> known) {
        List<String> seen = new ArrayList<>();
        for (String part : parts) {
            int eq = part.indexOf('=');
            String name = eq < 0 ? part : part.substring(0, eq).strip();
            if (eq <= 0 || !known.contains(name)) {
                return "option \"" + part + "\": expected NAME=VALUE with NAME one of " + known;
            }
            if (seen.contains(name)) {
                return "option " + name + " given twice";
            }
            seen.add(name);
        }
        return null;
    }

    /**
     * @param value   what the message says the missing option's value is ({@code DIST}), or {@code ""}
     * @param example how a spec gives them, for the message
     * @throws IllegalArgumentException naming the first of {@code names} not given
     */
    void require(List<String> names, String value, String example) {
        for (String name : names) {
            if (!values.containsKey(name)) {
                throw new IllegalArgumentException("dataset " + spec + ": no " + name + "=" + value + "; " + example);
            }
        }
    }

    /** The option as a whole number, {@code fallback} when not given. */
    long wholeNumber(String name, long fallback) {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("dataset " + spec + ": " + name + "=" + value + " is not a whole number", e);
        }
    }

    /** The option as a whole number above 0, empty when not given. */
    OptionalInt positiveInt(String name) {
        String value = values.get(name);
        if (value == null) {
            return OptionalInt.empty();
        }
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return OptionalInt.of(n);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("dataset " + spec + ": " + name + "=" + value + " is not a whole number above 0");
    }

    /** The option as a finite number above 0, {@code fallback} when not given. */
    double positiveNumber(String name, double fallback) {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            double x = Double.parseDouble(value);
            if (x > 0 && Double.isFinite(x)) {
                return x;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("dataset " + spec + ": " + name + "=" + value + " is not a number above 0");
    }
}
