package io.servebench.runner;

/**
 * The run folder could not be written while the run went on: its journal or its reports (a full disk, a folder made
 * read-only). The run stops there; what it measured before stays in the folder. The message names the file, the
 * reason and the command that continues the run once the folder can be written again; the command line prints it on
 * one line and exits with code 1.
 */
public final class RunFolderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunFolderException(String message, Throwable cause) {
        super(message, cause);
    }
}
