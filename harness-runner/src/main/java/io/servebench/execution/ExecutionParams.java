package io.servebench.execution;

import io.servebench.annotations.Profile;
import io.servebench.engine.EngineParams;
import io.servebench.measure.SloParams;
import io.servebench.metrics.gpu.TelemetryParams;
import io.servebench.plan.WorkloadParams;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How an executor measures trials, resolved once from what the user asked for: where results go, how engines start,
 * how many repetitions, which seeds, what the client sends. Holds no study and no run mode: the same values measure a
 * planned run's trials, a tuner's and a SLURM job's.
 *
 * @param outputDir   the run folder ({@code logs/}, {@code requests/}, the journal)
 * @param engines     how engines are started, and whether the simulated engine replaces them
 * @param repetitions independent runs of each trial (JMH's forks), unless a caller asks for more
 * @param seed        the run's seed, from which each repetition's seeds are derived
 * @param freshServer start a server for every trial instead of reusing one across trials of one configuration
 * @param settle      pause between two loads on one server, after its prefix cache was reset
 * @param slice       the length of the time slices a long load reports its figures in
 * @param client      the HTTP client's API key variable and timeouts
 * @param slo         the command line's SLOs ({@code --slo}), laid over each block's declared ones bound by bound
 * @param progress    whether each trial's progress is shown
 * @param verbose     whether each load's start and its time slices get console lines of their own too ({@code -v});
 *                    without, a repetition's one line says it all
 * @param quick       shorten every trial to about {@link #QUICK_SECONDS} seconds of load
 * @param telemetry   how the engines' GPUs are sampled during each load
 * @param maxFailedShare the largest share of a repetition's measured requests that may fail, in {@code [0, 1]}: a
 *                    repetition with more, or with every request failed, fails its trial
 */
public record ExecutionParams(Path outputDir, EngineParams engines, int repetitions, long seed, boolean freshServer,
                              Duration settle, Duration slice, ClientOptions client, SloParams slo, boolean progress,
                              boolean verbose, boolean quick, TelemetryParams telemetry, double maxFailedShare) {

    /** The failed share a repetition may have when {@code --max-failed-share} is not given: one request in twenty. */
    public static final double DEFAULT_MAX_FAILED_SHARE = 0.05;

    /** Seconds of load per trial in quick mode. */
    public static final int QUICK_SECONDS = 4;

    /** Fewest measured requests per trial in quick mode, so that slow rates still give a distribution. */
    public static final int QUICK_MIN_REQUESTS = 16;

    public ExecutionParams {
        Objects.requireNonNull(outputDir, "outputDir");
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(settle, "settle");
        Objects.requireNonNull(slice, "slice");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(slo, "slo");
        Objects.requireNonNull(telemetry, "telemetry");
        if (repetitions < 1) {
            throw new IllegalArgumentException("-r " + repetitions + ": expected at least 1 repetition");
        }
        if (!(maxFailedShare >= 0 && maxFailedShare <= 1)) {
            throw new IllegalArgumentException("--max-failed-share " + maxFailedShare
                    + ": expected a share of requests from 0 to 1, such as 0.05");
        }
    }

    /** Measurement as a run without {@code -v} does it: one console line a repetition. */
    public ExecutionParams(Path outputDir, EngineParams engines, int repetitions, long seed, boolean freshServer,
                           Duration settle, Duration slice, ClientOptions client, SloParams slo, boolean progress,
                           boolean quick, TelemetryParams telemetry, double maxFailedShare) {
        this(outputDir, engines, repetitions, seed, freshServer, settle, slice, client, slo, progress, false, quick,
                telemetry, maxFailedShare);
    }

    /** Whether the simulated engine stands in for the studies' engines. */
    public boolean simulate() {
        return engines.simulate() != EngineParams.Simulate.OFF;
    }

    /** Whether no request leaves this process in real time: the simulated engine in virtual time serves every trial. */
    public boolean virtualTime() {
        return engines.simulate() == EngineParams.Simulate.VIRTUAL;
    }

    /**
     * The workload as this run sends it: quick mode shortens it. Profiles without a rate or stream count
     * (synchronous, throughput, sweep) get quick mode's fewest requests per trial (or step).
     */
    public WorkloadParams asSent(WorkloadParams declared) {
        double rateEquivalent = Profile.CONCURRENT.equals(declared.profile()) ? declared.concurrency()
                : declared.hasRate() ? declared.rate() : 0;
        return declared.withRequests(requestsFor(declared.requests(), rateEquivalent));
    }

    /** Measured requests for a trial declared with {@code declared} requests at {@code rate} per second. */
    public int requestsFor(int declared, double rate) {
        if (!quick) {
            return declared;
        }
        return (int) Math.min(declared, Math.max(QUICK_MIN_REQUESTS, Math.ceil(QUICK_SECONDS * rate)));
    }
}
