package io.servebench.study;

import io.servebench.annotations.Slo;
import io.servebench.measure.SloParams;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one {@code @Slo} says (on the class or on a variant method), as written: every component {@code null} when not
 * stated there, so that a method's levels lay over the class's with {@link #overriddenBy}. Nothing is checked here:
 * {@link StudyChecker} reports each bad value; {@link #bounds()} and {@link #attainment()} read checked ones.
 *
 * <p>{@link StudyReader} keeps every value written, so that an explicit {@code tpotMs = -1} is reported at compile time; a
 * loaded class's {@link Slo#UNSET} is its default, left out.
 *
 * @param ttftMs        bound on TTFT, ms
 * @param tpotMs        bound on TPOT, ms
 * @param itlMs         bound on every ITL sample, ms
 * @param e2eMs         bound on E2E latency, ms
 * @param minAttainment the share of measured requests that must meet every bound, in (0, 1]
 */
public record SloOptions(Double ttftMs, Double tpotMs, Double itlMs, Double e2eMs, Double minAttainment) {

    /** Nothing stated. */
    public static final SloOptions UNSET = new SloOptions(null, null, null, null, null);

    /** The bounds written, by the annotation's attribute names ({@code ttftMs}, ...), in declaration order. */
    Map<String, Double> statedBounds() {
        Map<String, Double> bounds = new LinkedHashMap<>();
        bounds.put("ttftMs", ttftMs);
        bounds.put("tpotMs", tpotMs);
        bounds.put("itlMs", itlMs);
        bounds.put("e2eMs", e2eMs);
        bounds.values().removeIf(v -> v == null);
        return bounds;
    }

    /** These settings, each replaced by {@code onMethod}'s where that one states it. */
    public SloOptions overriddenBy(SloOptions onMethod) {
        return new SloOptions(pick(onMethod.ttftMs, ttftMs), pick(onMethod.tpotMs, tpotMs), pick(onMethod.itlMs, itlMs),
                pick(onMethod.e2eMs, e2eMs), pick(onMethod.minAttainment, minAttainment));
    }

    private static Double pick(Double preferred, Double fallback) {
        return preferred != null ? preferred : fallback;
    }

    /**
     * The bounds as the metrics use them; {@link SloParams#NONE} when none is stated.
     *
     * @throws IllegalArgumentException when a bound is not positive (a study the checker would refuse)
     */
    public SloParams bounds() {
        return new SloParams(ttftMs, tpotMs, itlMs, e2eMs);
    }

    /** The share of requests that must meet the bounds; empty when not stated. */
    public OptionalDouble attainment() {
        return minAttainment == null ? OptionalDouble.empty() : OptionalDouble.of(minAttainment);
    }
}
