package io.servebench.study;

import java.util.Objects;

/**
 * One thing wrong with a study.
 *
 * @param where   the annotation value (or member) at fault
 * @param message what is wrong and what was expected, readable without {@code where}'s context
 */
public record Problem(Location where, String message) {

    public Problem {
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return where + ": " + message;
    }
}
