package io.servebench.runner;

import io.servebench.execution.TrialListener;

/**
 * Told about a run as it goes, in running order: each engine start, then each of its trials as it starts and as it
 * ends (also a trial that fails or is not run, with its blocks saying why). The JUnit engine turns these into test
 * events. Called on the run's thread; a listener must not throw.
 */
public interface RunListener extends TrialListener {

    /** A listener that ignores everything. */
    RunListener NONE = new RunListener() {
    };
}
