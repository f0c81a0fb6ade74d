package io.servebench.execution;

import io.servebench.plan.TrialPlan;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Measures every batch here, one after the other, each on an engine this process starts and stops; for an adaptive run,
 * whose next batches are chosen from what the last ones measured, the last batch's engine is kept running until the
 * next call, which measures on it what it asks of that server configuration.
 */
public final class LocalExecutor implements Executor {

    private final RunContext context;
    private final boolean keepBetweenCalls;
    /**
     * The trial measurements begun so far, after the trials a resumed run had finished: the {@code [k/n]} count, in
     * which a tuner's more repetitions of a trial measured before count again. -1 until the first batches come.
     */
    private int measured = -1;
    /** The engine of the last call's last batch, still running; {@code null} when none is. */
    private ServerSession.Warm warm;

    /**
     * @param keepBetweenCalls whether the last batch's engine is kept running for the next call (a tuner's or a capacity
     *                         search's next round); {@link #close()} stops it
     */
    public LocalExecutor(RunContext context, boolean keepBetweenCalls) {
        this.context = context;
        this.keepBetweenCalls = keepBetweenCalls && !context.params().freshServer();
    }

    @Override
    public void measure(List<Batch> batches, TrialPlan plan, int repetitions, RunJournal journal, TrialOutcomes outcomes,
                        TrialListener listener) throws IOException {
        ServerSession session = new ServerSession(context, plan, outcomes, journal, listener);
        if (measured < 0) {
            measured = outcomes.finishedTrials();
        }
        int known = Math.max(measured + batches.stream().mapToInt(b -> b.trials().size()).sum(), plan.trials().size());
        List<Batch> ordered = new ArrayList<>(batches);
        if (warm != null) {
            // the running engine's batch first: no other engine starts beside it on its GPUs, and it is stopped once
            ServerSession.Warm running = warm;
            ordered.sort(Comparator.comparingInt(b -> running.serves(b.trials()) ? 0 : 1));
        }
        for (int i = 0; i < ordered.size(); i++) {
            Batch batch = ordered.get(i);
            ServerSession.Warm reuse = null;
            if (warm != null && warm.serves(batch.trials())) {
                reuse = warm;
            } else {
                close();
            }
            warm = null;
            warm = session.run(batch.trials(), measured, known, repetitions, reuse,
                    keepBetweenCalls && i == ordered.size() - 1);
            measured += batch.trials().size();
        }
    }

    @Override
    public void close() {
        if (warm != null) {
            warm.close();
            warm = null;
        }
    }
}
