package io.servebench.execution;

import io.servebench.annotations.Profile;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordReader;
import io.servebench.load.RequestRecordWriter;
import io.servebench.measure.SloParams;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.results.IncompleteRepetition;
import io.servebench.results.RepetitionResult;
import io.servebench.results.journal.JournalledRepetition;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The repetition a killed harness was in when it died (SIGKILL, a machine gone): the journal has the repetitions that
 * completed before it, but of it only the request records it streamed to {@code requests/} as they completed, at most
 * a second behind. A resumed run keeps them as an interrupted repetition, renamed so that the repetition's new run
 * does not write over them, and runs the repetition again. A sweep in flight runs again whole (its steps' rates came
 * from its first steps): the records of its steps are renamed and kept the same way.
 */
public final class KilledTrials {

    /** Why a repetition found this way did not complete. */
    public static final String REASON = "the harness stopped during this repetition (killed, or its machine went down);"
            + " found by --resume";

    private KilledTrials() {
    }

    /**
     * Keeps the records a killed harness left of the repetitions in flight among {@code toRun}: in {@code outcomes} and
     * the journal, as interrupted repetitions.
     */
    public static void recover(ExecutionParams params, TrialPlan plan, List<Trial> toRun, TrialOutcomes outcomes,
                               RunJournal journal, PrintWriter out) throws IOException {
        for (Trial trial : toRun) {
            if (Profile.SWEEP.equals(trial.workload().profile())) {
                keepSweep(params, trial, out);
                continue;
            }
            int number = outcomes.repetitions(trial.id()) + 1;
            String name = LoadNames.of(trial.id(), null, number, params.repetitions() > 1);
            Path file = RequestRecordWriter.trialFile(params.outputDir(), name);
            if (!Files.exists(file)) {
                continue;
            }
            List<RequestRecord> records = RequestRecordReader.readRecovered(file);
            SloParams slo = TrialSlos.of(trial, plan, params.slo(), out);
            long finished = records.stream().filter(x -> !x.warmup()).count();
            RepetitionResult measured = new MetricsAggregator().aggregate(records, slo)
                    .withNote("recovered from the records of a killed harness: " + finished + " measured requests");
            String kept = LoadNames.keepIncomplete(params.outputDir(), name, IncompleteRepetition.Kind.INTERRUPTED)
                    .orElseThrow();
            IncompleteRepetition repetition = new IncompleteRepetition(number, IncompleteRepetition.Kind.INTERRUPTED,
                    REASON, kept, measured);
            outcomes.incomplete(trial.id(), repetition);
            journal.append(JournalledRepetition.incomplete(trial.id(), repetition));
            out.printf("  %s: repetition %d was cut short by the harness's end; its %d finished requests are kept in %s,"
                    + " and it runs again%n", trial.id(), number, finished, kept);
        }
    }

    /** The records of a sweep's steps that a killed run wrote, renamed as interrupted before the sweep runs again. */
    private static void keepSweep(ExecutionParams params, Trial trial, PrintWriter out) throws IOException {
        Path requests = params.outputDir().resolve("requests");
        if (!Files.isDirectory(requests)) {
            return;
        }
        List<String> names;
        try (var files = Files.list(requests)) {
            names = files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith(trial.id() + "-s")
                    && f.endsWith(".jsonl.gz") && !f.contains(".interrupted") && !f.contains(".failed"))
                    .map(f -> f.substring(0, f.length() - ".jsonl.gz".length())).sorted().toList();
        }
        for (String name : names) {
            LoadNames.keepIncomplete(params.outputDir(), name, IncompleteRepetition.Kind.INTERRUPTED)
                    .ifPresent(kept -> out.printf("  %s: a step of its sweep was under way when the harness stopped;"
                            + " its records are kept in %s, and the sweep runs again%n", trial.id(), kept));
        }
    }
}
