package io.servebench.results.journal;

import java.util.List;
import java.util.Objects;

/**
 * The first line of a run's journal: what {@code --resume} needs to continue the run after it died. The arguments
 * repeat the run (secrets masked, as in the reports), and the plan lets a resumed run check that it plans the same
 * trials as the run it continues.
 *
 * @param startTime when the run started (ISO-8601, UTC, seconds)
 * @param args      the command-line arguments that repeat the run, after {@code java -jar benchmarks.jar}
 * @param plan      each planned trial as {@code TRIAL_ID SERVER_ID}, in running order
 */
public record RunHeader(String startTime, List<String> args, List<String> plan) {

    public RunHeader {
        Objects.requireNonNull(startTime, "startTime");
        args = List.copyOf(args);
        plan = List.copyOf(plan);
    }
}
