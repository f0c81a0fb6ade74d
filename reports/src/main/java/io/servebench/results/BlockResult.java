package io.servebench.results;

import io.servebench.measure.SloParams;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One result block: one variant at one workload point, with each of its repetitions' metrics.
 *
 * <p>Params are ordered as reports show them: {@code engine}, {@code model}, {@code rate},
 * {@code profile}, {@code requests}, {@code flags}, then the study's {@code @Param} values. The
 * {@code flags} value is the engine arguments, each as {@code --name=value} or {@code --name},
 * joined by single spaces (see {@link #FLAGS}).
 *
 * @param benchmark   {@code className + "." + variant}, as JMH names a benchmark
 * @param className   the study class's fully qualified name
 * @param variant     the variant (method) name
 * @param group       the variant's option group, {@code ""} if none
 * @param baseline    whether this is the study's baseline variant
 * @param params      the trial's parameters, in report order (iteration order is kept)
 * @param trialId     identifies the measured trial; blocks reporting the same measurement share it
 * @param serverId    identifies the engine start that served the trial
 * @param repetitions the complete repetitions, in the order they ran (repetition 1 first): the only ones the block's
 *                    figures come from; empty when none completed
 * @param failure     why the trial is not complete (it failed, was interrupted or did not run), {@code null} when it is
 * @param recommended whether this is the study's recommended variant ({@code @Recommended})
 * @param serveCommand how to start its server configuration by hand, {@code null} when the engine kind has no known
 *                    command (a generic command, an endpoint) or the block was read from elsewhere
 * @param state       how far the trial got; {@code null} reads as {@link State#COMPLETE} without a failure and
 *                    {@link State#FAILED} with one (results written before states were recorded)
 * @param incomplete  the repetitions that did not complete (interrupted, failed), with what they measured, kept for the
 *                    reader and never counted in the block's figures; in the order they ran
 */
public record BlockResult(String benchmark, String className, String variant, String group, boolean baseline,
                          Map<String, String> params, String trialId, String serverId,
                          List<RepetitionResult> repetitions, String failure, boolean recommended,
                          ServeCommand serveCommand, State state, List<IncompleteRepetition> incomplete) {

    /**
     * How far a trial got. Only {@link #COMPLETE} trials ran every repetition; the others keep what their complete
     * repetitions measured and say why they are not complete.
     */
    public enum State {
        /** Every repetition ran to its end. */
        COMPLETE,
        /** The run was stopped (a signal, a SIGKILL found by {@code --resume}) before the trial's last repetition ended. */
        INTERRUPTED,
        /** The engine did not start or died, or a repetition failed (every request, or too large a share, failed). */
        FAILED,
        /** The run was stopped before the trial began. */
        NOT_RUN
    }

    /** Param key holding the engine, as the run reports it (its kind, or the simulated engine standing in for it). */
    public static final String ENGINE = "engine";

    /** Param key holding the served model. */
    public static final String MODEL = "model";

    /** Param key holding the engine flags. */
    public static final String FLAGS = "flags";

    /** Param key holding the SLOs a block's goodput was counted under, where it states any ({@link SloParams}). */
    public static final String SLO = "slo";

    /**
     * The params that say what load a block sent, in the order they are written: the one list of workload keys
     * that the planner, the reports and the comparisons read (the load options follow them).
     */
    public static final List<String> WORKLOAD_PARAMS = io.servebench.workload.WorkloadSetting.keys();

    /**
     * Params the runner sets on a block when the workload sets them away from their defaults: the load options of
     * the {@code @Workload} annotation (profile shape, stop conditions, warm-up time, client options), as the
     * vocabulary names them, once ({@link io.servebench.workload.LoadOption}).
     */
    public static final List<String> LOAD_OPTION_PARAMS = io.servebench.workload.LoadOption.keys();

    /**
     * Param naming the step of a sweep ({@link SweepStep}: {@code s1-synchronous}, {@code s2-throughput},
     * {@code s3-constant}, ...): not a standard param, so that it shows in {@link #displayName()}.
     */
    public static final String SWEEP_STEP = "sweep";

    /** Params the runner sets on every block; any other param is a value of one of the study's {@code @Param} fields. */
    public static final List<String> STANDARD_PARAMS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of(java.util.stream.Stream.of(ENGINE, MODEL), WORKLOAD_PARAMS.stream(),
                    java.util.stream.Stream.of(FLAGS, SLO)).flatMap(s -> s), LOAD_OPTION_PARAMS.stream()).toList();

    public BlockResult {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(trialId, "trialId");
        group = group == null ? "" : group;
        params = params == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(params));
        repetitions = repetitions == null ? List.of() : List.copyOf(repetitions);
        incomplete = incomplete == null ? List.of() : List.copyOf(incomplete);
        if (state == null) {
            state = failure == null ? State.COMPLETE : State.FAILED;
        }
        if (failure == null && repetitions.isEmpty()) {
            throw new IllegalArgumentException("trial " + benchmark + " (" + trialId
                    + ") has no repetitions and no failure message; expected one or the other");
        }
        if ((state == State.COMPLETE) != (failure == null)) {
            throw new IllegalArgumentException("trial " + benchmark + " (" + trialId + ") is " + state
                    + (failure == null ? " without saying why" : " but has a failure: " + failure));
        }
    }

    /** A block whose state follows from its failure, with no incomplete repetitions. */
    public BlockResult(String benchmark, String className, String variant, String group, boolean baseline,
                       Map<String, String> params, String trialId, String serverId, List<RepetitionResult> repetitions,
                       String failure, boolean recommended, ServeCommand serveCommand) {
        this(benchmark, className, variant, group, baseline, params, trialId, serverId, repetitions, failure, recommended,
                serveCommand, null, List.of());
    }

    /** A block without a serve command. */
    public BlockResult(String benchmark, String className, String variant, String group, boolean baseline,
                       Map<String, String> params, String trialId, String serverId, List<RepetitionResult> repetitions,
                       String failure, boolean recommended) {
        this(benchmark, className, variant, group, baseline, params, trialId, serverId, repetitions, failure, recommended,
                null);
    }

    /** A block of a variant that is not the recommended one, without a serve command. */
    public BlockResult(String benchmark, String className, String variant, String group, boolean baseline,
                       Map<String, String> params, String trialId, String serverId, List<RepetitionResult> repetitions,
                       String failure) {
        this(benchmark, className, variant, group, baseline, params, trialId, serverId, repetitions, failure, false);
    }

    /**
     * What the block's rate counts ({@link #pacesConversations()}): {@code conversations/s} for multi-turn
     * conversations, else {@code req/s}.
     */
    public String rateUnit() {
        return io.servebench.workload.Datasets.rateUnit(pacesConversations());
    }

    /**
     * Whether a rate of this block paces conversations (multi-turn ones, each turn sent when the one before it ended),
     * not requests: as its dataset says, or, for results whose dataset is not a spec ServeBench reads, as its measured
     * turns show.
     */
    public boolean pacesConversations() {
        return io.servebench.workload.Datasets.pacesConversations(params.get(io.servebench.workload.WorkloadSetting.DATASET.key()))
                || repetitions.stream().anyMatch(r -> !r.turns().isEmpty());
    }

    /**
     * The variant with the values of the study parameters it was expanded over, as reports name it:
     * {@code maxNumSeqs[128]}; just the variant when it has none.
     */
    public String displayName() {
        List<String> values = params.entrySet().stream().filter(e -> !STANDARD_PARAMS.contains(e.getKey()))
                .map(Map.Entry::getValue).toList();
        return values.isEmpty() ? variant : variant + values;
    }

    /** Whether the trial is complete: every repetition ran to its end. */
    public boolean succeeded() {
        return state == State.COMPLETE;
    }
}
