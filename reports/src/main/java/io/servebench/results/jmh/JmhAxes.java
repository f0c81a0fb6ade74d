package io.servebench.results.jmh;

import io.servebench.results.BlockResult;
import io.servebench.workload.WorkloadSetting;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How the entries of a run are named in a JMH file, so that JMH's readers tell them apart as ServeBench's reports do,
 * with the same names in every run of a study:
 * <ul>
 *   <li>{@code benchmark} is {@code Class.variant}, followed by the variant's own {@code @Param} values as the reports
 *       write them ({@code LatencyTuning.maxNumSeqs[128]}): a value only some variants have is no axis of its
 *       class;</li>
 *   <li>{@code params} are the class's axes: the workload settings that vary within one of its variants (the rate or
 *       concurrency of a variant run at several, a sweep's step, a setting {@code -p} expanded over), each one that
 *       every entry of the class has. A setting that varies but not every entry has goes into the name of those that
 *       have it ({@code baseline[rate-8]}), and a sweep's rate, which it chooses as it runs, is no axis: its step
 *       names the entry. What is the same within each variant (its engine, its SLOs) the variant's name already says,
 *       and the flags, the request count and the warm-up never are params.</li>
 * </ul>
 * So every entry of a class has the same param names, none with a placeholder, and two runs of one study give
 * byte-identical names whatever order its flags were written in. Values are free of what splits JMH readers' labels:
 * {@code :} and {@code =} become {@code -}, white space {@code _}, and in a name {@code .} becomes {@code _} (readers
 * take the method to be what follows the last {@code .}). The entry's {@value JmhJsonWriter#EXTRA} object keeps
 * every param as it was.
 *
 * <p>With {@code paramsInName} the axes go into the name as well ({@code RateValidation.baseline[rate=16]}) and no
 * entry has params: for trackers that key a series by the benchmark's name alone (Bencher).
 */
final class JmhAxes {

    /**
     * Block params that are never axes: the flags (the variant's name says which configuration it is), and how much
     * was measured (quick mode's request count grows with the rate), so a quick run and a full one give one series.
     */
    private static final Set<String> NEVER = Set.of(BlockResult.FLAGS, WorkloadSetting.REQUESTS.key(), WorkloadSetting.WARMUP.key());

    private final Map<String, List<String>> axes;
    private final Map<String, List<String>> partial;
    private final boolean paramsInName;

    private JmhAxes(Map<String, List<String>> axes, Map<String, List<String>> partial, boolean paramsInName) {
        this.axes = axes;
        this.partial = partial;
        this.paramsInName = paramsInName;
    }

    /** The names of {@code blocks}, a run's written entries. */
    static JmhAxes of(List<BlockResult> blocks, boolean paramsInName) {
        Map<String, List<BlockResult>> classes = new LinkedHashMap<>();
        blocks.forEach(b -> classes.computeIfAbsent(b.className(), k -> new ArrayList<>()).add(b));
        Map<String, List<String>> axes = new LinkedHashMap<>();
        Map<String, List<String>> partial = new LinkedHashMap<>();
        classes.forEach((className, members) -> {
            Set<String> keys = new LinkedHashSet<>();
            members.forEach(b -> keys.addAll(settings(b).keySet()));
            List<String> full = new ArrayList<>();
            List<String> some = new ArrayList<>();
            for (String key : keys) {
                if (variesWithinAVariant(members, key)) {
                    (members.stream().allMatch(b -> settings(b).containsKey(key)) ? full : some).add(key);
                }
            }
            axes.put(className, List.copyOf(full));
            partial.put(className, List.copyOf(some));
        });
        return new JmhAxes(axes, partial, paramsInName);
    }

    /** The block's workload settings that may be axes: its params but the variant's own and those never axes. */
    private static Map<String, String> settings(BlockResult block) {
        Map<String, String> settings = new LinkedHashMap<>();
        block.params().forEach((k, v) -> {
            boolean setting = BlockResult.STANDARD_PARAMS.contains(k) || k.equals(BlockResult.SWEEP_STEP);
            // a sweep chooses its rates as it runs: its step names the entry, and runs keep one series per step
            boolean sweepRate = k.equals(WorkloadSetting.RATE.key()) && block.params().containsKey(BlockResult.SWEEP_STEP);
            if (setting && !NEVER.contains(k) && !sweepRate) {
                settings.put(k, v);
            }
        });
        return settings;
    }

    private static boolean variesWithinAVariant(List<BlockResult> members, String key) {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        for (BlockResult b : members) {
            values.computeIfAbsent(b.variant(), v -> new HashSet<>()).add(Objects.requireNonNullElse(settings(b).get(key), ""));
        }
        return values.values().stream().anyMatch(v -> v.size() > 1);
    }

    /** The entry's {@code benchmark}. */
    String benchmark(BlockResult block) {
        List<String> tags = new ArrayList<>();
        block.params().forEach((k, v) -> {
            if (!BlockResult.STANDARD_PARAMS.contains(k) && !k.equals(BlockResult.SWEEP_STEP)) {
                tags.add(inName(v));
            }
        });
        Map<String, String> settings = settings(block);
        for (String key : partial.getOrDefault(block.className(), List.of())) {
            if (settings.containsKey(key)) {
                tags.add(inName(key + "-" + settings.get(key)));
            }
        }
        StringBuilder name = new StringBuilder(block.className()).append('.').append(block.variant());
        if (!tags.isEmpty()) {
            name.append('[').append(String.join(",", tags)).append(']');
        }
        if (paramsInName) {
            Map<String, String> axisValues = axisValues(block);
            if (!axisValues.isEmpty()) {
                List<String> pairs = new ArrayList<>();
                axisValues.forEach((k, v) -> pairs.add(k + "=" + v));
                name.append('[').append(String.join(",", pairs)).append(']');
            }
        }
        return name.toString();
    }

    /** The entry's {@code params}: its class's axes with its values, as labels; none when they are in its name. */
    Map<String, String> params(BlockResult block) {
        return paramsInName ? Map.of() : axisValues(block);
    }

    private Map<String, String> axisValues(BlockResult block) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String axis : axes.getOrDefault(block.className(), List.of())) {
            params.put(axis, label(block.params().get(axis)));
        }
        return params;
    }

    /** A param value as a JMH label: {@code :} and {@code =} as {@code -}, white space as {@code _}. */
    static String label(String value) {
        return value.replaceAll("[:=]", "-").replaceAll("\\s+", "_");
    }

    /** A value in a benchmark's name: a label without {@code .}, which readers take as the class's end. */
    private static String inName(String value) {
        return label(value).replace('.', '_');
    }
}
