package io.servebench.runner;

import io.servebench.tuning.Tuner;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.TrialPlanner;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.BlockResult;
import io.servebench.results.journal.RunJournal;
import io.servebench.study.ParamSpec;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tuner's {@link Tuner.Measurer} for a real run: each configuration it asks for is planned as the planner plans a
 * study's variant, measured once per distinct server configuration and workload (the baseline at the tuning point
 * serves every step), and run through a {@link ServerSession}, trials of one configuration back to back (with
 * {@code --executor slurm}, each call's server configurations as SLURM jobs, one each, waited for together). Trials get
 * ids in the order the tuner first asks for them, so a resumed run, which replays the tuner's decisions from the
 * journal, gives every trial the id it had and finds it measured.
 */
final class AdaptiveRun implements Tuner.Measurer {

    private final RunContext context;
    private final StudyDescriptor study;
    private final TrialOutcomes outcomes;
    private final RunJournal journal;
    private final RunListener listener;
    private final Map<String, Trial> trialsByKey = new LinkedHashMap<>();
    private final Map<String, String> serverIds = new LinkedHashMap<>();
    private final Map<String, ResultBlock> blocksByName = new LinkedHashMap<>();
    private final List<ResultBlock> blocks = new ArrayList<>();
    /** The configuration of each of {@link #blocks}, for the jobs of a SLURM run to plan them as this run did. */
    private final List<Tuner.Candidate> askedFor = new ArrayList<>();
    /** {@code --executor slurm}: each round's jobs; {@code null} to measure here. */
    private final SlurmExecutor slurm;
    private int rounds;
    private Tuner.Candidate recommended;

    AdaptiveRun(RunContext context, StudyDescriptor study, TrialOutcomes outcomes, RunJournal journal,
             RunListener listener) {
        this.context = context;
        this.study = study;
        this.outcomes = outcomes;
        this.journal = journal;
        this.listener = listener;
        this.slurm = context.options().slurm() == null ? null : new SlurmExecutor(context.options(), context.out(), listener);
    }

    /** Every block the tuner measured, in the order it first asked for them. */
    TrialPlan plan() {
        return new TrialPlan(blocks, List.copyOf(trialsByKey.values()));
    }

    /**
     * Measures each candidate up to {@code repetitions}: each server configuration's trials back to back on one engine
     * start, here or, with {@code --executor slurm}, as one job each of this round, all submitted at once.
     */
    @Override
    public List<BlockResult> measure(List<Tuner.Candidate> candidates, int repetitions) {
        // counted also when nothing is left to run: a resumed run replaying the tuner numbers its rounds alike
        int round = ++rounds;
        List<ResultBlock> asked = candidates.stream().map(this::block).toList();
        List<Trial> toRun = new ArrayList<>();
        for (ResultBlock block : asked) {
            Trial trial = block.trial();
            if (!toRun.contains(trial) && measuredRepetitions(trial) < repetitions && outcomes.failure(trial.id()).isEmpty()) {
                toRun.add(trial);
            }
        }
        // one engine start for every trial of a server configuration
        Map<String, List<Trial>> byServer = new LinkedHashMap<>();
        toRun.forEach(t -> byServer.computeIfAbsent(t.serverId(), k -> new ArrayList<>()).add(t));
        try {
            if (slurm != null && !byServer.isEmpty()) {
                List<SlurmExecutor.JobRequest> jobs = new ArrayList<>();
                byServer.forEach((serverId, trials) -> jobs.add(new SlurmExecutor.JobRequest(
                        String.format("r%02d-%s", round, serverId), trials, new AdaptiveJob(askedFor,
                        candidates.stream().filter(c -> trials.contains(block(c).trial())).toList(), repetitions))));
                slurm.run(jobs, plan(), journal, outcomes);
            } else {
                ServerSession session = new ServerSession(context, plan(), outcomes, journal, listener);
                for (List<Trial> trials : byServer.values()) {
                    session.run(trials, outcomes.finishedTrials(), repetitions);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the journal in " + context.options().outputDir(), e);
        }
        return asked.stream().map(b -> BlockResults.of(List.of(b), outcomes, context.options()).get(0)).toList();
    }

    /**
     * A SLURM job's share of a round ({@code --worker}): plans every configuration the run had asked for, in its order,
     * so that each trial gets the coordinator's id, then measures the job's own here.
     *
     * @return the job's blocks and trials
     */
    TrialPlan measure(AdaptiveJob job) {
        job.asked().forEach(this::block);
        measure(job.run(), job.repetitions());
        List<ResultBlock> own = job.run().stream().map(this::block).distinct().toList();
        return new TrialPlan(own, own.stream().map(ResultBlock::trial).distinct().toList());
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

    private int measuredRepetitions(Trial trial) {
        List<MeasuredStep> steps = outcomes.steps(trial.id());
        return steps.isEmpty() ? 0 : steps.get(0).repetitions().size();
    }

    /** The candidate's block, planned (and its trial given its id) the first time it is asked for. */
    private ResultBlock block(Tuner.Candidate candidate) {
        String name = candidate.name() + " @ " + WorkloadParams.formatRate(candidate.rate());
        ResultBlock known = blocksByName.get(name);
        if (known != null) {
            return known;
        }
        VariantDescriptor variant = candidate.variant();
        List<ParamSpec> params = new ArrayList<>();
        for (ParamSpec p : study.params()) {
            if (candidate.paramValues().containsKey(p.name())) {
                params.add(new ParamSpec(p.name(), p.type(), List.of(candidate.paramValues().get(p.name()))));
            } else if (!p.isWorkloadParam()) {
                params.add(p);
            }
        }
        StudyDescriptor one = study.with(params, List.of(variant));
        Map<String, List<String>> overrides = new LinkedHashMap<>(context.options().overrides());
        overrides.put("rate", List.of(WorkloadParams.formatRate(candidate.rate())));
        TrialPlan planned = new TrialPlanner(overrides, context.options().engineOverrides())
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
        askedFor.add(candidate);
        blocksByName.put(name, placed);
        return placed;
    }
}
