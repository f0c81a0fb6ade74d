package io.servebench.execution;

import io.servebench.measure.SloParams;
import io.servebench.results.BlockResult;
import io.servebench.results.IncompleteRepetition;
import io.servebench.results.RepetitionResult;
import io.servebench.results.ServerEnvironment;
import io.servebench.results.journal.JournalledRepetition;
import io.servebench.results.journal.RunJournal;
import io.servebench.workload.WorkloadSetting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a run has found out so far, by trial id: what each trial measured (its complete repetitions, kept as each ends),
 * its repetitions that did not complete, how it ended (complete, failed, interrupted) or that it is still running, the
 * SLOs of its goodput, and each server's environment. Written by the server sessions and read by the reports, also
 * from a shutdown hook while a trial is still running, so every part is safe to read from another thread.
 */
public final class TrialOutcomes {

    /** How a trial ended: {@link BlockResult.State#COMPLETE}, {@code FAILED} or {@code INTERRUPTED}, and why. */
    private record Ended(BlockResult.State state, String reason) {
    }

    private final Map<String, List<MeasuredStep>> measured = new ConcurrentHashMap<>();
    private final Map<String, List<IncompleteRepetition>> incomplete = new ConcurrentHashMap<>();
    private final Map<String, Ended> ended = new ConcurrentHashMap<>();
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final Map<String, SloParams> slos = new ConcurrentHashMap<>();
    private final List<ServerEnvironment> servers = new CopyOnWriteArrayList<>();

    /**
     * The trial starts (again): it is running until it ends, and an earlier failure or interruption of it no longer
     * stands; its complete and incomplete repetitions stay.
     */
    void started(String trialId) {
        ended.remove(trialId);
        running.add(trialId);
    }

    /** What the trial has measured so far: its complete repetitions (of each step, for a sweep). */
    void measured(String trialId, List<MeasuredStep> steps) {
        measured.put(trialId, List.copyOf(steps));
    }

    /** A repetition of the trial that did not complete, kept with what it measured. */
    void incomplete(String trialId, IncompleteRepetition repetition) {
        incomplete.computeIfAbsent(trialId, k -> new CopyOnWriteArrayList<>()).add(repetition);
    }

    /** The trial ran every repetition it was to run. */
    void completed(String trialId) {
        end(trialId, new Ended(BlockResult.State.COMPLETE, null));
    }

    /** Records why the trial failed (or could not run): its engine, its load, or a repetition failed. */
    public void failed(String trialId, String reason) {
        end(trialId, new Ended(BlockResult.State.FAILED, reason));
    }

    /** Records that the run was stopped during the trial, and what was kept. */
    public void interrupted(String trialId, String reason) {
        end(trialId, new Ended(BlockResult.State.INTERRUPTED, reason));
    }

    private void end(String trialId, Ended how) {
        ended.put(trialId, how);
        running.remove(trialId);
    }

    void slo(String trialId, SloParams slo) {
        slos.put(trialId, slo);
    }

    void server(ServerEnvironment environment) {
        servers.add(environment);
    }

    /** What the trial measured; empty before it ran, or when no repetition of it completed. */
    List<MeasuredStep> steps(String trialId) {
        return measured.getOrDefault(trialId, List.of());
    }

    /** The trial's repetitions that did not complete, in the order they ran. */
    List<IncompleteRepetition> incomplete(String trialId) {
        return List.copyOf(incomplete.getOrDefault(trialId, List.of()));
    }

    /**
     * How far the trial got: as it ended; {@code INTERRUPTED} while it runs (the reports of a run stopped now) or when
     * the journal shows it running when the harness stopped; {@code NOT_RUN} before it starts.
     */
    public BlockResult.State state(String trialId) {
        Ended how = ended.get(trialId);
        if (how != null) {
            return how.state();
        }
        return running.contains(trialId) || !steps(trialId).isEmpty() || incomplete.containsKey(trialId)
                ? BlockResult.State.INTERRUPTED : BlockResult.State.NOT_RUN;
    }

    /** Why the trial failed or was interrupted as it ended; empty while it runs, before it ran, or when it completed. */
    public Optional<String> failure(String trialId) {
        return Optional.ofNullable(ended.get(trialId)).map(Ended::reason);
    }

    Optional<SloParams> slo(String trialId) {
        return Optional.ofNullable(slos.get(trialId));
    }

    public List<ServerEnvironment> servers() {
        return List.copyOf(servers);
    }

    /** Trials that ended so far, whichever way. */
    public int finishedTrials() {
        return ended.size();
    }

    /** Trials that ended as failed. */
    public int failedTrials() {
        return (int) ended.values().stream().filter(e -> e.state() == BlockResult.State.FAILED).count();
    }

    /** The repetitions the trial has completed so far (of its first sweep step, for a sweep). */
    public int repetitions(String trialId) {
        List<MeasuredStep> steps = steps(trialId);
        return steps.isEmpty() ? 0 : steps.get(0).repetitions().size();
    }

    /**
     * Puts journalled trials, repetitions and servers in, as a run that measured them would have: a resumed run's, or
     * what earlier rounds and jobs of a run measured. A trial whose repetitions were journalled after its last block line
     * (or without one) was running when the harness stopped: it keeps those repetitions and reads as interrupted.
     *
     * @return the ids of the trials the lines name
     */
    public Set<String> load(List<RunJournal.Entry> entries, List<ServerEnvironment> environments) {
        // Per trial, the lines of the first benchmark it served; a trial journalled again (a tuner added a repetition)
        // counts by its last line of each sweep step.
        Map<String, String> firstBenchmark = new LinkedHashMap<>();
        Map<String, Map<String, BlockResult>> lastByStep = new LinkedHashMap<>();
        Map<String, TreeMap<Integer, RepetitionResult>> repetitionLines = new LinkedHashMap<>();
        Map<String, List<IncompleteRepetition>> incompleteLines = new LinkedHashMap<>();
        Set<String> runningAtEnd = new java.util.LinkedHashSet<>();
        for (RunJournal.Entry entry : entries) {
            if (entry.repetition() != null) {
                JournalledRepetition r = entry.repetition();
                if (r.complete() != null) {
                    repetitionLines.computeIfAbsent(r.trialId(), k -> new TreeMap<>()).put(r.number(), r.complete());
                } else {
                    incompleteLines.computeIfAbsent(r.trialId(), k -> new ArrayList<>()).add(r.incomplete());
                }
                runningAtEnd.add(r.trialId());
                continue;
            }
            BlockResult block = entry.block();
            String benchmark = firstBenchmark.computeIfAbsent(block.trialId(), k -> block.benchmark());
            if (benchmark.equals(block.benchmark())) {
                lastByStep.computeIfAbsent(block.trialId(), k -> new LinkedHashMap<>())
                        .put(String.valueOf(block.params().get(BlockResult.SWEEP_STEP)), block);
                runningAtEnd.remove(block.trialId());
            }
        }
        lastByStep.forEach((trialId, bySteps) -> {
            List<MeasuredStep> steps = new ArrayList<>();
            for (BlockResult block : bySteps.values()) {
                String sweepStep = block.params().get(BlockResult.SWEEP_STEP);
                Double rate = sweepStep != null && block.params().containsKey(WorkloadSetting.RATE.key())
                        ? Double.valueOf(block.params().get(WorkloadSetting.RATE.key())) : null;
                if (!block.repetitions().isEmpty()) {
                    steps.add(new MeasuredStep(sweepStep, rate, block.repetitions()));
                }
            }
            measured(trialId, steps);
            BlockResult last = List.copyOf(bySteps.values()).get(bySteps.size() - 1);
            last.incomplete().forEach(r -> incomplete(trialId, r));
            switch (last.state()) {
                case COMPLETE -> completed(trialId);
                case FAILED -> failed(trialId, last.failure());
                case INTERRUPTED -> interrupted(trialId, last.failure());
                case NOT_RUN -> {
                    // nothing ran: the trial is as new
                }
            }
            String slo = last.params().get(BlockResult.SLO);
            if (slo != null) {
                slo(trialId, SloParams.parse(slo));
            }
        });
        // repetitions that ended after their trial's last block line: it was running when the harness stopped
        for (String trialId : runningAtEnd) {
            TreeMap<Integer, RepetitionResult> complete = repetitionLines.getOrDefault(trialId, new TreeMap<>());
            if (!complete.isEmpty()) {
                measured(trialId, List.of(new MeasuredStep(null, null, List.copyOf(complete.values()))));
            }
            List<IncompleteRepetition> known = incomplete(trialId);
            incompleteLines.getOrDefault(trialId, List.of()).stream().filter(r -> !known.contains(r))
                    .forEach(r -> incomplete(trialId, r));
            ended.remove(trialId);
            running.remove(trialId);
        }
        environments.forEach(this::server);
        Set<String> named = new java.util.LinkedHashSet<>(lastByStep.keySet());
        named.addAll(runningAtEnd);
        return Set.copyOf(named);
    }
}
