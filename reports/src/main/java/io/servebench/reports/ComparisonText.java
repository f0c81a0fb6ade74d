package io.servebench.reports;

import io.servebench.compare.Comparison;
import io.servebench.stats.RatioEstimate;

import java.util.Locale;

/**
 * A {@link Comparison} in words of one language: the sentence "A = x s, B = y s, difference d s
 * (r x faster)", the verdict with its significance in a table cell, and the verdict in full.
 */
final class ComparisonText {

    private final Messages messages;

    public ComparisonText(Messages messages) {
        this.messages = messages;
    }

    /** "3.10x slower", "1.13x faster" or "the same": the ratio of the means, whatever the test says. */
    public String ratio(Comparison c) {
        if (c.variantMean() == c.baselineMean()) {
            return messages.text("cmp.same");
        }
        return messages.text(c.slower() ? "cmp.slower" : "cmp.faster", String.format(Locale.ROOT, "%.2f", c.ratio()));
    }

    /** "vllm = 2.62 s, sglang = 8.13 s, difference +5.51 s (3.10x slower)". */
    public String sentence(Comparison c) {
        double d = c.difference();
        return messages.text("cmp.sentence", c.baselineName(), Numbers.format(c.baselineMean()), c.variantName(),
                Numbers.format(c.variantMean()), (d > 0 ? "+" : "") + Numbers.formatLike(d, Math.min(c.baselineMean(),
                        c.variantMean())), ratio(c));
    }

    /**
     * The verdict for a table cell, always with its significance and the noise its interval covers: "1.13x faster
     * [1.08, 1.19], significant (p &lt; 0.001, run-to-run noise)", "no significant difference (1.03x slower [0.99,
     * 1.07], p = 0.385, run-to-run noise)", "undecided: run-to-run noise not measured (1.03x slower [0.99, 1.07] within
     * one run, ...)" or "1.03x slower, not tested (why)".
     */
    public String cell(Comparison c) {
        return switch (c.method()) {
            case NONE -> messages.text("cmp.cell.notTested", ratio(c), messages.text("reason.fewSamples"));
            case UNKNOWN_SPREAD -> messages.text("cmp.cell.notTested", ratio(c), messages.text("reason.unknownSpread"));
            case BOOTSTRAP_PER_REQUEST, BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD ->
                    messages.text("cmp.cell.undecided", ratio(c), interval(c), pText(c), noise(c));
            case REPETITION_MEANS -> c.significant()
                    ? messages.text("cmp.cell.significant", ratio(c), interval(c), pText(c), noise(c))
                    : messages.text("cmp.cell.notSignificant", ratio(c), interval(c), pText(c), noise(c));
        };
    }

    /** Which noise the interval covers, in a few words: run-to-run, or within one run (and why). */
    private String noise(Comparison c) {
        return messages.text(switch (c.method()) {
            case REPETITION_MEANS -> "noise.runToRun";
            case BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD -> "noise.withinRun.noSpread";
            default -> "noise.withinRun";
        });
    }

    /**
     * The verdict in full: the ratio with its 95% interval, the outcome, how the interval was obtained, the
     * p-value and what noise it covers, e.g. "1.03x slower [0.99, 1.07] — no significant difference at 95%
     * (bootstrap on per-request latencies of 1000 vs 1000 requests, 1 repetition, ..., p = 0.385; within-run noise only ...)".
     */
    public String verdict(Comparison c) {
        return switch (c.method()) {
            case NONE -> messages.text("verdict.notTested.fewSamples", c.baselineCount(), c.variantCount());
            case UNKNOWN_SPREAD -> messages.text("verdict.notTested.unknownSpread");
            case BOOTSTRAP_PER_REQUEST, BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD, REPETITION_MEANS -> {
                boolean perRequest = c.method() != Comparison.Method.REPETITION_MEANS;
                String test = perRequest
                        ? messages.text("verdict.test.perRequest", c.baselineCount(), c.variantCount(),
                                messages.text(c.repetitions() == 1 ? "verdict.reps.one" : "verdict.reps.pooled", c.repetitions()),
                                RatioEstimate.DEFAULT_RESAMPLES)
                        : messages.text("verdict.test.repetitions", c.baselineCount(), c.variantCount());
                String outcome = messages.text(c.undecided() ? "verdict.undecided"
                        : c.significant() ? "verdict.significant" : "verdict.notSignificant");
                String noise = switch (c.method()) {
                    case BOOTSTRAP_PER_REQUEST -> messages.text("verdict.withinRunOnly");
                    case BOOTSTRAP_REPETITIONS_WITHOUT_SPREAD -> messages.text("verdict.noRepetitionSpread", c.repetitions());
                    default -> messages.text("verdict.runToRun");
                };
                yield messages.text("verdict.detail", ratio(c), interval(c), outcome, test, pText(c), noise);
            }
        };
    }

    /**
     * The 95% interval of the ratio as the ratio is stated ("[0.99, 1.07]" for "1.03x slower"; for
     * "1.09x faster" the interval of baseline over variant), "—" when untested.
     */
    static String interval(Comparison c) {
        if (c.estimate() == null) {
            return Numbers.ABSENT;
        }
        RatioEstimate shown = c.slower() ? c.estimate() : c.estimate().inverted();
        return String.format(Locale.ROOT, "[%.2f, %.2f]", shown.low(), shown.high());
    }

    /** "&lt; 0.001" or "= 0.385": the two-sided p-value of "no difference" after "p ", when tested. */
    private static String pText(Comparison c) {
        return c.estimate().p() < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "= %.3f", c.estimate().p());
    }
}
