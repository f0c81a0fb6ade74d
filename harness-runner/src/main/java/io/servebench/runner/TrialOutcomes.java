package io.servebench.runner;

import io.servebench.metrics.SloSpec;
import io.servebench.results.ServerEnvironment;

import java.util.HashSet;
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
final class TrialOutcomes {

    private final Map<String, List<MeasuredStep>> measured = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final Map<String, SloSpec> slos = new ConcurrentHashMap<>();
    private final List<ServerEnvironment> servers = new CopyOnWriteArrayList<>();

    void measured(String trialId, List<MeasuredStep> steps) {
        measured.put(trialId, List.copyOf(steps));
    }

    void failed(String trialId, String reason) {
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

    Optional<String> failure(String trialId) {
        return Optional.ofNullable(failures.get(trialId));
    }

    Optional<SloSpec> slo(String trialId) {
        return Optional.ofNullable(slos.get(trialId));
    }

    List<ServerEnvironment> servers() {
        return List.copyOf(servers);
    }

    /** Trials measured or failed so far. */
    int finishedTrials() {
        Set<String> ids = new HashSet<>(measured.keySet());
        ids.addAll(failures.keySet());
        return ids.size();
    }

    int failedTrials() {
        return failures.size();
    }
}
