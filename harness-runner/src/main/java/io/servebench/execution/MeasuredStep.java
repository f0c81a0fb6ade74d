package io.servebench.execution;

import io.servebench.results.RepetitionResult;

import java.util.List;

/**
 * One measured load of a trial, with its repetitions: the trial itself, or one step of a sweep.
 *
 * @param sweepStep   the sweep step's name ({@code s2-throughput}), {@code null} for a trial that is no sweep
 * @param rate        the rate the sweep step sent, {@code null} when the step had none of its own
 * @param repetitions what each repetition measured, in the order they ran
 */
record MeasuredStep(String sweepStep, Double rate, List<RepetitionResult> repetitions) {

    MeasuredStep {
        repetitions = List.copyOf(repetitions);
    }

    /** A trial that did not measure anything: it failed, or the run stopped before it. */
    static final MeasuredStep NONE = new MeasuredStep(null, null, List.of());
}
