package io.servebench.results;

import java.util.List;
import java.util.Objects;

/**
 * How a tuning study ({@code @Tune}) reached its recommendation: each step's candidates against that step's base with
 * the verdict the tuner gave, the recommendation, and the caveats its measurements support. The blocks themselves are
 * the run's result blocks; this is the reasoning between them.
 *
 * @param study       the study class's simple name
 * @param metric      the primary metric's label, compared on its mean per request
 * @param rate        the request rate of the tuning point, requests/s; NaN when it is a concurrency
 * @param concurrency the closed-loop streams of the tuning point; 0 when it is a rate
 * @param steps       engine selection, each option group, the combination, in the order they ran
 * @param recommended the recommended configuration's name
 * @param validation  baseline against the recommendation at each validation rate
 * @param caveats     what the data says about the recommendation's limits, as codes the reports word
 * @param closeCall   the smallest ratio, above 1, that gets another repetition while it is not significant
 *                    ({@code @Tune(closeCall)})
 * @param maxRepetitions the most repetitions a side a comparison gets ({@code @Tune(maxRepetitions)})
 */
public record TuningResult(String study, String metric, double rate, int concurrency, List<Step> steps, String recommended,
                           List<Validation> validation, List<Caveat> caveats, double closeCall, int maxRepetitions) {

    public TuningResult {
        Objects.requireNonNull(study, "study");
        steps = List.copyOf(steps);
        validation = List.copyOf(validation);
        caveats = List.copyOf(caveats);
    }

    /** What the tuner made of one candidate. */
    public enum Verdict {
        /** The step's base: every other candidate is compared with it. */
        BASE,
        /** Significantly better than the base, and the step's choice. */
        CHOSEN,
        /** Significantly better than the base, but not chosen: not significantly better than the one chosen. */
        BETTER_NOT_BEST,
        /** No significant difference from the base, after the repetitions the budget allowed. */
        NO_DIFFERENCE,
        /** Significantly worse than the base. */
        WORSE,
        /** Its trial failed or measured nothing to compare. */
        FAILED,
        /** Not measured: written for another engine than the step's base. */
        NOT_TRIED
    }

    /**
     * One step of the method.
     *
     * @param name       {@code engine-selection}, an option group's name, or {@code combination}
     * @param base       the name of the configuration the step compares with
     * @param chosen     the name of what the step chose, {@code base} when nothing beat it
     * @param candidates the step's candidates, the base first
     */
    public record Step(String name, String base, String chosen, List<Candidate> candidates) {
        public Step {
            candidates = List.copyOf(candidates);
        }
    }

    /**
     * One candidate of a step.
     *
     * @param name        its configuration's name ({@code maxNumSeqs (maxNumSeqs=256)})
     * @param mean        its mean of the primary metric, in the metric's unit; NaN when it measured none
     * @param ratio       {@code mean / base mean}, below 1 is better; NaN for the base itself or without a measurement
     * @param low         the ratio's 95% interval, low end; NaN when not tested
     * @param high        the ratio's 95% interval, high end; NaN when not tested
     * @param repetitions repetitions the verdict rests on (the fewer of the two sides)
     * @param verdict     what the tuner made of it
     */
    public record Candidate(String name, double mean, double ratio, double low, double high, int repetitions,
                            Verdict verdict) {
    }

    /**
     * The baseline and the recommendation at one validation point.
     *
     * @param rate            requests/s; NaN at a concurrency
     * @param concurrency     closed-loop streams; 0 at a rate
     * @param baselineMean    the baseline's mean of the primary metric
     * @param recommendedMean the recommendation's
     * @param speedup         how many times better the recommendation is, above 1 better: {@code baselineMean /
     *                        recommendedMean} for a time or a cost, the inverse for a figure that is higher the better
     * @param significant     whether the difference is significant
     */
    public record Validation(double rate, int concurrency, double baselineMean, double recommendedMean, double speedup,
                             boolean significant) {
    }
}
