package io.servebench.runner;

/**
 * A run that cannot go as asked, found before any engine starts or while a trial is set up: a selection
 * that matches nothing, a study the class path lacks, a missing dataset file or API key, an {@code @Slo}
 * out of range. The message names the bad thing and what was expected; the command line prints it on one
 * line and exits with code 2. Failures of a trial once it runs are recorded in its result block instead.
 */
public final class RunnerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RunnerException(String message) {
        super(message);
    }
}
