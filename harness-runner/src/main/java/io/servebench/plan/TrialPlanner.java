package io.servebench.plan;

import io.servebench.annotations.Profile;
import io.servebench.engine.kind.EngineKind;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.flags.Flag;
import io.servebench.engine.ServerConfig;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;
import io.servebench.study.ParamSpec;
import io.servebench.study.Studies;
import io.servebench.study.StudyChecker;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;
import io.servebench.study.WorkloadOptions;
import io.servebench.workload.Datasets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Expands selected variants into result blocks and distinct trials. Settings resolve as JMH's do:
 * the command line ({@code -p}) first, then the variant method, then the class, then
 * {@link WorkloadOptions#DEFAULTS}. Each variant expands over the cartesian product of the parameters it uses: the
 * workload parameters ({@code rate}, {@code requests}, {@code warmup}, {@code concurrency},
 * {@code dataset}, {@code profile}) and the {@code @Param} fields its flags name as {@code ${field}}.
 */
public final class TrialPlanner {

    /** Workload settings that {@code -p} can set and a {@code @Param} field of that name expands. */
    public static final List<String> WORKLOAD_KEYS = java.util.stream.Stream.concat(
            WorkloadSetting.keys().stream(), LoadOption.keys().stream()).toList();

    private static final List<String> PROFILES = List.copyOf(StudyChecker.PROFILES);

    private final Map<String, List<String>> overrides;
    private final EngineOverrides engineOverrides;

    /**
     * @param overrides {@code -p name=v1,v2} values by name; a workload key or a {@code @Param} field name
     * @throws IllegalArgumentException for a workload value that does not parse or is out of range
     */
    public TrialPlanner(Map<String, List<String>> overrides) {
        this(overrides, EngineOverrides.NONE);
    }

    /**
     * @param engineOverrides the command line's engine executable, environment, working directory and URL,
     *                        applied to every server configuration
     */
    public TrialPlanner(Map<String, List<String>> overrides, EngineOverrides engineOverrides) {
        this.engineOverrides = engineOverrides;
        this.overrides = Map.copyOf(overrides);
        overrides.forEach((key, values) -> {
            if (values.isEmpty()) {
                throw new IllegalArgumentException("-p " + key + "= has no value; expected -p " + key + "=v1,v2,...");
            }
            if (WORKLOAD_KEYS.contains(key)) {
                values.forEach(v -> checkWorkloadValue(key, v, "-p " + key));
            }
        });
    }

    /** A study and the variants of it to run. */
    public record Selection(StudyDescriptor study, List<VariantDescriptor> variants) {
    }

    /**
     * @throws IllegalArgumentException when a {@code -p} name is neither a workload setting nor a
     *                                  parameter of a selected study
     */
    public TrialPlan plan(List<Selection> selections) {
        checkOverrideNames(selections);
        // First pass: distinct (server, workload) pairs in order of appearance, and which blocks ask for each.
        Map<String, ServerConfig> servers = new LinkedHashMap<>();
        Map<String, List<String>> trialKeysByServer = new LinkedHashMap<>();
        Map<String, WorkloadParams> workloads = new LinkedHashMap<>();
        List<Map.Entry<String, ResultBlock>> blocks = new ArrayList<>();
        Set<String> blockKeys = new java.util.HashSet<>();
        boolean closedLoop = false;
        for (Selection selection : selections) {
            StudyDescriptor study = selection.study();
            for (VariantDescriptor variant : selection.variants()) {
                for (Map<String, String> values : expansion(study, variant)) {
                    ServerConfig server = server(study, variant, values);
                    WorkloadParams workload = workload(study, variant, values);
                    closedLoop |= Profile.CONCURRENT.equals(workload.profile());
                    String trialKey = server.key() + "\n" + workload;
                    servers.putIfAbsent(server.key(), server);
                    List<String> keys = trialKeysByServer.computeIfAbsent(server.key(), k -> new ArrayList<>());
                    if (workloads.putIfAbsent(trialKey, workload) == null) {
                        keys.add(trialKey);
                    }
                    ResultBlock block = new ResultBlock(study.className() + "." + variant.name(), study.className(),
                            variant.name(), variant.group(), variant.baseline(), values, null, variant.recommended(),
                            study.slo(variant.name()), study.minAttainment(variant.name()));
                    // points that differ only in a workload setting their load ignores (a study's rates under -p
                    // profile=sweep, throughput or concurrent) are one trial and would be one block reported twice,
                    // every figure the same under the same name: the block is planned once
                    if (blockKeys.add(block.benchmark() + "\n" + trialKey + "\n" + block.ownParams())) {
                        blocks.add(Map.entry(trialKey, block));
                    }
                }
            }
        }
        checkConcurrencyUsed(selections, closedLoop);
        // Second pass: trials sharing a server run back to back, so each server configuration starts once;
        // ids follow that running order.
        Map<String, Trial> trials = new LinkedHashMap<>();
        int serverIndex = 0;
        for (Map.Entry<String, List<String>> byServer : trialKeysByServer.entrySet()) {
            ServerConfig server = servers.get(byServer.getKey());
            String serverId = String.format("s%02d-%s-%s", ++serverIndex, server.kind().name(), server.hash());
            Map<String, Long> byLoad = byServer.getValue().stream().collect(java.util.stream.Collectors.groupingBy(
                    key -> load(workloads.get(key)), java.util.stream.Collectors.counting()));
            for (String key : byServer.getValue()) {
                WorkloadParams workload = workloads.get(key);
                String load = load(workload);
                // trials of one server that its load alone does not tell apart (two datasets, two request counts)
                // carry their whole workload's hash too, or their keys, which --trial and the JUnit engine go by, clash
                String id = String.format("t%02d-%s-%s-%s", trials.size() + 1, server.kind().name(), server.hash(),
                        byLoad.get(load) > 1 ? load + "-" + ServerConfig.hash(workload.label()) : load);
                trials.put(key, new Trial(id, serverId, server, workload));
            }
        }
        List<ResultBlock> points = blocks.stream().map(e -> {
            ResultBlock p = e.getValue();
            return p.with(trials.get(e.getKey()), p.recommended());
        }).toList();
        return new TrialPlan(points, List.copyOf(trials.values()));
    }

    private void checkOverrideNames(List<Selection> selections) {
        Set<String> known = new LinkedHashSet<>(WORKLOAD_KEYS);
        selections.forEach(s -> s.study().params().forEach(p -> known.add(p.name())));
        for (String key : overrides.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException("-p " + key + ": no selected study has a parameter \"" + key
                        + "\"; expected one of " + String.join(", ", known));
            }
        }
    }

    /**
     * Refuses a {@code -p concurrency} that no selected variant's load uses: the run would be another than the one
     * asked for, without a word ({@code -p concurrency=8} on a study of constant rates ran the rates). A study's own
     * {@code @Param} of that name is an axis of its own, and not checked here. A {@code -p rate} over loads that do not
     * send at a rate stays allowed: it is one trial with them (a sweep's, a closed loop's), and may serve the rate
     * profiles among the selected variants.
     */
    private void checkConcurrencyUsed(List<Selection> selections, boolean closedLoop) {
        String concurrency = WorkloadSetting.CONCURRENCY.key();
        boolean aParam = selections.stream().anyMatch(s -> s.study().param(concurrency).isPresent());
        if (overrides.containsKey(concurrency) && !aParam && !closedLoop) {
            throw new IllegalArgumentException("-p concurrency=" + String.join(",", overrides.get(concurrency))
                    + ": no selected variant's load is a closed loop (profile concurrent), so each would ignore it;"
                    + " expected -p profile=concurrent with it, or -p maxConcurrency=N to cap a rate's requests in flight");
        }
    }

    /** The parameter combinations a variant runs at, each an ordered name → value map. */
    private List<Map<String, String>> expansion(StudyDescriptor study, VariantDescriptor variant) {
        Map<String, List<String>> axes = new LinkedHashMap<>();
        for (ParamSpec param : Studies.paramsUsedBy(study, variant)) {
            axes.put(param.name(), overrides.getOrDefault(param.name(), param.values()));
        }
        for (String key : WORKLOAD_KEYS) {
            if (overrides.containsKey(key) && !axes.containsKey(key)) {
                axes.put(key, overrides.get(key));
            }
        }
        return product(axes);
    }

    /**
     * Every combination of one value per axis, each an ordered name → value map, the first axis varying slowest;
     * one empty map for no axes.
     */
    public static List<Map<String, String>> product(Map<String, List<String>> axes) {
        List<Map<String, String>> product = new ArrayList<>();
        product.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> axis : axes.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : product) {
                for (String value : axis.getValue()) {
                    Map<String, String> extended = new LinkedHashMap<>(partial);
                    extended.put(axis.getKey(), value);
                    next.add(extended);
                }
            }
            product = next;
        }
        return product;
    }

    private ServerConfig server(StudyDescriptor study, VariantDescriptor variant, Map<String, String> values) {
        Map<String, Flag> byName = new LinkedHashMap<>();
        EngineKind engine = EngineKinds.named(Studies.effectiveEngine(study, variant));
        try {
            // the typed options first: the variant's own flags win over the option they spell
            study.serverOptions(variant.name()).flags(engine, study.model()).forEach(f -> byName.put(f.name(), f));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(study.className() + "." + variant.name() + ": " + e.getMessage(), e);
        }
        for (Flag flag : Studies.effectiveFlags(study, variant)) {
            Flag resolved = Flag.parse(Studies.substitute(flag.toArg(), values)).orElseThrow(() -> new IllegalArgumentException(
                    "flag " + flag.toArg() + " of " + study.className() + "." + variant.name() + " is malformed once "
                            + values + " is substituted: " + Flag.problem(Studies.substitute(flag.toArg(), values))));
            byName.put(resolved.name(), resolved);
        }
        String modelConfig = study.serverOptions(variant.name()).simulatedModelConfig();
        return new ServerConfig(engine, study.model(), List.copyOf(byName.values()),
                engineOverrides.applyTo(Studies.effectiveSetup(study, variant)), modelConfig == null ? "" : modelConfig);
    }

    private static WorkloadParams workload(StudyDescriptor study, VariantDescriptor variant, Map<String, String> values) {
        WorkloadOptions spec = WorkloadOptions.DEFAULTS.overriddenBy(Studies.effectiveWorkload(study, variant));
        for (Map.Entry<String, String> value : values.entrySet()) {
            if (WORKLOAD_KEYS.contains(value.getKey())) {
                spec = spec.with(value.getKey(), value.getValue().strip());
            }
        }
        Map<String, String> misfits = StudyChecker.combinationProblems(spec.profile(), spec.dataset(), spec.options());
        if (!misfits.isEmpty()) {
            throw new IllegalArgumentException(study.className() + "." + variant.name() + " with " + values + ": "
                    + String.join("; ", misfits.values()));
        }
        WorkloadParams point = new WorkloadParams(spec.dataset(), spec.profile(), spec.rate(), spec.concurrency(), spec.requests(),
                spec.warmup(), LoadOptionParams.of(spec.options()));
        // a rate that the profile does not use must not tell two trials apart (a sweep at "rate 4" and "rate 8")
        return point.hasRate() ? point : new WorkloadParams(point.dataset(), point.profile(), 0, point.concurrency(),
                point.requests(), point.warmup(), point.options());
    }

    /** A trial id's load part: the profile and its rate or streams ({@code constant-8}, {@code c16}, {@code sweep5}). */
    private static String load(WorkloadParams workload) {
        return switch (workload.profile()) {
            case Profile.CONCURRENT -> "c" + workload.concurrency();
            case Profile.SYNCHRONOUS, Profile.THROUGHPUT, Profile.TRACE -> workload.profile();
            case Profile.SWEEP -> "sweep" + workload.options().sweepRates();
            default -> workload.profile() + "-" + LoadOption.format(workload.rate());
        };
    }

    /** Checks a workload setting's value, as given by {@code source}; throws naming it and what was expected. */
    static void checkWorkloadValue(String key, String value, String source) {
        WorkloadSetting setting = WorkloadSetting.byKey(key).orElse(null);
        String problem = setting == null
                ? LoadOption.byKey(key).orElseThrow(() -> new IllegalStateException("no workload setting " + key)).problem(value)
                : switch (setting) {
                    case DATASET -> Datasets.problem(value);
                    case PROFILE -> PROFILES.contains(value) ? null
                            : "unknown profile \"" + value + "\"; expected one of " + String.join(", ", PROFILES);
                    case RATE, CONCURRENCY, REQUESTS, WARMUP -> numberProblem(setting, value);
                };
        if (problem != null) {
            throw new IllegalArgumentException(source + "=" + value + ": " + problem);
        }
    }

    /** A numeric setting's value: a number (a whole one for a count), in the range the study checker checks too. */
    private static String numberProblem(WorkloadSetting setting, String value) {
        String expected = "expected " + setting.expected() + (setting.wholeNumber() ? " (a whole number)" : ", e.g. 8 or 0.5");
        try {
            double number = setting.wholeNumber() ? Integer.parseInt(value.strip()) : Double.parseDouble(value.strip());
            return setting.inRange(number) ? null : expected;
        } catch (NumberFormatException e) {
            return (setting.wholeNumber() ? "not a whole number; " : "not a number; ") + expected;
        }
    }
}
