package io.servebench.execution;

import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.util.List;

/**
 * Measures trials: each {@link Batch} (the trials of one server configuration) on one engine start, here or elsewhere
 * (a SLURM job). A run strategy decides what to measure; an executor decides where. Every trial's blocks reach the
 * journal as it ends, and its outcome {@code outcomes}, whether it ran, failed or was not run.
 */
public interface Executor extends AutoCloseable {

    /**
     * Measures each batch's trials up to {@code repetitions} repetitions each: a trial measured before (a tuner that
     * wants one more) keeps its repetitions and gets only the missing ones.
     *
     * @param plan the blocks of every trial (a trial's result blocks are written as it ends)
     */
    void measure(List<Batch> batches, TrialPlan plan, int repetitions, RunJournal journal, TrialOutcomes outcomes,
                 TrialListener listener) throws IOException;

    /**
     * Whether the batches are measured in this process, one after the other: its load generator sends the load (and
     * wants warming up), and the time the trials so far took predicts the time left. A cluster's jobs send their own
     * load, wait in a queue and run side by side.
     */
    default boolean measuresHere() {
        return true;
    }

    /** Stops whatever it kept running between two calls of {@link #measure} (an engine kept for the next round). */
    @Override
    default void close() {
    }

    /**
     * One engine start's trials, in running order.
     *
     * @param key    names the batch where it runs elsewhere: its server id, or a tuner's round and server id
     *               ({@code r03-s02-vllm}); a SLURM job's files are {@code jobs/KEY.*}
     * @param trials trials of one server configuration
     */
    record Batch(String key, List<Trial> trials) {

        public Batch {
            trials = List.copyOf(trials);
            if (trials.isEmpty()) {
                throw new IllegalArgumentException("batch " + key + " has no trials");
            }
        }
    }
}
