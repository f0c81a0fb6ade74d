package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.execution.ExecutionParams;
import io.servebench.reports.ReportLanguage;
import io.servebench.results.EngineMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * A run's options resolved, once, when its {@link Runner} is made: what the user left unset at its
 * {@link RunDefaults default}.
 *
 * @param options     what the user wrote
 * @param outputDir   the run folder
 * @param repetitions independent runs of each trial
 * @param engines     how engines are started, and whether the simulated engine replaces them
 * @param seed        seeds request order, arrival times and the simulated engine
 * @param settle      the pause between two loads on one server
 * @param slice       the time slices a long load reports its figures in
 * @param language    the language of summary.md and report.html
 */
record RunParams(RunOptions options, Path outputDir, int repetitions, EngineParams engines, long seed, Duration settle,
                 Duration slice, ReportLanguage language) {

    RunParams {
        Objects.requireNonNull(options, "options");
    }

    /** {@code options} with every unset option at its default. */
    static RunParams of(RunOptions options) {
        long seed = options.seed().orElse(RunDefaults.SEED);
        EngineParams engines = new EngineParams(options.simulate(), seed,
                options.readyTimeout().orElse(EngineParams.DEFAULT_READY_TIMEOUT),
                options.stopGrace().orElse(EngineParams.DEFAULT_GRACE),
                options.containerRuntime().orElse(RunDefaults.CONTAINER_RUNTIME), EngineParams.defaultHfCache(), null, null,
                options.simulatedGpu().orElse(EngineParams.DEFAULT_SIMULATED_GPU),
                options.simulatedModelConfig().map(Path::toAbsolutePath).orElse(null))
                .withSimulatedAcceptance(options.simulatedAcceptance());
        return new RunParams(options, options.outputDir().orElseGet(RunDefaults::outputDir),
                options.repetitions().orElse(RunDefaults.REPETITIONS), engines, seed,
                options.settle().orElse(Duration.ofSeconds(RunDefaults.SETTLE_SECONDS)),
                options.slice().orElse(Duration.ofSeconds(RunDefaults.SLICE_SECONDS)),
                options.language().orElse(ReportLanguage.EN));
    }

    /** Whether the simulated engine stands in for the studies' engines. */
    boolean simulated() {
        return engines.simulate() != EngineParams.Simulate.OFF;
    }

    /** What serves the trials, as the reports name it. */
    EngineMode engineMode() {
        return switch (engines.simulate()) {
            case OFF -> EngineMode.DECLARED;
            case IN_PROCESS -> EngineMode.SIMULATED;
            case PROCESS -> EngineMode.SIMULATED_PROCESS;
            case VIRTUAL -> EngineMode.VIRTUAL;
        };
    }

    /** How an executor measures this run's trials: the part of the run that measuring needs. */
    ExecutionParams execution() {
        return new ExecutionParams(outputDir, engines, repetitions, seed, options.freshServer(), settle, slice,
                options.client(), options.slo(), options.progress(), options.verbose(), options.quick(), options.telemetry(),
                options.maxFailedShare().orElse(ExecutionParams.DEFAULT_MAX_FAILED_SHARE));
    }
}
