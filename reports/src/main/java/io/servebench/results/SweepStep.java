package io.servebench.results;

import io.servebench.annotations.Profile;

import java.util.Optional;

/**
 * The name a sweep gives each of its steps, the value of a block's {@link BlockResult#SWEEP_STEP} param: its number
 * and the profile it ran, {@code s1-synchronous}, {@code s2-throughput}, then {@code s3-constant} and on (numbers padded
 * to the widest, {@code s01-…}, so that the names sort in order). Written by the runner, read by the reports.
 */
public final class SweepStep {

    private SweepStep() {
    }

    /**
     * The name of step {@code index} (from 0) of a sweep of {@code count} steps: synchronous, then throughput, then
     * constant rates.
     */
    public static String name(int index, int count) {
        String profile = index == 0 ? Profile.SYNCHRONOUS : index == 1 ? Profile.THROUGHPUT : Profile.CONSTANT;
        return String.format("s%0" + Integer.toString(count).length() + "d-%s", index + 1, profile);
    }

    /** The profile the step named {@code name} ran, empty for a name that is no step's. */
    public static Optional<String> profile(String name) {
        int dash = name.indexOf('-');
        return name.startsWith("s") && dash > 1 ? Optional.of(name.substring(dash + 1)) : Optional.empty();
    }
}
