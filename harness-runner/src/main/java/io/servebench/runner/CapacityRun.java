package io.servebench.runner;

import io.servebench.measure.SloParams;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.CapacityResult;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;
import io.servebench.tuning.CapacitySearch;
import io.servebench.tuning.Tuner;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The run strategy of {@code --capacity}: for each selected variant at each point of its own parameters, the highest
 * request rate (or, for a closed-loop load, number of streams) at which its SLOs hold for the target share of requests,
 * by bracketing and bisection from its declared rate (or concurrency).
 */
final class CapacityRun {

    private final RunFolder folder;
    private final StudyDescriptor study;

    CapacityRun(RunFolder folder, StudyDescriptor study) {
        this.folder = folder;
        this.study = study;
    }

    /**
     * Where the search starts for the block's load, and what it varies: its rate, or for a closed loop its streams. Any
     * other load (all at once, one at a time, a sweep, a trace's times) has neither, and is refused: searching a rate it
     * does not send at would measure one load again and again and report a capacity never measured.
     */
    private static Tuner.Point point(ResultBlock b) {
        WorkloadParams w = b.trial().workload();
        return Tuner.Point.of(w).orElseThrow(() -> new RunnerException("--capacity searches a request rate (profile"
                + " constant, poisson or gamma) or a number of closed-loop streams (profile concurrent); " + name(b) + "'s load is " + w.loadLabel()
                + ", which has neither: give it one, e.g. -p profile=poisson -p rate=8, or -p profile=concurrent"
                + " -p concurrency=16"));
    }

    /** {@code SimStudy.baseline}: the block's study and variant, as the console and the refusals name it. */
    private static String name(ResultBlock b) {
        return b.className().substring(b.className().lastIndexOf('.') + 1) + "." + b.variant();
    }

    RunOutcome run(TrialPlan listed, RunListener listener) throws IOException {
        List<String> classes = listed.blocks().stream().map(ResultBlock::className).distinct().toList();
        if (classes.size() != 1) {
            throw new RunnerException("--capacity searches the variants of one study at a time; the selection holds " + classes);
        }
        RunOptions options = folder.params().options();
        // each selected variant at each point of its own parameters, in plan order
        Map<String, ResultBlock> configurations = new LinkedHashMap<>();
        for (ResultBlock b : listed.blocks()) {
            configurations.putIfAbsent(b.variant() + b.ownParams(), b);
        }
        for (ResultBlock b : configurations.values()) {
            if (!b.slo().overriddenBy(options.slo()).stated()) {
                throw new RunnerException("--capacity needs SLOs for " + b.benchmark() + ": give --slo (e.g. --slo"
                        + " ttft=200,tpot=30) or @Slo on the study or the variant");
            }
            point(b);
        }

        return AdaptiveRun.run(folder, study, listed, listener, "capacity under SLOs of " + configurations.size()
                + " configuration(s) of " + study.simpleName(), (measurer, progress, found) -> {
            int n = 0;
            for (ResultBlock b : configurations.values()) {
                VariantDescriptor variant = study.variant(b.variant()).orElseThrow();
                SloParams slo = b.slo().overriddenBy(options.slo());
                double target = options.capacity().orElseThrow().share()
                        .orElse(b.minAttainment().orElse(CapacitySearch.DEFAULT_TARGET));
                Tuner.Candidate candidate = new Tuner.Candidate(variant, b.ownParams(), point(b));
                CapacityResult.Axis axis = candidate.point().axis();
                // a study of several rates (a rate sweep) starts from its first: the console says from where
                progress.step(String.format("capacity %d of %d: %s, from %s", ++n, configurations.size(), candidate.name(),
                        candidate.point().label()));
                found.capacities.add(new CapacitySearch(target, CapacitySearch.DEFAULT_PRECISION, CapacitySearch.DEFAULT_PROBES)
                        .search(b.className().substring(b.className().lastIndexOf('.') + 1) + "." + candidate.name(),
                                slo.toString(), axis, candidate.point().load(), load -> CapacitySearch.attained(
                                        measurer.measure(List.of(candidate.at(Tuner.Point.of(axis, load))), 1).get(0))));
            }
            return "Capacity: " + found.capacities.stream().map(CapacityResult::describe)
                    .collect(Collectors.joining("; ")) + ".";
        });
    }
}
