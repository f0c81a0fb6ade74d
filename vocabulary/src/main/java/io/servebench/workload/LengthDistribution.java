package io.servebench.workload;

import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A distribution of lengths in tokens: {@code fixed(n)} (or just {@code n}, as {@code vllm bench serve
 * --random-input-len} and guidellm's {@code prompt_tokens} take a length), {@code uniform(a,b)} (whole numbers a to b,
 * both included), {@code normal(mu,sigma)} or {@code lognormal(median,sigma)} (sigma of the logarithm), each draw
 * rounded and at least 1.
 *
 * @param shape {@code fixed}, {@code uniform}, {@code normal} or {@code lognormal}
 * @param a     n, a, mu or the median
 * @param b     b or sigma; NaN for {@code fixed}
 */
record LengthDistribution(String shape, double a, double b) {

    private static final Pattern FORM = Pattern.compile("(fixed|uniform|normal|lognormal)\\(([^,()]+)(?:,([^,()]+))?\\)");
    private static final String EXPECTED = "expected n or fixed(n), uniform(a,b), normal(mu,sigma) or lognormal(median,sigma)";
    private static final Pattern WHOLE = Pattern.compile("\\d+");

    /**
     * @param option the option it was given for ({@code in}, {@code out}), for messages
     * @throws IllegalArgumentException naming the spec, the option and the forms
     */
    static LengthDistribution parse(String spec, String option, String text) {
        String written = text.strip().toLowerCase(Locale.ROOT);
        Matcher m = FORM.matcher(WHOLE.matcher(written).matches() ? "fixed(" + written + ")" : written);
        String where = "dataset " + spec + ": " + option + "=" + text;
        if (!m.matches()) {
            throw new IllegalArgumentException(where + ": " + EXPECTED);
        }
        String shape = m.group(1);
        boolean two = !shape.equals("fixed");
        if (two != (m.group(3) != null)) {
            throw new IllegalArgumentException(where + ": " + shape + " takes " + (two ? "two numbers" : "one number") + "; "
                    + EXPECTED);
        }
        double a;
        double b;
        try {
            a = Double.parseDouble(m.group(2).strip());
            b = two ? Double.parseDouble(m.group(3).strip()) : Double.NaN;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": not numbers; " + EXPECTED, e);
        }
        String problem = switch (shape) {
            case "fixed" -> a >= 1 && a == Math.rint(a) ? null : "n must be a whole number of at least 1";
            case "uniform" -> a >= 1 && b >= a && a == Math.rint(a) && b == Math.rint(b) ? null
                    : "a and b must be whole numbers with 1 <= a <= b";
            case "normal" -> a >= 1 && b >= 0 ? null : "mu must be at least 1 and sigma at least 0";
            default -> a >= 1 && b >= 0 ? null : "the median must be at least 1 and sigma at least 0";
        };
        if (problem != null) {
            throw new IllegalArgumentException(where + ": " + problem);
        }
        return new LengthDistribution(shape, a, b);
    }

    /** One length, at least 1. */
    int sample(Random random) {
        double x = switch (shape) {
            case "fixed" -> a;
            case "uniform" -> a + random.nextInt((int) (b - a) + 1);
            case "normal" -> a + b * random.nextGaussian();
            default -> a * Math.exp(b * random.nextGaussian());
        };
        return (int) Math.max(1, Math.round(x));
    }
}
