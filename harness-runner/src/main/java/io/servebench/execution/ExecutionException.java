package io.servebench.execution;

/**
 * Trials that cannot be measured as asked, for a reason outside any one trial: a dataset that cannot be read, an API
 * key variable that is not set, a SLURM command that fails. The message names the bad thing and what was expected; the
 * command line prints it on one line and exits with code 2. Failures of a trial once it runs are recorded in its result
 * block instead.
 */
public final class ExecutionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ExecutionException(String message) {
        super(message);
    }
}
