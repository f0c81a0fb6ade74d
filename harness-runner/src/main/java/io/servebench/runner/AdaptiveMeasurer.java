package io.servebench.runner;

import io.servebench.execution.BlockResults;
import io.servebench.execution.Executor;
import io.servebench.execution.TrialListener;
import io.servebench.execution.TrialOutcomes;
import io.servebench.load.Interruption;
import io.servebench.tuning.Tuner;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.TrialPlanner;
import io.servebench.results.BlockResult;
import io.servebench.results.journal.RunJournal;
import io.servebench.study.ParamSpec;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;
import io.servebench.workload.WorkloadSetting;
import io.servebench.workload.LoadOption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link Tuner.Measurer} of an adaptive run (a tuner, a capacity search): each configuration it asks for is planned
 * as the planner plans a study's variant, measured once per distinct server configuration and workload (the baseline at
 * the tuning point serves every step), and handed to the run's executor, trials of one configuration in one batch (with
 * {@code --executor slurm}, one job each, keyed by round and server id, waited for together). Trials get ids in the
 * order the tuner first asks for them, so a resumed run, which replays the tuner's decisions from the journal, gives
 * every trial the id it had and finds it measured.
 */
final class AdaptiveMeasurer implements Tuner.Measurer {

    private final RunParams params;
    private final StudyDescriptor study;
    private final Executor executor;
    private final TrialOutcomes outcomes;
    private final RunJournal journal;
    private final TrialListener listener;
    private final Interruption interruption;
    private final Map<String, Trial> trialsByKey = new LinkedHashMap<>();
    private final Map<String, String> serverIds = new LinkedHashMap<>();
    private final Map<String, ResultBlock> blocksByName = new LinkedHashMap<>();
    private final List<ResultBlock> blocks = new ArrayList<>();
    private int rounds;
    private Tuner.Candidate recommended;

    AdaptiveMeasurer(RunParams params, StudyDescriptor study, Executor executor, TrialOutcomes outcomes, RunJournal journal,
                     TrialListener listener, Interruption interruption) {
        this.interruption = interruption;
        this.params = params;
        this.study = study;
        this.executor = executor;
        this.outcomes = outcomes;
        this.journal = journal;
        this.listener = listener;
    }

    /** The run was interrupted during a round: the search stops where it is, deciding nothing more. */
    static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("the run was interrupted", null, false, false);
        }
    }

    /** Every block the tuner measured, in the order it first asked for them. */
    TrialPlan plan() {
        return new TrialPlan(blocks, List.copyOf(trialsByKey.values()));
    }

    /**
     * Measures each candidate up to {@code wanted} repetitions, and at least the run's own ({@code -r}): each server
     * configuration's trials in one batch, all batches of this round handed to the executor at once.
     */
    @Override
    public List<BlockResult> measure(List<Tuner.Candidate> candidates, int wanted) {
        // -r N is a floor under what the tuner or the capacity search asks for: a user who asks for three repetitions
        // (as a block's undecided verdict advises) gets them, and a probe's attainment pools its repetitions' requests
        int repetitions = Math.max(wanted, params.repetitions());
        // counted also when nothing is left to run: a resumed run replaying the tuner numbers its rounds alike
        int round = ++rounds;
        List<ResultBlock> asked = candidates.stream().map(this::block).toList();
        // one engine start for every trial of a server configuration
        Map<String, List<Trial>> byServer = new LinkedHashMap<>();
        for (ResultBlock block : asked) {
            Trial trial = block.trial();
            List<Trial> batch = byServer.computeIfAbsent(trial.serverId(), k -> new ArrayList<>());
            if (!batch.contains(trial) && outcomes.repetitions(trial.id()) < repetitions && outcomes.failure(trial.id()).isEmpty()) {
                batch.add(trial);
            }
        }
        List<Executor.Batch> batches = byServer.entrySet().stream().filter(e -> !e.getValue().isEmpty())
                .map(e -> new Executor.Batch(String.format("r%02d-%s", round, e.getKey()), e.getValue())).toList();
        try {
            if (!batches.isEmpty()) {
                executor.measure(batches, plan(), repetitions, journal, outcomes, listener);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the journal in " + params.outputDir(), e);
        }
        if (interruption.interrupted()) {
            // a search must not decide on what the stop cut short; a resumed run replays it from the journal
            throw new Stopped();
        }
        return asked.stream().map(b -> BlockResults.of(List.of(b), outcomes, params.execution()).get(0)).toList();
    }

    @Override
    public void recommend(Tuner.Candidate candidate) {
        recommended = candidate;
        for (int i = 0; i < blocks.size(); i++) {
            ResultBlock b = blocks.get(i);
            if (isRecommended(b)) {
                ResultBlock marked = b.with(b.trial(), true);
                blocks.set(i, marked);
                blocksByName.replaceAll((k, v) -> v == b ? marked : v);
            }
        }
    }

    /** Whether the block is the recommendation's, at any rate: its blocks asked for later are marked as they are made. */
    private boolean isRecommended(ResultBlock b) {
        return recommended != null && b.variant().equals(recommended.variant().name())
                && b.paramValues().entrySet().containsAll(recommended.paramValues().entrySet());
    }

    /** The candidate's block, planned (and its trial given its id) the first time it is asked for. */
    private ResultBlock block(Tuner.Candidate candidate) {
        Tuner.Point point = candidate.point();
        String name = candidate.name() + " @ " + (point.hasRate() ? LoadOption.format(point.rate())
                : "c" + point.concurrency());
        ResultBlock known = blocksByName.get(name);
        if (known != null) {
            return known;
        }
        VariantDescriptor variant = candidate.variant();
        List<ParamSpec> declared = new ArrayList<>();
        for (ParamSpec p : study.params()) {
            if (candidate.paramValues().containsKey(p.name())) {
                declared.add(new ParamSpec(p.name(), p.type(), List.of(candidate.paramValues().get(p.name()))));
            } else if (!p.isWorkloadParam()) {
                declared.add(p);
            }
        }
        StudyDescriptor one = study.with(declared, List.of(variant));
        Map<String, List<String>> overrides = new LinkedHashMap<>(params.options().overrides());
        if (point.hasRate()) {
            overrides.put(WorkloadSetting.RATE.key(), List.of(LoadOption.format(point.rate())));
        } else {
            overrides.put(WorkloadSetting.CONCURRENCY.key(), List.of(Integer.toString(point.concurrency())));
        }
        TrialPlan planned = new TrialPlanner(overrides, params.options().engineOverrides())
                .plan(List.of(new TrialPlanner.Selection(one, List.of(variant))));
        ResultBlock block = planned.blocks().get(0);
        Trial trial = block.trial();
        String key = trial.server().key() + "\n" + trial.workload();
        Trial numbered = trialsByKey.computeIfAbsent(key, k -> {
            String serverId = serverIds.computeIfAbsent(trial.server().key(), s -> String.format("s%02d", serverIds.size() + 1)
                    + trial.serverId().substring(trial.serverId().indexOf('-')));
            return new Trial(String.format("t%02d", trialsByKey.size() + 1) + trial.id().substring(trial.id().indexOf('-')),
                    serverId, trial.server(), trial.workload());
        });
        ResultBlock unmarked = block.with(numbered, false);
        ResultBlock placed = isRecommended(unmarked) ? block.with(numbered, true) : unmarked;
        blocks.add(placed);
        blocksByName.put(name, placed);
        return placed;
    }
}
