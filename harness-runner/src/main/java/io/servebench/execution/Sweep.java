package io.servebench.execution;

import io.servebench.load.ArrivalProfile;
import io.servebench.measure.Metric;
import io.servebench.plan.Trial;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.RepetitionResult;
import io.servebench.results.SweepStep;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A sweep as guidellm runs one: synchronous, then throughput, then {@code sweepRates} constant rates evenly spaced
 * strictly between the two measured request rates (rounded to 3 significant digits, the rate then sent and
 * reported). Each step is a result block of its own. The rates come from the first repetition, so every repetition
 * runs the same steps and their numbers can be pooled.
 */
final class Sweep {

    private Sweep() {
    }

    /**
     * Runs every step of the trial's sweep, {@link ExecutionParams#repetitions()} times, and adds each step measured to
     * {@code steps}, also when a step fails: the steps before it are kept (what the failed step measured is its
     * {@link LoadMeasurement.LoadFailure}'s).
     *
     * @param progress the prefix of each step's progress label ({@code [3/16] })
     */
    static void run(LoadMeasurement measurement, ExecutionParams params, String progress, List<MeasuredStep> steps)
            throws IOException {
        Trial trial = measurement.trial();
        WorkloadParams w = params.asSent(trial.workload());
        int cap = w.options().maxConcurrency();
        int count = w.resultBlocks();
        List<String> names = new ArrayList<>();
        List<List<RepetitionResult>> reps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(SweepStep.name(i, count));
            reps.add(new ArrayList<>());
        }
        double[] rates = null;
        try {
            for (int r = 1; r <= params.repetitions(); r++) {
                for (int i = 0; i < count; i++) {
                    ArrivalProfile profile;
                    WorkloadParams stepLoad = w;
                    if (i == 0) {
                        profile = new ArrivalProfile.Synchronous();
                    } else if (i == 1) {
                        profile = LoadSettings.capped(new ArrivalProfile.Throughput(), cap);
                    } else {
                        stepLoad = w.withRequests(params.requestsFor(trial.workload().requests(), rates[i - 2]));
                        profile = LoadSettings.capped(new ArrivalProfile.Constant(rates[i - 2]), cap);
                    }
                    String name = LoadNames.of(trial.id(), names.get(i), r, params.repetitions() > 1);
                    // a step that does not complete ends the sweep; what it measured is kept apart by the caller
                    RepetitionResult metrics = measurement.measure(stepLoad, profile, Repetition.of(params.seed(), r), name,
                            progress + name);
                    reps.get(i).add(metrics);
                    if (i == 1 && rates == null) {
                        rates = ratesBetween(requestRate(reps.get(0).get(0), "synchronous"),
                                requestRate(metrics, "throughput"), w.options().sweepRates());
                    }
                }
            }
        } finally {
            for (int i = 0; i < count; i++) {
                if (!reps.get(i).isEmpty()) {
                    steps.add(new MeasuredStep(names.get(i), i < 2 ? null : rates[i - 2], reps.get(i)));
                }
            }
        }
    }

    /** {@code k} rates evenly spaced strictly between {@code low} and {@code high}, to 3 significant digits. */
    static double[] ratesBetween(double low, double high, int k) {
        double[] rates = new double[k];
        for (int i = 1; i <= k; i++) {
            double rate = low + (high - low) * i / (k + 1);
            rates[i - 1] = new BigDecimal(rate).round(new MathContext(3)).doubleValue();
        }
        return rates;
    }

    private static double requestRate(RepetitionResult metrics, String step) {
        OptionalDouble rate = metrics.value(Metric.REQUEST_THROUGHPUT);
        if (rate.isEmpty() || !(rate.getAsDouble() > 0)) {
            throw new IllegalStateException("the sweep's " + step + " step measured no request throughput ("
                    + (long) metrics.value(Metric.SUCCESSFUL_REQUESTS).orElse(0) + " successful requests), so it cannot"
                    + " place its constant rates");
        }
        return rate.getAsDouble();
    }
}
