package io.servebench.compare;

import io.servebench.results.BlockResult;

/**
 * A result block compared with its study's baseline at the same workload point.
 *
 * @param baseline   the baseline's block
 * @param variant    the block compared with it
 * @param comparison the ratio of their mean latencies with its interval and verdict
 */
public record BlockComparison(BlockResult baseline, BlockResult variant, Comparison comparison) {
}
