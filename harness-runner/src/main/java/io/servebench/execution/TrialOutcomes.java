package io.servebench.execution;

import io.servebench.metrics.SloSpec;
import io.servebench.results.BlockResult;
import io.servebench.results.ServerEnvironment;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a run has found out so far, by trial id: what each trial measured, why it failed, the SLOs of its goodput,
 * and each server's environment. Written by the server sessions and read by the reports, also from the shutdown
 * hook while a trial is still running, so every part is safe to read from another thread.
 */
public final class TrialOutcomes {

    private final Map<String, List<MeasuredStep>> measured = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final Map<String, SloSpec> slos = new ConcurrentHashMap<>();
    private final List<ServerEnvironment> servers = new CopyOnWriteArrayList<>();

    void measured(String trialId, List<MeasuredStep> steps) {
        measured.put(trialId, List.copyOf(steps));
    }

    /** Records why the trial failed (or was not run). */
    public void failed(String trialId, String reason) {
        failures.put(trialId, reason);
    }

    void slo(String trialId, SloSpec slo) {
        slos.put(trialId, slo);
    }

    void server(ServerEnvironment environment) {
        servers.add(environment);
    }

    /** What the trial measured; empty before it ran, or when it failed before its first load finished. */
    List<MeasuredStep> steps(String trialId) {
        return measured.getOrDefault(trialId, List.of());
    }

    /** Why the trial failed; empty while it has not, or did not run yet. */
    public Optional<String> failure(String trialId) {
        return Optional.ofNullable(failures.get(trialId));
    }

    Optional<SloSpec> slo(String trialId) {
        return Optional.ofNullable(slos.get(trialId));
    }

    public List<ServerEnvironment> servers() {
        return List.copyOf(servers);
    }

    /** Trials measured or failed so far. */
    public int finishedTrials() {
        Set<String> ids = new HashSet<>(measured.keySet());
        ids.addAll(failures.keySet());
        return ids.size();
    }

    public int failedTrials() {
        return failures.size();
    }

    /** The repetitions the trial has measured so far (of its first sweep step, for a sweep). */
    public int repetitions(String trialId) {
        List<MeasuredStep> steps = steps(trialId);
        return steps.isEmpty() ? 0 : steps.get(0).repetitions().size();
    }

    /**
     * Puts journalled trials and servers in, as a run that measured them would have: a resumed run's, or what earlier
     * rounds and jobs of a run measured.
     *
     * @return the ids of the trials the lines finish
     */
    public Set<String> load(List<BlockResult> blocks, List<ServerEnvironment> environments) {
        // Per trial, the lines of the first benchmark it served; a trial journalled again (a tuner added a repetition)
        // counts by its last line of each sweep step.
        Map<String, String> firstBenchmark = new LinkedHashMap<>();
        Map<String, Map<String, BlockResult>> lastByStep = new LinkedHashMap<>();
        for (BlockResult block : blocks) {
            String benchmark = firstBenchmark.computeIfAbsent(block.trialId(), k -> block.benchmark());
            if (benchmark.equals(block.benchmark())) {
                lastByStep.computeIfAbsent(block.trialId(), k -> new LinkedHashMap<>())
                        .put(String.valueOf(block.params().get(BlockResult.SWEEP_STEP)), block);
            }
        }
        lastByStep.forEach((trialId, bySteps) -> {
            List<MeasuredStep> steps = new ArrayList<>();
            for (BlockResult block : bySteps.values()) {
                String sweepStep = block.params().get(BlockResult.SWEEP_STEP);
                Double rate = sweepStep != null && block.params().containsKey("rate")
                        ? Double.valueOf(block.params().get("rate")) : null;
                if (!block.repetitions().isEmpty()) {
                    steps.add(new MeasuredStep(sweepStep, rate, block.repetitions()));
                }
            }
            measured(trialId, steps);
            BlockResult last = List.copyOf(bySteps.values()).get(bySteps.size() - 1);
            if (last.failure() != null) {
                failed(trialId, last.failure());
            }
            String slo = last.params().get("slo");
            if (slo != null) {
                slo(trialId, SloSpec.parse(slo));
            }
        });
        environments.forEach(this::server);
        return Set.copyOf(lastByStep.keySet());
    }
}
