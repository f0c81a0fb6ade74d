package io.servebench.execution;

import io.servebench.plan.Trial;
import io.servebench.results.BlockResult;

import java.util.List;

/**
 * Told about measuring as it goes, in running order: each engine start, then each of its trials as it starts and as it
 * ends (also a trial that fails or is not run, with its blocks saying why). Called on the measuring thread; a listener
 * must not throw.
 */
public interface TrialListener {

    /** A listener that ignores everything. */
    TrialListener NONE = new TrialListener() {
    };

    /** The engine for {@code trials}, which share its server configuration, is about to start. */
    default void serverStarting(List<Trial> trials) {
    }

    /** {@code trial} is about to be measured. */
    default void trialStarting(Trial trial) {
    }

    /** {@code trial} has ended: {@code blocks} are its result blocks as the journal has them. */
    default void trialFinished(Trial trial, List<BlockResult> blocks) {
    }

    /** A listener that tells {@code first}, then {@code second}. */
    static TrialListener both(TrialListener first, TrialListener second) {
        return new TrialListener() {
            @Override
            public void serverStarting(List<Trial> trials) {
                first.serverStarting(trials);
                second.serverStarting(trials);
            }

            @Override
            public void trialStarting(Trial trial) {
                first.trialStarting(trial);
                second.trialStarting(trial);
            }

            @Override
            public void trialFinished(Trial trial, List<BlockResult> blocks) {
                first.trialFinished(trial, blocks);
                second.trialFinished(trial, blocks);
            }
        };
    }
}
