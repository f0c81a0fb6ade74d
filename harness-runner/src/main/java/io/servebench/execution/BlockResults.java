package io.servebench.execution;

import io.servebench.annotations.Profile;
import io.servebench.engine.Engines;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlanner;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.BlockResult;
import io.servebench.workload.WorkloadSetting;
import io.servebench.workload.LoadOption;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns planned result blocks and what their trials measured into the results the journal and the reports hold:
 * one block per planned block, or one per sweep step, with the params as this run sent them.
 */
public final class BlockResults {

    private BlockResults() {
    }

    /** Why a trial the run never began is not complete. */
    public static final String NOT_RUN = "not run: the run stopped before this trial";

    /**
     * The results of {@code blocks} so far, each with how far its trial got: a trial still running (the run is being
     * stopped) reads as interrupted with the repetitions it completed, one that has not begun as not run.
     */
    public static List<BlockResult> of(List<ResultBlock> blocks, TrialOutcomes outcomes, ExecutionParams execution) {
        List<BlockResult> results = new ArrayList<>();
        for (ResultBlock block : blocks) {
            Trial trial = block.trial();
            WorkloadParams w = execution.asSent(trial.workload());
            List<MeasuredStep> steps = outcomes.steps(trial.id());
            BlockResult.State state = outcomes.state(trial.id());
            String failure = switch (state) {
                case COMPLETE -> null;
                case NOT_RUN -> NOT_RUN;
                default -> outcomes.failure(trial.id()).orElseGet(() -> "interrupted: the run stopped during this trial, "
                        + outcomes.repetitions(trial.id()) + " of " + execution.repetitions() + " repetitions complete");
            };
            for (MeasuredStep step : steps.isEmpty() ? List.of(MeasuredStep.NONE) : steps) {
                results.add(new BlockResult(block.benchmark(), block.className(), block.variant(), block.group(),
                        block.baseline(), params(block, w, step, outcomes, execution), trial.id(), trial.serverId(),
                        step.repetitions(), failure, block.recommended(),
                        Engines.serveCommand(trial.server(), execution.engines()).orElse(null), state,
                        outcomes.incomplete(trial.id())));
            }
        }
        return results;
    }

    /**
     * The block's params in report order: engine, model, the workload as sent, the load options away from their
     * defaults, the sweep step, the flags, the SLOs, then the study's own {@code @Param} values.
     */
    private static Map<String, String> params(ResultBlock block, WorkloadParams w, MeasuredStep step, TrialOutcomes outcomes,
                                              ExecutionParams execution) {
        Trial trial = block.trial();
        Map<String, String> params = new LinkedHashMap<>();
        params.put(BlockResult.ENGINE, Engines.reportedName(trial.server(), execution.engines()));
        params.put(BlockResult.MODEL, trial.server().model());
        params.put(WorkloadSetting.DATASET.key(), w.dataset());
        params.put(WorkloadSetting.PROFILE.key(), w.profile());
        if (Profile.CONCURRENT.equals(w.profile())) {
            params.put(WorkloadSetting.CONCURRENCY.key(), Integer.toString(w.concurrency()));
        } else if (w.hasRate()) {
            params.put(WorkloadSetting.RATE.key(), LoadOption.format(w.rate()));
        } else if (step.rate() != null) {
            params.put(WorkloadSetting.RATE.key(), LoadOption.format(step.rate()));
        }
        params.put(WorkloadSetting.REQUESTS.key(), Integer.toString(w.requests()));
        params.put(WorkloadSetting.WARMUP.key(), Integer.toString(w.warmup()));
        params.putAll(w.options().nonDefault());
        if (step.sweepStep() != null) {
            params.put(BlockResult.SWEEP_STEP, step.sweepStep());
        }
        params.put(BlockResult.FLAGS, String.join(" ", trial.server().args()));
        outcomes.slo(trial.id()).filter(slo -> slo.stated()).ifPresent(slo -> params.put(BlockResult.SLO, slo.toString()));
        // workload values are in already, as this run sends them; a rate a profile ignores stays out
        block.paramValues().forEach((k, v) -> {
            if (!TrialPlanner.WORKLOAD_KEYS.contains(k)) {
                params.putIfAbsent(k, v);
            }
        });
        return params;
    }
}
