package io.servebench.results.journal;

import io.servebench.results.IncompleteRepetition;
import io.servebench.results.RepetitionResult;

import java.util.Objects;

/**
 * A repetition of a trial as it ended, journalled at once: a trial's block lines come only at its end, so without these
 * a harness killed in a trial's third repetition would lose the two before it. Exactly one of {@code complete} and
 * {@code incomplete} is set.
 *
 * @param trialId    the trial it belongs to
 * @param number     the repetition's number, from 1
 * @param complete   what it measured, when it ran to its end
 * @param incomplete what it measured and why it did not complete, otherwise
 */
public record JournalledRepetition(String trialId, int number, RepetitionResult complete, IncompleteRepetition incomplete) {

    public JournalledRepetition {
        Objects.requireNonNull(trialId, "trialId");
        if ((complete == null) == (incomplete == null)) {
            throw new IllegalArgumentException("repetition " + number + " of " + trialId
                    + ": expected either what it measured or why it did not complete");
        }
    }

    /** A repetition that ran to its end. */
    public static JournalledRepetition complete(String trialId, int number, RepetitionResult measured) {
        return new JournalledRepetition(trialId, number, measured, null);
    }

    /** A repetition that did not. */
    public static JournalledRepetition incomplete(String trialId, IncompleteRepetition repetition) {
        return new JournalledRepetition(trialId, repetition.number(), null, repetition);
    }
}
