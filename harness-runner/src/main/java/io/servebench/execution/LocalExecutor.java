package io.servebench.execution;

import io.servebench.plan.TrialPlan;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.util.List;

/** Measures every batch here, one after the other, each on an engine this process starts and stops. */
public final class LocalExecutor implements Executor {

    private final RunContext context;
    /**
     * The trial measurements begun so far, after the trials a resumed run had finished: the {@code [k/n]} count, in
     * which a tuner's more repetitions of a trial measured before count again. -1 until the first batches come.
     */
    private int measured = -1;

    public LocalExecutor(RunContext context) {
        this.context = context;
    }

    @Override
    public void measure(List<Batch> batches, TrialPlan plan, int repetitions, RunJournal journal, TrialOutcomes outcomes,
                        TrialListener listener) throws IOException {
        ServerSession session = new ServerSession(context, plan, outcomes, journal, listener);
        if (measured < 0) {
            measured = outcomes.finishedTrials();
        }
        int known = Math.max(measured + batches.stream().mapToInt(b -> b.trials().size()).sum(), plan.trials().size());
        for (Batch batch : batches) {
            session.run(batch.trials(), measured, known, repetitions);
            measured += batch.trials().size();
        }
    }
}
