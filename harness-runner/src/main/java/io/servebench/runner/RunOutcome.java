package io.servebench.runner;

import io.servebench.compare.BaselineGroup;
import io.servebench.compare.BlockComparison;
import io.servebench.results.BlockResult;
import io.servebench.results.RunResult;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link Runner#run()} returns: the run's results as values, for a program or a test to assert on, and where its
 * run folder is.
 *
 * @param result    every result block with its repetitions' metrics, and each server's environment
 * @param outputDir the run folder holding {@code results.json}, {@code summary.md}, {@code report.html}, the journal
 */
public record RunOutcome(RunResult result, Path outputDir) {

    /** The result blocks, in report order. */
    public List<BlockResult> blocks() {
        return result.blocks();
    }

    /** The blocks of one variant ({@code Class.variant} or just the variant's name), at each of its points. */
    public List<BlockResult> blocks(String variant) {
        return result.blocks().stream().filter(b -> b.benchmark().equals(variant) || b.variant().equals(variant)).toList();
    }

    /** Every block compared with its study's baseline at the same workload point, as the reports compare them. */
    public List<BlockComparison> comparisons() {
        return BaselineGroup.of(result.blocks()).stream().flatMap(g -> g.comparisons().stream()).toList();
    }

    /** Whether every trial is complete: it ran every repetition to its end. */
    public boolean allTrialsRan() {
        return result.blocks().stream().allMatch(BlockResult::succeeded);
    }

    /** The blocks whose trial failed (its engine, its load, or too many of its requests). */
    public List<BlockResult> failed() {
        return result.blocks().stream().filter(b -> b.state() == BlockResult.State.FAILED).toList();
    }

    /** The blocks whose trial the run's stop cut short or never began. */
    public List<BlockResult> interrupted() {
        return result.blocks().stream().filter(b -> b.state() == BlockResult.State.INTERRUPTED
                || b.state() == BlockResult.State.NOT_RUN).toList();
    }
}
