package io.servebench.execution;

import java.util.SplittableRandom;

/**
 * One repetition of a load (a trial's, or a sweep step's) and the seed it draws from. Repetitions are independent
 * samples: each draws its dataset sample and order and its arrival times from a seed of its own, and sends request
 * ids of its own, from which the simulated engine draws its choices (draft acceptances, answer words). The seeds
 * derive from the run's seed alone, so the same run seed gives the same repetitions, and repetition {@code r} of
 * every trial sends the same requests at the same times: variants are compared on the same samples.
 *
 * @param number the repetition's number, from 1
 * @param seed   what it draws from: the run's seed for repetition 1 (a run of one repetition draws from the seed
 *               {@code --seed} names), the {@code (number − 1)}-th output of SplitMix64 seeded with it for the later ones
 */
record Repetition(int number, long seed) {

    Repetition {
        if (number < 1) {
            throw new IllegalArgumentException("repetitions are numbered from 1, got " + number);
        }
    }

    /** Repetition {@code number} of a run whose seed is {@code runSeed}. */
    static Repetition of(long runSeed, int number) {
        SplittableRandom sequence = new SplittableRandom(runSeed);
        long seed = runSeed;
        for (int i = 1; i < number; i++) {
            seed = sequence.nextLong();
        }
        return new Repetition(number, seed);
    }

    /**
     * What goes before a request's index in its {@code X-Request-Id}: nothing in repetition 1, {@code r2-} in the
     * second, so that a run's ids are unique.
     */
    String requestIdPrefix() {
        return number == 1 ? "" : "r" + number + "-";
    }
}
