package io.servebench.results;

import java.util.Objects;

/**
 * Whether a repetition started from an emptied prefix cache: the harness empties it before every load, so that no
 * earlier load's prompts (an earlier repetition's, another trial's) make its prefills cheaper.
 *
 * @param outcome what became of the reset
 * @param detail  how it was done ({@code POST /reset_prefix_cache}) or why it was not ({@code POST /flush_cache
 *                answered 400, 3 attempts}; {@code engine kind command offers no reset}), in words for the reports
 */
public record PrefixCacheReset(Outcome outcome, String detail) {

    /** What became of a reset. */
    public enum Outcome {
        /** The engine confirmed that its cache was emptied. */
        EMPTIED,
        /** The engine offers a reset, but it did not confirm one: the load may have found earlier prompts cached. */
        FAILED,
        /** The engine offers no reset (a generic command, an endpoint): nothing was tried. */
        NOT_OFFERED
    }

    public PrefixCacheReset {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
    }

    /** A confirmed reset, done as {@code how} says. */
    public static PrefixCacheReset emptied(String how) {
        return new PrefixCacheReset(Outcome.EMPTIED, how);
    }

    /** A reset the engine did not confirm, for the reason {@code why}. */
    public static PrefixCacheReset failed(String why) {
        return new PrefixCacheReset(Outcome.FAILED, why);
    }

    /** No reset: the engine offers none, as {@code why} says. */
    public static PrefixCacheReset notOffered(String why) {
        return new PrefixCacheReset(Outcome.NOT_OFFERED, why);
    }

    /** Whether the cache was emptied. */
    public boolean emptied() {
        return outcome == Outcome.EMPTIED;
    }
}
