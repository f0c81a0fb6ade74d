package io.servebench.runner;

import io.servebench.annotations.Profile;
import io.servebench.engine.EngineOptions;
import io.servebench.metrics.SloSpec;
import io.servebench.plan.EngineOverrides;
import io.servebench.plan.WorkloadParams;
import io.servebench.reports.ReportLanguage;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to run a selection of benchmarks: the command line's settings, immutable.
 *
 * @param includes    regular expressions, any of which must be found in {@code Class.variant}; empty selects all
 * @param overrides   {@code -p name=v1,v2} values by name
 * @param repetitions independent runs of each trial (JMH's forks)
 * @param outputDir   the run folder
 * @param engines     how engines are started, and whether the simulated engine replaces them
 * @param quick       shorten every trial to about {@link #QUICK_SECONDS} seconds of load
 * @param seed        seeds request order, arrival times and the simulated engine
 * @param freshServer start a server for every trial instead of reusing one across trials of one configuration
 * @param settle      pause between two trials on one server, after its prefix cache was reset
 * @param engineOverrides the command line's engine executable, environment, working directory and URL
 * @param client      the HTTP client's API key variable and timeouts
 * @param language    the language of summary.md and report.html
 * @param slo         SLOs from the command line ({@code --slo}), laid over each variant's {@code @Slo} bound by bound
 */
public record RunOptions(List<String> includes, Map<String, List<String>> overrides, int repetitions, Path outputDir,
                        EngineOptions engines, boolean quick, long seed, boolean freshServer, Duration settle,
                        EngineOverrides engineOverrides, ClientOptions client, ReportLanguage language, SloSpec slo) {

    /** Seconds of load per trial in quick mode. */
    public static final int QUICK_SECONDS = 4;

    /** Fewest measured requests per trial in quick mode, so that slow rates still give a distribution. */
    public static final int QUICK_MIN_REQUESTS = 16;

    public RunOptions {
        includes = List.copyOf(includes);
        // in the order given, as the recorded command line repeats them
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(slo, "slo");
        if (repetitions < 1) {
            throw new IllegalArgumentException("-r " + repetitions + ": expected at least 1 repetition");
        }
        Objects.requireNonNull(client, "client");
    }

    /** Whether the simulated engine stands in for the studies' engines. */
    public boolean simulate() {
        return engines.simulate() != EngineOptions.Simulate.OFF;
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
