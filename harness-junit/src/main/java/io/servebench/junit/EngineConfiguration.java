package io.servebench.junit;

import io.servebench.engine.EngineParams;
import io.servebench.runner.RunDefaults;
import io.servebench.runner.RunOptions;
import org.junit.platform.engine.ConfigurationParameters;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The engine's settings, from JUnit's configuration parameters ({@code junit-platform.properties} on the test class
 * path, or {@code -D} on the command line / in Surefire's {@code systemPropertyVariables}):
 *
 * <table>
 *   <caption>configuration parameters</caption>
 *   <tr><td>{@value #SIMULATE}</td><td>{@code true} (the simulated engine in the test's JVM), {@code process},
 *   {@code virtual} (its model in virtual time, as {@code --simulate=virtual}), or {@code false} (default: the engines the
 *   studies declare)</td></tr>
 *   <tr><td>{@value #OUTPUT_DIR}</td><td>the folder the run folders go to, one per study (default
 *   {@code results/TIMESTAMP})</td></tr>
 *   <tr><td>{@value #QUICK}</td><td>{@code true}: about 4 s of load per trial</td></tr>
 *   <tr><td>{@value #REPETITIONS}</td><td>repetitions of every trial (default 1)</td></tr>
 *   <tr><td>{@value #SEED}</td><td>seed of request order, arrival times and the simulated engine (default 42)</td></tr>
 *   <tr><td>{@value #PROGRESS}</td><td>{@code false} to print no per-trial progress (default true)</td></tr>
 *   <tr><td>{@value #PARAM_PREFIX}{@code NAME}</td><td>values of a {@code @Param} or workload setting, as
 *   {@code -p NAME=V1,V2}</td></tr>
 * </table>
 *
 * @param simulate    whether and how the simulated engine stands in for the studies' engines
 * @param outputDir   where each study's run folder goes
 * @param quick       shorten every trial
 * @param repetitions repetitions of every trial; empty for the runner's default
 * @param seed        the run's seed; empty for the runner's default
 * @param progress    whether per-trial progress is printed
 * @param params      {@code -p} values by name
 */
record EngineConfiguration(EngineParams.Simulate simulate, Path outputDir, boolean quick, Optional<Integer> repetitions,
                           Optional<Long> seed,
                           boolean progress, Map<String, List<String>> params) {

    static final String SIMULATE = "servebench.simulate";
    static final String OUTPUT_DIR = "servebench.outputDir";
    static final String QUICK = "servebench.quick";
    static final String REPETITIONS = "servebench.repetitions";
    static final String SEED = "servebench.seed";
    static final String PROGRESS = "servebench.progress";
    static final String PARAM_PREFIX = "servebench.param.";

    /**
     * @throws IllegalArgumentException naming the parameter whose value cannot be read and what was expected
     */
    static EngineConfiguration of(ConfigurationParameters config) {
        String simulate = config.get(SIMULATE).orElse("false");
        EngineParams.Simulate mode;
        try {
            mode = EngineParams.Simulate.of(simulate);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(SIMULATE + "=" + simulate.strip() + ": " + e.getMessage()
                    + " (true stands for in-process, false for off)", e);
        }
        Map<String, List<String>> params = new TreeMap<>();
        for (String key : config.keySet()) {
            if (key.startsWith(PARAM_PREFIX)) {
                String name = key.substring(PARAM_PREFIX.length());
                String value = config.get(key).orElse("");
                params.put(name, RunOptions.paramValues(name, value));
            }
        }
        return new EngineConfiguration(mode, config.get(OUTPUT_DIR).map(Path::of).orElseGet(RunDefaults::outputDir),
                config.getBoolean(QUICK).orElse(false), number(config, REPETITIONS).map(Math::toIntExact),
                number(config, SEED), config.getBoolean(PROGRESS).orElse(true), params);
    }

    private static Optional<Long> number(ConfigurationParameters config, String key) {
        String value = config.get(key).orElse(null);
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + "=" + value + ": expected a whole number");
        }
    }

    /**
     * The run of one study, with its variants {@code variants} (all when empty) and of their trials those with the keys
     * {@code trials} (all when empty), into its own folder.
     */
    RunOptions runOptions(Class<?> study, List<String> variants, List<String> trials) {
        RunOptions.Builder run = RunOptions.builder().simulate(simulate).quick(quick)
                .progress(progress).outputDir(outputDir.resolve(study.getSimpleName()));
        repetitions.ifPresent(run::repetitions);
        seed.ifPresent(run::seed);
        if (variants.isEmpty()) {
            run.include(study);
        } else {
            run.include(study, variants.toArray(String[]::new));
        }
        params.forEach((name, values) -> run.param(name, values.toArray(String[]::new)));
        trials.forEach(run::trial);
        return run.build();
    }
}
