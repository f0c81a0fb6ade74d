package io.servebench.measure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Service-level objectives a request must meet to count toward goodput; each bound is in
 * milliseconds, {@code null} when not stated. A request meets the SLOs when it succeeded and each
 * stated bound holds: TTFT ≤ {@code ttftMs}, TPOT ≤ {@code tpotMs} (a one-token request has no TPOT
 * and meets it), every ITL sample ≤ {@code itlMs} (its worst inter-token gap), E2E latency ≤ {@code e2eMs}.
 *
 * @param ttftMs bound on TTFT, ms
 * @param tpotMs bound on TPOT, ms
 * @param itlMs  bound on each ITL sample, ms
 * @param e2eMs  bound on E2E latency, ms
 */
public record SloParams(Double ttftMs, Double tpotMs, Double itlMs, Double e2eMs) {

    /** No SLO stated: goodput is absent. */
    public static final SloParams NONE = new SloParams(null, null, null, null);

    /** The names {@link #parse} accepts, in the order {@link #toString()} writes them. */
    public static final List<String> NAMES = List.of("ttft", "tpot", "itl", "e2e");

    public SloParams {
        check("ttft", ttftMs);
        check("tpot", tpotMs);
        check("itl", itlMs);
        check("e2e", e2eMs);
    }

    /** Why a bound is invalid, or {@code null} when it is a positive, finite number of milliseconds (or unset). */
    public static String problem(String name, Double ms) {
        if (ms == null || (ms > 0 && Double.isFinite(ms))) {
            return null;
        }
        return "SLO " + name + " = " + ms + " ms is out of range; expected a positive, finite number of milliseconds";
    }

    /** Why a minimum share of requests meeting the SLOs is invalid, or {@code null} when it is in (0, 1]. */
    public static String attainmentProblem(double share) {
        return share > 0 && share <= 1 ? null
                : "minAttainment = " + share + " is out of range; expected a share of requests in (0, 1], e.g. 0.99";
    }

    private static void check(String name, Double ms) {
        String problem = problem(name, ms);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Whether any bound is stated. */
    public boolean stated() {
        return ttftMs != null || tpotMs != null || itlMs != null || e2eMs != null;
    }

    /** These bounds, each replaced by {@code override}'s where that one states it. */
    public SloParams overriddenBy(SloParams override) {
        return new SloParams(pick(override.ttftMs, ttftMs), pick(override.tpotMs, tpotMs), pick(override.itlMs, itlMs),
                pick(override.e2eMs, e2eMs));
    }

    private static Double pick(Double preferred, Double fallback) {
        return preferred != null ? preferred : fallback;
    }

    /**
     * Whether one successful request meets every stated bound.
     *
     * @param ttftMs its TTFT, ms, empty when it had no token
     * @param tpotMs its TPOT, ms, empty for a one-token answer
     * @param maxItlMs its largest ITL sample, ms, empty when it had none
     * @param e2eMs its E2E latency, ms, empty when it had no token
     */
    public boolean met(OptionalDouble ttftMs, OptionalDouble tpotMs, OptionalDouble maxItlMs, OptionalDouble e2eMs) {
        return within(this.ttftMs, ttftMs, false) && within(this.tpotMs, tpotMs, true)
                && within(this.itlMs, maxItlMs, true) && within(this.e2eMs, e2eMs, false);
    }

    /** A bound holds when unset, or when the value is present and within it (or absent where absence cannot miss it). */
    private static boolean within(Double bound, OptionalDouble value, boolean absentMeets) {
        if (bound == null) {
            return true;
        }
        return value.isPresent() ? value.getAsDouble() <= bound : absentMeets;
    }

    /** {@code vllm bench serve --goodput}'s names that differ from ours. */
    private static final Map<String, String> VLLM_NAMES = Map.of("e2el", "e2e");

    /**
     * Parses {@code ttft=200,tpot=50} (names from {@link #NAMES}, values in ms, or with a unit: {@code ttft=500ms},
     * {@code e2e=2.5s}), and {@code vllm bench serve --goodput}'s own spelling of the same bounds, {@code ttft:200
     * tpot:50 e2el:3000} (its {@code parse_goodput} splits each pair at {@code :}, in ms, and its {@code
     * check_goodput_args} names E2E latency {@code e2el}).
     *
     * @throws IllegalArgumentException naming the bad part and what was expected
     */
    public static SloParams parse(String text) {
        Map<String, Double> values = new LinkedHashMap<>();
        // pairs apart by commas or, as vllm bench serve takes them, by spaces; a name and its value may stand apart
        for (String p : text.strip().replaceAll("\\s*([=:])\\s*", "$1").split("[,\\s]+")) {
            int eq = p.indexOf('=') >= 0 ? p.indexOf('=') : p.indexOf(':');
            String name = eq < 0 ? p : VLLM_NAMES.getOrDefault(p.substring(0, eq).strip(), p.substring(0, eq).strip());
            if (eq < 0 || !NAMES.contains(name)) {
                throw new IllegalArgumentException("SLO \"" + p + "\" in \"" + text + "\": expected NAME=MS with NAME one of "
                        + NAMES + ", e.g. ttft=200,tpot=50");
            }
            String value = p.substring(eq + 1).strip();
            double ms;
            try {
                ms = value.endsWith("ms") ? Double.parseDouble(value.substring(0, value.length() - 2))
                        : value.endsWith("s") ? 1000 * Double.parseDouble(value.substring(0, value.length() - 1))
                        : Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("SLO \"" + p + "\": \"" + value + "\" is not a number of"
                        + " milliseconds; expected e.g. " + name + "=200, " + name + "=200ms or " + name + "=0.2s", e);
            }
            if (values.put(name, ms) != null) {
                throw new IllegalArgumentException("SLO " + name + " is given twice in \"" + text + "\"; expected it once");
            }
        }
        return new SloParams(values.get("ttft"), values.get("tpot"), values.get("itl"), values.get("e2e"));
    }

    /** {@code ttft=200,tpot=50}: the stated bounds as {@link #parse} reads them; {@code ""} for none. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        Double[] bounds = {ttftMs, tpotMs, itlMs, e2eMs};
        for (int i = 0; i < bounds.length; i++) {
            if (bounds[i] != null) {
                double v = bounds[i];
                parts.add(NAMES.get(i) + "=" + (v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v)));
            }
        }
        return String.join(",", parts);
    }
}
