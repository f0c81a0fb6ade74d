package io.servebench.runner;

import io.servebench.execution.TrialOutcomes;
import io.servebench.measure.SloParams;
import io.servebench.plan.TrialPlan;
import io.servebench.results.BlockResult;
import io.servebench.results.journal.RunHeader;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a run folder's journal says a run had done before it died: the trials that finished (measured or failed), their
 * measurements, and the servers that started. A resumed run puts these into its {@link TrialOutcomes} and runs only
 * the other trials, so its reports cover the whole plan; a trial that was in flight left no line and runs again.
 *
 * @param startTime when the run first started
 * @param finished  ids of the trials the journal holds, in plan order
 */
record ResumedRun(String startTime, Set<String> finished) {

    ResumedRun {
        finished = Set.copyOf(finished);
    }

    /** Each trial of the plan as the header lists it: {@code TRIAL_ID SERVER_ID}. */
    static List<String> planKeys(TrialPlan plan) {
        return plan.trials().stream().map(t -> t.id() + " " + t.serverId()).toList();
    }

    /**
     * Reads {@code dir}'s journal for {@code plan}, and fills {@code outcomes} with what it holds.
     *
     * @param plan the run's plan, which must be the journalled run's; empty for a tuning study, whose trials are chosen
     *             as it goes (its tuner replays its decisions on what the journal holds)
     * @throws RunnerException when there is no journal to resume, or it was written for another plan
     */
    static ResumedRun read(Path dir, Optional<TrialPlan> plan, TrialOutcomes outcomes) throws IOException {
        RunHeader header = RunJournal.readHeader(dir).orElseThrow(() -> new RunnerException(dir
                + " holds no run to resume: no " + RunJournal.FILE_NAME + " with a run header (it is written when a run starts)"));
        List<String> keys = plan.map(ResumedRun::planKeys).orElse(List.of());
        if (!header.plan().equals(keys)) {
            throw new RunnerException("the run in " + dir + " planned other trials than this one ("
                    + firstDifference(header.plan(), keys) + "): the studies, the class path or the options changed since"
                    + " it started; resume with the same build and options, or start a new run with another -o");
        }
        Set<String> finished = outcomes.load(RunJournal.readEntries(dir), RunJournal.readServers(dir));
        return new ResumedRun(header.startTime(), finished);
    }

    private static String firstDifference(List<String> journalled, List<String> planned) {
        for (int i = 0; i < Math.max(journalled.size(), planned.size()); i++) {
            String was = i < journalled.size() ? journalled.get(i) : "none";
            String is = i < planned.size() ? planned.get(i) : "none";
            if (!was.equals(is)) {
                return "trial " + (i + 1) + " was " + was + ", is " + is;
            }
        }
        return "same trials";
    }
}
