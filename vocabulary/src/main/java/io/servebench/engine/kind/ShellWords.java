package io.servebench.engine.kind;

import java.util.regex.Pattern;

/** Arguments written for a POSIX shell, so that a command ServeBench prints can be pasted and runs as it ran. */
public final class ShellWords {

    /** Arguments a POSIX shell reads back unchanged without quotes. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=,@%+-]+");

    private ShellWords() {
    }

    /**
     * {@code arg} as a POSIX shell reads it back: unchanged when plain, else in single quotes. A secret masked by
     * {@link Redaction} ({@value Redaction#MASK}, {@code NAME=***}) stays as it reads: it is not meant to be run.
     */
    public static String quote(String arg) {
        boolean masked = arg.equals(Redaction.MASK) || arg.endsWith("=" + Redaction.MASK)
                && PLAIN.matcher(arg.substring(0, arg.length() - Redaction.MASK.length())).matches();
        return masked || PLAIN.matcher(arg).matches() ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }
}
