package io.servebench.results;

import java.util.Objects;

/**
 * A repetition of a trial that did not complete: what it measured is kept for the reader, named as partial, and never
 * stands in for a complete repetition.
 *
 * @param number   the repetition's number, from 1
 * @param kind     why it did not complete
 * @param reason   one sentence: what stopped it
 * @param records  its request records, relative to the run folder ({@code requests/t01-...-r2.interrupted.jsonl.gz});
 *                 {@code null} when it wrote none
 * @param measured what its finished requests measured; {@code null} when none finished
 */
public record IncompleteRepetition(int number, Kind kind, String reason, String records, RepetitionResult measured) {

    /** Why a repetition did not complete. */
    public enum Kind {
        /** The run was stopped during it (a signal; a SIGKILL, found by {@code --resume}). */
        INTERRUPTED,
        /** Its engine died, its load could not go on, every request failed, or too large a share did. */
        FAILED
    }

    public IncompleteRepetition {
        if (number < 1) {
            throw new IllegalArgumentException("repetitions are numbered from 1, got " + number);
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }
}
