package io.servebench.junit;

import io.servebench.annotations.ServingBenchmark;
import io.servebench.annotations.Variant;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.runner.RunOptions;
import io.servebench.runner.Runner;
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
        Map<Class<?>, Set<String>> selected = select(request, engine.getUniqueId());
        selected.forEach((study, variants) -> engine.addChild(plan(engine.getUniqueId(), study, List.copyOf(variants))));
    }

    /** Each selected study with the variants selected of it; an empty set selects them all. */
    private Map<Class<?>, Set<String>> select(EngineDiscoveryRequest request, UniqueId engineId) {
        Map<Class<?>, Set<String>> selected = new LinkedHashMap<>();
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
                variant(selected, s.getJavaClass(), s.getJavaMethod().getName());
            }
        }
        for (UniqueIdSelector s : request.getSelectorsByType(UniqueIdSelector.class)) {
            fromUniqueId(selected, engineId, s.getUniqueId());
        }
        return selected;
    }

    /**
     * A study, or the variants of one of its trials, named by a unique id this engine gave in an earlier run (an IDE
     * re-running a test). A trial's id selects the variants it serves; their other trials run too.
     */
    private static void fromUniqueId(Map<Class<?>, Set<String>> selected, UniqueId engineId, UniqueId id) {
        List<UniqueId.Segment> segments = id.getSegments();
        if (!id.hasPrefix(engineId) || segments.size() < 2 || !segments.get(1).getType().equals(StudyTestDescriptor.SEGMENT)) {
            return;
        }
        Optional<Class<?>> study = ReflectionSupport.tryToLoadClass(segments.get(1).getValue()).toOptional();
        if (study.isEmpty() || !isStudy(study.get())) {
            return;
        }
        Optional<String> variants = segments.stream().filter(s -> s.getType().equals(TrialTestDescriptor.SEGMENT))
                .map(UniqueId.Segment::getValue).findFirst().map(v -> v.substring(0, v.indexOf('@')));
        if (variants.isEmpty()) {
            whole(selected, study.get());
        } else {
            Arrays.stream(variants.get().split("\\+")).forEach(v -> variant(selected, study.get(), v));
        }
    }

    private static void whole(Map<Class<?>, Set<String>> selected, Class<?> type) {
        if (isStudy(type)) {
            selected.put(type, Set.of());
        }
    }

    private static void variant(Map<Class<?>, Set<String>> selected, Class<?> type, String variant) {
        Set<String> variants = selected.get(type);
        if (variants == null) {
            selected.put(type, new LinkedHashSet<>(List.of(variant)));
        } else if (!variants.isEmpty()) {
            variants.add(variant);
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

    /** The study's descriptor with its servers and trials, or with the problem that stops it from being planned. */
    private StudyTestDescriptor plan(UniqueId engineId, Class<?> study, List<String> variants) {
        UniqueId studyId = engineId.append(StudyTestDescriptor.SEGMENT, study.getName());
        RunOptions options = config.runOptions(study, variants);
        Runner runner;
        TrialPlan plan;
        boolean tunes;
        try {
            runner = new Runner(options, new PrintWriter(Writer.nullWriter()));
            plan = runner.plan();
            tunes = runner.tunes();
        } catch (RuntimeException e) {
            return new StudyTestDescriptor(studyId, study, variants, e.getMessage());
        }
        StudyTestDescriptor descriptor = new StudyTestDescriptor(studyId, study, variants, null);
        if (tunes) {
            // a tuner chooses its trials as it runs: the study is one test, its reasoning in its reports
            return descriptor;
        }
        Map<String, ServerTestDescriptor> servers = new LinkedHashMap<>();
        for (Trial trial : plan.trials()) {
            ServerTestDescriptor server = servers.computeIfAbsent(trial.serverId(), id -> {
                ServerTestDescriptor s = new ServerTestDescriptor(studyId.append(ServerTestDescriptor.SEGMENT, stable(id)), id,
                        runner.serverLabel(trial));
                descriptor.addChild(s);
                return s;
            });
            List<ResultBlock> blocks = plan.blocksOf(trial);
            String served = blocks.stream().map(ResultBlock::variant).distinct().collect(Collectors.joining("+"));
            server.addChild(new TrialTestDescriptor(server.getUniqueId().append(TrialTestDescriptor.SEGMENT,
                    served + "@" + stable(trial.id())), trial.id(), displayName(blocks, trial), source(study, blocks)));
        }
        return descriptor;
    }

    /** An id without the plan's running number ({@code s01-}, {@code t03-}), so that it is the same in every plan. */
    private static String stable(String planId) {
        return planId.substring(planId.indexOf('-') + 1);
    }

    /** "baseline · constant 4 req/s": the variants the trial serves, with their own params, and its load. */
    private static String displayName(List<ResultBlock> blocks, Trial trial) {
        String variants = blocks.stream().map(b -> {
            List<String> own = List.copyOf(b.ownParams().values());
            return own.isEmpty() ? b.variant() : b.variant() + own;
        }).distinct().collect(Collectors.joining(", "));
        return variants + " · " + trial.workload().loadLabel();
    }

    /** The first variant's method, so that the IDE can go to it; the class when it cannot be found. */
    private static TestSource source(Class<?> study, List<ResultBlock> blocks) {
        String variant = blocks.get(0).variant();
        return Arrays.stream(study.getMethods()).filter(m -> m.getName().equals(variant) && m.getParameterCount() == 0)
                .findFirst().<TestSource>map(m -> MethodSource.from(study, m)).orElse(ClassSource.from(study));
    }
}
