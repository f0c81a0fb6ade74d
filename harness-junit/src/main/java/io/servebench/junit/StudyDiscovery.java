package io.servebench.junit;

import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.runner.RunOptions;
import io.servebench.runner.Runner;
import io.servebench.workload.WorkloadSetting;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.DiscoveryFilter;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.ClasspathRootSelector;
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.engine.discovery.PackageNameFilter;
import org.junit.platform.engine.discovery.PackageSelector;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Finds the studies and variants a discovery request selects (classes, variant methods, packages, class-path roots,
 * unique ids of earlier runs) and plans each study into its tree: study → server configuration → trial. The plan is
 * the one the run will carry out, so each trial's test is known before anything starts.
 */
final class StudyDiscovery {

    private final EngineConfiguration config;

    StudyDiscovery(EngineConfiguration config) {
        this.config = config;
    }

    /** Adds a study descriptor for every selected study to {@code engine}. */
    void discover(EngineDiscoveryRequest request, TestDescriptor engine) {
        select(request, engine.getUniqueId()).forEach((study, selected) -> {
            List<String> variants = selected.allVariants ? List.of() : List.copyOf(selected.variants);
            engine.addChild(selected.allTrials ? plan(engine.getUniqueId(), study, variants, List.of())
                    : picked(engine.getUniqueId(), study, variants, selected));
        });
    }

    /**
     * What a request selects of one study: its variants (all, or those named) and of their trials all, or those whose
     * tests or server configurations' containers an IDE asked for again by their unique ids.
     */
    private static final class Selected {
        private final Set<String> variants = new LinkedHashSet<>();
        private final Set<String> trials = new LinkedHashSet<>();
        private final Set<String> servers = new LinkedHashSet<>();
        private boolean allVariants;
        private boolean allTrials;
    }

    /** Each selected study with what was selected of it. */
    private Map<Class<?>, Selected> select(EngineDiscoveryRequest request, UniqueId engineId) {
        Map<Class<?>, Selected> selected = new LinkedHashMap<>();
        Predicate<String> names = classNames(request);
        for (ClassSelector s : request.getSelectorsByType(ClassSelector.class)) {
            whole(selected, s.getJavaClass());
        }
        for (PackageSelector s : request.getSelectorsByType(PackageSelector.class)) {
            ReflectionSupport.findAllClassesInPackage(s.getPackageName(), StudyDiscovery::isStudy, names)
                    .forEach(c -> whole(selected, c));
        }
        for (ClasspathRootSelector s : request.getSelectorsByType(ClasspathRootSelector.class)) {
            ReflectionSupport.findAllClassesInClasspathRoot(s.getClasspathRoot(), StudyDiscovery::isStudy, names)
                    .forEach(c -> whole(selected, c));
        }
        for (MethodSelector s : request.getSelectorsByType(MethodSelector.class)) {
            if (isStudy(s.getJavaClass()) && s.getJavaMethod().isAnnotationPresent(Variant.class)) {
                Selected study = selected.computeIfAbsent(s.getJavaClass(), c -> new Selected());
                study.variants.add(s.getJavaMethod().getName());
                study.allTrials = true;
            }
        }
        for (UniqueIdSelector s : request.getSelectorsByType(UniqueIdSelector.class)) {
            fromUniqueId(selected, engineId, s.getUniqueId());
        }
        return selected;
    }

    /**
     * A study, one of its server configurations or one of its trials, named by a unique id this engine gave in an earlier
     * run (an IDE re-running a test or a container): a trial's id selects the variants it serves and, of their trials,
     * that one; a server configuration's, its trials.
     */
    private static void fromUniqueId(Map<Class<?>, Selected> selected, UniqueId engineId, UniqueId id) {
        List<UniqueId.Segment> segments = id.getSegments();
        if (!id.hasPrefix(engineId) || segments.size() < 2 || !segments.get(1).getType().equals(StudyTestDescriptor.SEGMENT)) {
            return;
        }
        Optional<Class<?>> study = ReflectionSupport.tryToLoadClass(segments.get(1).getValue()).toOptional();
        if (study.isEmpty() || !isStudy(study.get())) {
            return;
        }
        Optional<String> trial = segments.stream().filter(s -> s.getType().equals(TrialTestDescriptor.SEGMENT))
                .map(UniqueId.Segment::getValue).findFirst();
        Optional<String> server = segments.stream().filter(s -> s.getType().equals(ServerTestDescriptor.SEGMENT))
                .map(UniqueId.Segment::getValue).findFirst();
        if (trial.isEmpty() && server.isPresent()) {
            // a server configuration's container: its trials, of whichever variants they serve
            Selected of = selected.computeIfAbsent(study.get(), c -> new Selected());
            of.allVariants = true;
            of.servers.add(server.get());
            return;
        }
        if (trial.isEmpty()) {
            whole(selected, study.get());
            return;
        }
        int at = trial.get().indexOf('@');
        Selected of = selected.computeIfAbsent(study.get(), c -> new Selected());
        of.variants.addAll(Arrays.asList(trial.get().substring(0, at).split("\\+")));
        of.trials.add(trial.get().substring(at + 1));
    }

    private static void whole(Map<Class<?>, Selected> selected, Class<?> type) {
        if (isStudy(type)) {
            Selected study = selected.computeIfAbsent(type, c -> new Selected());
            study.allVariants = true;
            study.allTrials = true;
        }
    }

    private static boolean isStudy(Class<?> type) {
        return type.isAnnotationPresent(ServingBenchmark.class);
    }

    /** The request's class-name and package-name filters, which apply to classes found by scanning. */
    private static Predicate<String> classNames(EngineDiscoveryRequest request) {
        List<DiscoveryFilter<String>> filters = new ArrayList<>();
        filters.addAll(request.getFiltersByType(ClassNameFilter.class));
        filters.addAll(request.getFiltersByType(PackageNameFilter.class));
        return Filter.composeFilters(filters).toPredicate();
    }

    /**
     * The study with the trials an IDE asked for again, from one plan of the selected variants: the trials named by their
     * ids and those of each server configuration named. A named trial the study no longer plans (its flags, params or
     * load changed since the id was given: a trial's key holds its server configuration's hash and its load) makes the
     * study a test that fails saying so; a study that cannot be planned is planned again below, which reports why.
     */
    private StudyTestDescriptor picked(UniqueId engineId, Class<?> study, List<String> variants, Selected selected) {
        List<Trial> planned;
        try {
            planned = new Runner(config.runOptions(study, variants, List.of()), new PrintWriter(Writer.nullWriter())).plan()
                    .trials();
        } catch (RuntimeException e) {
            return plan(engineId, study, variants, List.copyOf(selected.trials));
        }
        List<String> keys = planned.stream().map(Trial::key).toList();
        List<String> missing = selected.trials.stream().filter(t -> !keys.contains(t)).toList();
        if (!missing.isEmpty()) {
            return new StudyTestDescriptor(engineId.append(StudyTestDescriptor.SEGMENT, study.getName()), study, variants,
                    List.copyOf(selected.trials), "the test asked for trial " + String.join(", ", missing) + ", which "
                    + study.getSimpleName() + " no longer plans (its flags, params or load changed since that test was"
                    + " listed); run the study or the variant again to list its trials as they are now ("
                    + String.join(", ", keys) + ")", false);
        }
        Set<String> picked = new LinkedHashSet<>(selected.trials);
        planned.stream().filter(t -> selected.servers.contains(t.serverKey())).map(Trial::key).forEach(picked::add);
        return plan(engineId, study, variants, List.copyOf(picked));
    }

    /** The study's descriptor with its servers and trials, or with the problem that stops it from being planned. */
    private StudyTestDescriptor plan(UniqueId engineId, Class<?> study, List<String> variants, List<String> trials) {
        UniqueId studyId = engineId.append(StudyTestDescriptor.SEGMENT, study.getName());
        RunOptions options = config.runOptions(study, variants, trials);
        Runner runner;
        TrialPlan plan;
        boolean tunes;
        try {
            runner = new Runner(options, new PrintWriter(Writer.nullWriter()));
            plan = runner.plan();
            tunes = runner.tunes();
        } catch (RuntimeException e) {
            return new StudyTestDescriptor(studyId, study, variants, trials, e.getMessage(), false);
        }
        StudyTestDescriptor descriptor = new StudyTestDescriptor(studyId, study, variants, trials, null, tunes);
        if (tunes) {
            // a tuner chooses its trials as it runs: the study is one test, its reasoning in its reports
            return descriptor;
        }
        Map<String, ServerTestDescriptor> servers = new LinkedHashMap<>();
        Map<String, Long> sameName = plan.trials().stream().collect(Collectors.groupingBy(
                t -> t.serverId() + displayName(plan.blocksOf(t), t), Collectors.counting()));
        for (Trial trial : plan.trials()) {
            ServerTestDescriptor server = servers.computeIfAbsent(trial.serverId(), id -> {
                ServerTestDescriptor s = new ServerTestDescriptor(studyId.append(ServerTestDescriptor.SEGMENT, trial.serverKey()), id,
                        runner.serverLabel(trial));
                descriptor.addChild(s);
                return s;
            });
            List<ResultBlock> blocks = plan.blocksOf(trial);
            String served = blocks.stream().map(ResultBlock::variant).distinct().collect(Collectors.joining("+"));
            String name = displayName(blocks, trial);
            if (sameName.get(trial.serverId() + name) > 1) {
                // trials its load does not tell apart (two datasets at one rate) are told apart by what differs
                name += " · " + workloadValues(blocks.get(0));
            }
            server.addChild(new TrialTestDescriptor(server.getUniqueId().append(TrialTestDescriptor.SEGMENT,
                    served + "@" + trial.key()), trial.id(), name, source(study, blocks)));
        }
        return descriptor;
    }

    /** "baseline · constant 4 req/s": the variants the trial serves, with their own params, and its load. */
    private static String displayName(List<ResultBlock> blocks, Trial trial) {
        String variants = blocks.stream().map(b -> {
            List<String> own = List.copyOf(b.ownParams().values());
            return own.isEmpty() ? b.variant() : b.variant() + own;
        }).distinct().collect(Collectors.joining(", "));
        return variants + " · " + trial.workload().loadLabel();
    }

    /**
     * The workload settings a block was given beside its load ({@code dataset=..., requests=20}): what tells apart the
     * trials of one server whose profile and rate or streams are the same.
     */
    private static String workloadValues(ResultBlock block) {
        return WorkloadSetting.besideTheLoad().stream().filter(block.paramValues()::containsKey)
                .map(key -> key + "=" + block.paramValues().get(key)).collect(Collectors.joining(", "));
    }

    /** The first variant's method, so that the IDE can go to it; the class when it cannot be found. */
    private static TestSource source(Class<?> study, List<ResultBlock> blocks) {
        String variant = blocks.get(0).variant();
        return Arrays.stream(study.getMethods()).filter(m -> m.getName().equals(variant) && m.getParameterCount() == 0)
                .findFirst().<TestSource>map(m -> MethodSource.from(study, m)).orElse(ClassSource.from(study));
    }
}
