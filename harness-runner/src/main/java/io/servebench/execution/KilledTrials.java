package io.servebench.execution;

import io.servebench.annotations.Profile;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordReader;
import io.servebench.load.RequestRecordWriter;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.metrics.SloSpec;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.results.RepetitionResult;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The trials a killed harness was running when it died (SIGKILL, a machine gone): the journal has no line of theirs,
 * but their request records were streamed to {@code requests/} as they completed, at most a second behind. A resumed
 * run reports each as a partial trial with what those records say, as a trial whose engine died is reported, and goes
 * on after it. A sweep in flight runs again: its steps' rates came from its first steps.
 */
public final class KilledTrials {

    /** Why a recovered trial is partial. */
    public static final String REASON = "partial: the harness stopped during this trial (killed, or its machine went down)";

    private KilledTrials() {
    }

    /**
     * Recovers the trials of {@code unfinished} that left request records, into {@code outcomes}.
     *
     * @return the trials recovered
     */
    public static List<Trial> recover(ExecutionParams params, TrialPlan plan, List<Trial> unfinished, TrialOutcomes outcomes,
                               PrintWriter out) throws IOException {
        List<Trial> recovered = new ArrayList<>();
        for (Trial trial : unfinished) {
            if (Profile.SWEEP.equals(trial.workload().profile())) {
                continue;
            }
            List<RepetitionResult> repetitions = new ArrayList<>();
            long requests = 0;
            SloSpec slo = null;
            for (int r = 1; r <= params.repetitions(); r++) {
                String name = LoadNames.of(trial.id(), null, r, params.repetitions() > 1);
                Path file = RequestRecordWriter.trialFile(params.outputDir(), name);
                if (!Files.exists(file)) {
                    break;
                }
                List<RequestRecord> records = RequestRecordReader.readRecovered(file);
                if (slo == null) {
                    slo = TrialSlos.of(trial, plan, params.slo(), out);
                }
                long finished = records.stream().filter(x -> !x.warmup()).count();
                requests += finished;
                repetitions.add(new MetricsAggregator().aggregate(records, slo).withNote("recovered from "
                        + params.outputDir().relativize(file) + ": " + finished + " measured requests"));
            }
            if (!repetitions.isEmpty()) {
                // the last repetition is the one the harness was in
                int last = repetitions.size() - 1;
                repetitions.set(last, repetitions.get(last).withNote(REASON));
                outcomes.slo(trial.id(), slo);
                outcomes.measured(trial.id(), List.of(new MeasuredStep(null, null, repetitions)));
                outcomes.failed(trial.id(), REASON + "; the " + requests + " measured requests it had finished are kept");
                out.printf("  %s: the harness stopped during it; its %d finished requests are kept as a partial trial%n",
                        trial.id(), requests);
                recovered.add(trial);
            }
        }
        return recovered;
    }
}
