package io.servebench.results.jmh;

import io.servebench.results.BlockResult;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The JMH params of a run's entries: for each study class, the block params whose value is not the same in all of
 * its entries (its {@code @Param} fields, the rate or concurrency when it runs at several, the sweep step, the engine
 * when it compares engines, any workload setting {@code -p} expanded over). Every entry of a class gets the same
 * names, in the order they first appear, with {@value #ABSENT} where a block has no such param (a variant that does
 * not use a {@code @Param}). Values are written free of {@code :}, {@code =} and white space, which split or blur the
 * labels of JMH tools: {@code :} and {@code =} become {@code -}, white space {@code _} ({@code sim:vllm} is
 * {@code sim-vllm}); the entry's {@value JmhJsonWriter#EXTRA} object keeps every param as it was. The flags, the
 * request count and the warm-up are never params.
 */
final class JmhAxes {

    /** The value of an axis a block does not have. */
    static final String ABSENT = "-";

    /**
     * Block params that are never axes: the flags (the variant's name says which configuration it is), and how much
     * was measured (quick mode's request count grows with the rate), so a quick run and a full one give one series.
     */
    private static final Set<String> NEVER = Set.of(BlockResult.FLAGS, "requests", "warmup");

    private final Map<String, List<String>> byClass;

    private JmhAxes(Map<String, List<String>> byClass) {
        this.byClass = byClass;
    }

    /** The axes of each class of {@code blocks}. */
    static JmhAxes of(List<BlockResult> blocks) {
        Map<String, List<BlockResult>> classes = new LinkedHashMap<>();
        blocks.forEach(b -> classes.computeIfAbsent(b.className(), k -> new ArrayList<>()).add(b));
        Map<String, List<String>> byClass = new LinkedHashMap<>();
        classes.forEach((className, members) -> {
            Set<String> keys = new LinkedHashSet<>();
            members.forEach(b -> keys.addAll(b.params().keySet()));
            List<String> axes = new ArrayList<>();
            for (String key : keys) {
                Set<String> values = new HashSet<>();
                members.forEach(b -> values.add(Objects.requireNonNullElse(b.params().get(key), ABSENT)));
                if (!NEVER.contains(key) && values.size() > 1) {
                    axes.add(key);
                }
            }
            byClass.put(className, List.copyOf(axes));
        });
        return new JmhAxes(byClass);
    }

    /** The block's JMH params: its class's axes with its values, as labels. */
    Map<String, String> params(BlockResult block) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String axis : byClass.getOrDefault(block.className(), List.of())) {
            String value = block.params().get(axis);
            params.put(axis, value == null ? ABSENT : label(value));
        }
        return params;
    }

    /** A param value as a JMH label: {@code :} and {@code =} as {@code -}, white space as {@code _}. */
    static String label(String value) {
        return value.replaceAll("[:=]", "-").replaceAll("\\s+", "_");
    }
}
