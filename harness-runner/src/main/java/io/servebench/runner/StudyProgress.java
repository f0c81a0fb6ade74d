package io.servebench.runner;

import io.servebench.plan.Trial;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.BlockResult;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The whole run's progress, next to each trial's own bar: trials done of the total (a trial that failed or was
 * interrupted is counted as such, never as done), server starts, time elapsed and an estimate of the time left,
 * printed as a line whenever a server starts or a trial ends, and (by {@link Runner}) every half minute in between when
 * the output is not a terminal, so a log shows the run is alive.
 *
 * <p>The estimate scales what is left of the plan by what the run has seen so far: each trial's planned seconds of
 * load (its requests over its rate; a trial without a rate counts its requests as seconds) times the measured ratio of
 * time taken to planned load, plus the mean time of a server start for each start still to come. A tuner adds the
 * step it is at through {@link #step(String)}.
 */
final class StudyProgress implements RunListener {

    private final PrintWriter out;
    private final RunParams params;
    private final int trials;
    private final long serverStarts;
    private final boolean estimates;
    private final LongSupplier nanoClock;
    private final long startNs;
    private final double plannedSeconds;

    /** Trials finished before this run (a resumed run's), counted as done. */
    private final int finishedBefore;
    /**
     * How each trial this run ended, by trial id: a tuner's round that re-measures one counts it once, as it last
     * ended.
     */
    private final Map<String, BlockResult.State> ended = new HashMap<>();
    /** Measurements ended, each trial's every one: what the trials' lines number {@code [k/n]}. */
    private int measurements;
    private int startsDone;
    private double donePlannedSeconds;
    private long trialNs;
    private long startingNs;
    private long startsNs;
    private long phaseStartNs = -1;
    private boolean inStart;
    private String step = "";

    /**
     * @param toRun        the trials this run will run, in order (a resumed run leaves out those it had finished)
     * @param finished     trials finished before (a resumed run's), counted as done
     * @param serverStarts the starts {@code toRun} needs; negative when not known in advance (a tuner chooses its
     *                     trials as it goes), and the line then counts without totals or an estimate
     * @param estimates    whether the time so far predicts the time left: not for jobs that wait in a queue and run side
     *                     by side (SLURM)
     */
    StudyProgress(PrintWriter out, RunParams params, List<Trial> toRun, int finished, long serverStarts,
                  boolean estimates, LongSupplier nanoClock) {
        this.out = out;
        this.params = params;
        this.trials = toRun.size() + finished;
        this.finishedBefore = finished;
        this.serverStarts = serverStarts;
        this.estimates = estimates;
        this.nanoClock = nanoClock;
        this.startNs = nanoClock.getAsLong();
        this.plannedSeconds = toRun.stream().mapToDouble(this::plannedSeconds).sum();
    }

    /** The tuner's current step, e.g. {@code option group 3 of 5: max-num-seqs}; shown on every line after. */
    synchronized void step(String description) {
        step = description;
        out.println(line());
    }

    @Override
    public synchronized void serverStarting(List<Trial> serverTrials) {
        inStart = true;
        phaseStartNs = nanoClock.getAsLong();
        // the status follows each trial; before a start too only verbose, where a long start has lines of its own
        if (params.options().verbose()) {
            out.println(line());
        }
    }

    @Override
    public synchronized void trialStarting(Trial trial) {
        long now = nanoClock.getAsLong();
        if (inStart) {
            startsDone++;
            startsNs += now - phaseStartNs;
            inStart = false;
        }
        phaseStartNs = now;
        startingNs = now;
    }

    @Override
    public synchronized void trialFinished(Trial trial, List<BlockResult> blocks) {
        ended.put(trial.id(), outcome(blocks));
        measurements++;
        donePlannedSeconds += plannedSeconds(trial);
        trialNs += nanoClock.getAsLong() - startingNs;
        phaseStartNs = -1;
        out.println(line());
    }

    /** The status line, as printed now. */
    synchronized String line() {
        boolean planned = serverStarts >= 0;
        long done = finishedBefore + count(BlockResult.State.COMPLETE);
        long failed = count(BlockResult.State.FAILED);
        long interrupted = count(BlockResult.State.INTERRUPTED);
        StringBuilder sb = new StringBuilder("Study: ").append(done).append(planned ? " of " + trials : "")
                .append(" trials done, ");
        if (measurements > ended.size()) {
            // a tuner's close call measures a trial again, and the trials' lines number each measurement
            sb.setLength(sb.length() - 2);
            sb.append(" in ").append(finishedBefore + measurements).append(" measurements, ");
        }
        if (failed > 0) {
            sb.append(failed).append(" failed, ");
        }
        if (interrupted > 0) {
            sb.append(interrupted).append(" interrupted, ");
        }
        long notRun = count(BlockResult.State.NOT_RUN);
        if (notRun > 0) {
            sb.append(notRun).append(" not run, ");
        }
        sb.append(startsDone).append(planned ? " of " + serverStarts : "")
                .append(" server starts, ").append(format(Duration.ofNanos(nanoClock.getAsLong() - startNs))).append(" elapsed");
        eta().ifPresent(eta -> sb.append(", about ").append(format(eta)).append(" left"));
        if (!step.isEmpty()) {
            sb.append(" · ").append(step);
        }
        return sb.toString();
    }

    /**
     * How a trial ended, from its blocks: failed if any block failed, complete if every block is, not run if none
     * began, else interrupted.
     */
    private static BlockResult.State outcome(List<BlockResult> blocks) {
        List<BlockResult.State> states = blocks.stream().map(BlockResult::state).toList();
        if (states.contains(BlockResult.State.FAILED)) {
            return BlockResult.State.FAILED;
        }
        if (states.stream().allMatch(s -> s == BlockResult.State.COMPLETE)) {
            return BlockResult.State.COMPLETE;
        }
        return states.stream().allMatch(s -> s == BlockResult.State.NOT_RUN) ? BlockResult.State.NOT_RUN
                : BlockResult.State.INTERRUPTED;
    }

    private long count(BlockResult.State state) {
        return ended.values().stream().filter(state::equals).count();
    }

    /**
     * What is left: empty until a trial and a server start have been timed, as nothing can be scaled before, and once
     * every trial has ended (a run that ends says so itself).
     */
    Optional<Duration> eta() {
        if (!estimates || serverStarts < 0 || donePlannedSeconds <= 0 || startsDone == 0
                || finishedBefore + ended.size() >= trials) {
            return Optional.empty();
        }
        double perPlannedSecond = trialNs / 1e9 / donePlannedSeconds;
        double left = (plannedSeconds - donePlannedSeconds) * perPlannedSecond
                + (serverStarts - startsDone) * (startsNs / 1e9 / startsDone);
        return Optional.of(Duration.ofMillis(Math.max(0, Math.round(left * 1000))));
    }

    private double plannedSeconds(Trial trial) {
        WorkloadParams sent = params.execution().asSent(trial.workload());
        double seconds = sent.hasRate() ? sent.requests() / sent.rate() : sent.requests();
        return seconds * params.repetitions();
    }

    static String format(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format("%dm%02ds", s / 60, s % 60);
        }
        return String.format("%dh%02dm", s / 3600, s / 60 % 60);
    }
}
