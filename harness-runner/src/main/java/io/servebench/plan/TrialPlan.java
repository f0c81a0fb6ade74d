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

    /** The result blocks a trial gives numbers to. */
    public List<ResultBlock> blocksOf(Trial trial) {
        return blocks.stream().filter(p -> p.trial().id().equals(trial.id())).toList();
    }
}
