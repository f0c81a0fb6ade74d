package io.servebench.runner;

import io.servebench.measure.SloParams;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.WorkloadParams;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.TuneParams;
import io.servebench.study.VariantDescriptor;
import io.servebench.tuning.CapacitySearch;
import io.servebench.tuning.Tuner;
import io.servebench.workload.Datasets;
import io.servebench.workload.LoadOption;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The run strategy of a {@code @Tune} study: the tuner picks each step's trials from what the earlier ones measured. */
final class TunedRun {

    private final RunFolder folder;
    private final StudyDescriptor study;
    private final TuneParams params;

    TunedRun(RunFolder folder, StudyDescriptor study) {
        this.folder = folder;
        this.study = study;
        this.params = study.tuneParams().orElseThrow();
    }

    RunOutcome run(TrialPlan listed, RunListener listener) throws IOException {
        Tuner.Point point = point(listed);
        requireOneSlo();
        Optional<Tuner.CapacityTarget> target = capacityTarget();
        return AdaptiveRun.run(folder, study, listed, listener, String.format("tuning %s at %s by %s",
                study.simpleName(), point.label(), params.label(point.axis().unit())), (measurer, progress, found) -> {
            found.tuning = new Tuner(study, params, point, measurer, progress::step, target).tune();
            return "Recommended: " + found.tuning.recommended() + ".";
        });
    }

    /**
     * The tuning point: the one request rate of the study's trials, or their one number of closed-loop streams.
     *
     * @throws RunnerException for any other load, or more than one point, naming what was found
     */
    private Tuner.Point point(TrialPlan listed) {
        List<String> loads = listed.trials().stream().map(t -> t.workload().loadLabel()).distinct().toList();
        WorkloadParams first = listed.trials().get(0).workload();
        boolean closedLoop = io.servebench.annotations.Profile.CONCURRENT.equals(first.profile());
        if (loads.size() != 1 || !first.hasRate() && !closedLoop) {
            throw new RunnerException(study.className() + " is a tuning study: it tunes at one request rate, its"
                    + " @Workload(rate = ...) or -p rate=R with one value, or at one concurrency, @Workload(concurrency ="
                    + " ...) or -p concurrency=C with one value; found " + String.join(", ", loads));
        }
        if (closedLoop && !params.validationRates().isEmpty()) {
            throw new RunnerException(study.className() + " tunes at concurrency " + first.concurrency() + ", and its"
                    + " validation rates are rates: tune at a request rate, @Workload(rate = ...), for that");
        }
        if (!closedLoop && !params.validationConcurrencies().isEmpty()) {
            throw new RunnerException(study.className() + " tunes at " + LoadOption.format(first.rate())
                    + " " + Datasets.rateUnit(first.dataset()) + ", and its validation concurrencies are numbers of closed-loop streams: tune at a"
                    + " concurrency, @Workload(concurrency = ...), for that, or validate at rates");
        }
        return Tuner.Point.of(first).orElseThrow();
    }

    /**
     * A tuner that ranks by a figure counted under the SLOs (goodput, SLO attainment) needs them, and the same for
     * every candidate: goodput under other bounds is another figure.
     *
     * @throws RunnerException naming what is missing or differs
     */
    private void requireOneSlo() {
        if (!TuneParams.UNDER_SLOS.contains(params.metric())) {
            return;
        }
        SloParams cli = folder.params().options().slo();
        Map<String, List<String>> byBounds = new LinkedHashMap<>();
        study.variants().forEach(v -> byBounds.computeIfAbsent(study.slo(v.name()).overriddenBy(cli).toString(),
                k -> new ArrayList<>()).add(v.name()));
        if (byBounds.size() > 1) {
            throw new RunnerException(study.className() + " ranks by " + params.metric().id() + ", counted under the SLOs,"
                    + " and its variants state different ones (" + byBounds.entrySet().stream().map(e -> e.getValue()
                    + ": " + (e.getKey().isEmpty() ? "none" : e.getKey())).collect(Collectors.joining("; "))
                    + "): a figure under other bounds does not compare; state them once, in @Slo on the class or --slo");
        }
        if (!study.slo(study.baseline().orElseThrow().name()).overriddenBy(cli).stated()) {
            throw new RunnerException(study.className() + " ranks by " + params.metric().id() + ", counted under the SLOs,"
                    + " but states none: give @Slo on the class or --slo (e.g. --slo ttft=200,tpot=30)");
        }
    }

    /** For a tuner that ranks by capacity: the baseline's SLOs and share; empty for any other ranking. */
    private Optional<Tuner.CapacityTarget> capacityTarget() {
        if (!params.byCapacity()) {
            return Optional.empty();
        }
        String baseline = study.baseline().orElseThrow().name();
        SloParams slo = study.slo(baseline).overriddenBy(folder.params().options().slo());
        if (!slo.stated()) {
            throw new RunnerException(study.className() + " ranks by capacity under SLOs but states none: give @Slo on"
                    + " the class or --slo (e.g. --slo ttft=200,tpot=30)");
        }
        return Optional.of(new Tuner.CapacityTarget(study.minAttainment(baseline).orElse(CapacitySearch.DEFAULT_TARGET),
                slo.toString()));
    }

    /** Its steps and candidates, since a tuning study chooses its trials as it runs. */
    void printPlan(TrialPlan listed, PrintWriter out) {
        out.printf("%s is a tuning study: it chooses its trials as it runs, from what the earlier ones measured.%n",
                study.className());
        Map<String, List<String>> groups = new LinkedHashMap<>();
        study.variants().forEach(v -> groups.computeIfAbsent(v.baseline() ? params.engineGroup() : v.group(),
                k -> new ArrayList<>()).add(v.name()));
        int step = 0;
        List<String> engines = groups.getOrDefault(params.engineGroup(), List.of());
        out.printf("  step %d: %s: %s%n", ++step, params.engineGroup(), String.join(", ", engines));
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            if (!g.getKey().equals(params.engineGroup())) {
                out.printf("  step %d: option group %s on the winner: %s%n", ++step, g.getKey(), String.join(", ", g.getValue()));
            }
        }
        out.printf("  step %d: the winning options combined, against the winner and each option alone%n", ++step);
        Tuner.Point point = point(listed);
        if (!params.validationRates().isEmpty()) {
            out.printf("  step %d: baseline vs recommendation at %s %s%n", ++step, params.validationRates().stream()
                    .map(LoadOption::format).collect(Collectors.joining(", ")), point.axis().unit());
        }
        if (!params.validationConcurrencies().isEmpty()) {
            out.printf("  step %d: baseline vs recommendation at concurrency %s%n", ++step,
                    params.validationConcurrencies().stream().map(String::valueOf).collect(Collectors.joining(", ")));
        }
        out.printf("Ranked by %s at %s; up to %d repetitions where a difference of %.0f%% or more is not"
                + " yet significant.%n", params.label(point.axis().unit()), point.label(), params.maxRepetitions(),
                (params.closeCall() - 1) * 100);
    }
}
