package io.servebench.execution;

import io.servebench.plan.TrialPlan;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.util.List;

/** Measures every batch here, one after the other, each on an engine this process starts and stops. */
public final class LocalExecutor implements Executor {

    private final RunContext context;

    public LocalExecutor(RunContext context) {
        this.context = context;
    }

    @Override
    public void measure(List<Batch> batches, TrialPlan plan, int repetitions, RunJournal journal, TrialOutcomes outcomes,
                        TrialListener listener) throws IOException {
        ServerSession session = new ServerSession(context, plan, outcomes, journal, listener);
        for (Batch batch : batches) {
            session.run(batch.trials(), outcomes.finishedTrials(), repetitions);
        }
    }
}
