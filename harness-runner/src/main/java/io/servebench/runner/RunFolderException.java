package io.servebench.runner;

/**
 * An input or output failure stopped the run while it went on, most often its folder that could not be written: its
 * journal, a repetition's files or its reports (a full disk, a folder made read-only). What it measured before stays in
 * the folder. The message names the file, the reason and the command that continues the run once that is mended; the
 * command line prints it on one line and exits with code 1.
 */
public final class RunFolderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunFolderException(String message, Throwable cause) {
        super(message, cause);
    }
}
