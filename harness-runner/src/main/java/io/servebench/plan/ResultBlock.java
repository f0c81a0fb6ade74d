package io.servebench.plan;

import io.servebench.measure.SloParams;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One result block: a variant of a study at one point of its parameters, as JMH reports one
 * benchmark at one parameter combination. Several points may share one {@link Trial}.
 *
 * @param benchmark   {@code fully.qualified.Class.variant}
 * @param className   the study class
 * @param variant     the variant's method name
 * @param group       the variant's option group, {@code ""} if none
 * @param baseline    whether this is the study's baseline variant
 * @param paramValues the values of the parameters this point was expanded over, in declaration order
 * @param trial       the measurement that gives this block its numbers
 * @param recommended whether this is the study's recommended variant
 * @param slo         the SLOs the study declares for the variant ({@code @Slo}, the method's over the class's), before
 *                    the command line's {@code --slo}
 * @param minAttainment the share of requests that must meet them ({@code @Slo(minAttainment)}); empty when not stated
 */
public record ResultBlock(String benchmark, String className, String variant, String group, boolean baseline,
                             Map<String, String> paramValues, Trial trial, boolean recommended, SloParams slo,
                             OptionalDouble minAttainment) {

    public ResultBlock {
        paramValues = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(paramValues));
        Objects.requireNonNull(slo, "slo");
        Objects.requireNonNull(minAttainment, "minAttainment");
    }

    /** The values of the study's own parameters, without the workload's ({@link TrialPlanner#WORKLOAD_KEYS}). */
    public Map<String, String> ownParams() {
        Map<String, String> own = new java.util.LinkedHashMap<>(paramValues);
        own.keySet().removeAll(TrialPlanner.WORKLOAD_KEYS);
        return own;
    }

    /** This block measured by {@code trial}, marked recommended or not. */
    public ResultBlock with(Trial trial, boolean recommended) {
        return new ResultBlock(benchmark, className, variant, group, baseline, paramValues, trial, recommended, slo,
                minAttainment);
    }
}
