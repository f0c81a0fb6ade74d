package io.servebench.compare;

import io.servebench.results.BlockResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The blocks of one study at one workload point: the baseline, and the others, each compared with it. A variant is
 * only ever compared with a baseline that ran at the same point.
 *
 * @param className the study class
 * @param workload  the point's values of {@link #WORKLOAD_KEYS}
 * @param baseline  the baseline block with latency results, {@code null} when there is none
 * @param others    every other block at the point, except blocks that are the baseline's own measurement
 */
public record BaselineGroup(String className, Map<String, String> workload, BlockResult baseline, List<BlockResult> others) {

    /** Params that define a workload point: blocks are compared only with a baseline that shares them. */
    public static final List<String> WORKLOAD_KEYS = Stream.concat(
            Stream.of(Stream.of(BlockResult.MODEL), BlockResult.WORKLOAD_PARAMS.stream(), Stream.of(BlockResult.SWEEP_STEP))
                    .flatMap(s -> s), BlockResult.LOAD_OPTION_PARAMS.stream()).toList();

    public BaselineGroup {
        workload = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(workload));
        others = List.copyOf(others);
    }

    /** The groups of {@code blocks}, in the order their first block appears. */
    public static List<BaselineGroup> of(List<BlockResult> blocks) {
        Map<List<Object>, List<BlockResult>> byPoint = new LinkedHashMap<>();
        for (BlockResult t : blocks) {
            byPoint.computeIfAbsent(List.of(t.className(), workload(t)), k -> new ArrayList<>()).add(t);
        }
        List<BaselineGroup> groups = new ArrayList<>();
        byPoint.forEach((key, members) -> {
            BlockResult baseline = members.stream().filter(BlockResult::baseline).filter(Comparison::comparable)
                    .findFirst().orElse(null);
            List<BlockResult> others = members.stream()
                    .filter(t -> baseline == null ? !t.baseline() : !t.trialId().equals(baseline.trialId())).toList();
            groups.add(new BaselineGroup(members.get(0).className(), workload(members.get(0)), baseline, others));
        });
        return List.copyOf(groups);
    }

    /** The block's values of {@link #WORKLOAD_KEYS}, in that order. */
    public static Map<String, String> workload(BlockResult t) {
        Map<String, String> workload = new LinkedHashMap<>();
        for (String key : WORKLOAD_KEYS) {
            if (t.params().containsKey(key)) {
                workload.put(key, t.params().get(key));
            }
        }
        return workload;
    }

    /** The comparison of {@code block} with this group's baseline, empty when either side has no latency results. */
    public Optional<Comparison> comparison(BlockResult block) {
        return baseline != null && Comparison.comparable(block) ? Optional.of(Comparison.of(baseline, block)) : Optional.empty();
    }

    /** Every other block that can be compared with the baseline, compared with it. */
    public List<BlockComparison> comparisons() {
        return others.stream().flatMap(b -> comparison(b).map(c -> new BlockComparison(baseline, b, c)).stream()).toList();
    }
}
