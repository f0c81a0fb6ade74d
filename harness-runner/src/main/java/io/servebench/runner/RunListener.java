package io.servebench.runner;

import io.servebench.plan.Trial;
import io.servebench.results.BlockResult;

import java.util.List;

/**
 * Told about a run as it goes, in running order: each engine start, then each of its trials as it starts and as it
 * ends (also a trial that fails or is not run, with its blocks saying why). The JUnit engine turns these into test
 * events. Called on the run's thread; a listener must not throw.
 */
public interface RunListener {

    /** A listener that ignores everything. */
    RunListener NONE = new RunListener() {
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
}
