package io.servebench.plan;

import java.util.List;

/**
 * The expanded run: every result block, the distinct trials that measure them (ordered so each server
 * configuration starts once), and those server configurations.
 */
public record TrialPlan(List<ResultBlock> blocks, List<Trial> trials) {

    public TrialPlan {
        blocks = List.copyOf(blocks);
        trials = List.copyOf(trials);
    }

    /** Number of server starts the plan needs: one per distinct server configuration. */
    public long serverStarts() {
        return trials.stream().map(Trial::serverId).distinct().count();
    }

    /**
     * The plan cut to the trials named, each by its {@link Trial#key() key} or its whole id, with their blocks; the running
     * numbers stay those of the whole plan.
     *
     * @throws IllegalArgumentException naming a key no trial has, and the keys there are
     */
    public TrialPlan only(List<String> keys) {
        for (String key : keys) {
            if (trials.stream().noneMatch(t -> named(t, List.of(key)))) {
                throw new IllegalArgumentException("--trial " + key + ": the plan has no such trial; expected one of "
                        + String.join(", ", trials.stream().map(Trial::key).toList())
                        + " (a trial's id without its running number, as --dry-run lists them)");
            }
        }
        return new TrialPlan(blocks.stream().filter(b -> named(b.trial(), keys)).toList(),
                trials.stream().filter(t -> named(t, keys)).toList());
    }

    private static boolean named(Trial trial, List<String> keys) {
        return keys.contains(trial.key()) || keys.contains(trial.id());
    }

    /** The result blocks a trial gives numbers to. */
    public List<ResultBlock> blocksOf(Trial trial) {
        return blocks.stream().filter(p -> p.trial().id().equals(trial.id())).toList();
    }
}
