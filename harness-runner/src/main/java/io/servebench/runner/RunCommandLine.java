package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.engine.kind.Redaction;
import io.servebench.engine.kind.ShellWords;
import io.servebench.execution.ClientOptions;
import io.servebench.metrics.gpu.TelemetryParams;
import io.servebench.plan.EngineOverrides;
import io.servebench.reports.ReportLanguage;
import io.servebench.sim.SimParams;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that repeats a run, for its results and its journal: every option that differs from its default
 * after {@code java -jar benchmarks.jar}, secrets masked and an API key named by its variable only. The results folder
 * is left out: a repeat should not write over the run it repeats.
 */
final class RunCommandLine {

    private RunCommandLine() {
    }

    /** The command line as one string that a POSIX shell reads back as {@link #args}. */
    static String of(RunParams params) {
        StringBuilder sb = new StringBuilder("java -jar benchmarks.jar");
        args(params).forEach(a -> sb.append(' ').append(ShellWords.quote(a)));
        return sb.toString();
    }

    /**
     * The command that continues the run in {@code dir}: {@code java -jar} and this harness's jar when it was started
     * with {@code java -jar} (the class path is that one jar; its path as given), else {@code benchmarks.jar} (a class
     * path of several jars, as an IDE or a build tool has, names no jar that would start alone), then
     * {@code --resume DIR}.
     */
    static String resume(Path dir) {
        String jar = "benchmarks.jar";
        try {
            Path location = Path.of(RunCommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            String classPath = System.getProperty("java.class.path", "");
            if (location.toString().endsWith(".jar") && !classPath.contains(java.io.File.pathSeparator)
                    && Path.of(classPath).toAbsolutePath().equals(location.toAbsolutePath())) {
                Path relative = Path.of("").toAbsolutePath().relativize(location.toAbsolutePath());
                jar = relative.toString().startsWith("..") ? location.toString() : relative.toString();
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // no code source (an unusual class loader): the jar's usual name
        }
        return "java -jar " + ShellWords.quote(jar) + " --resume " + ShellWords.quote(dir.toString());
    }

    /** The arguments, one string each, that repeat the run (without {@code -o}). */
    static List<String> args(RunParams params) {
        RunOptions options = params.options();
        List<String> args = new ArrayList<>(options.includes());
        // a study written on the command line: the run subcommand and its own options first, as Main reads them back
        options.adHoc().ifPresent(study -> {
            args.add("run");
            args.addAll(study.args());
        });
        options.overrides().forEach((k, v) -> args.addAll(List.of("-p", k + "=" + String.join(",", v))));
        options.trials().forEach(t -> args.addAll(List.of("--trial", t)));
        if (params.repetitions() > 1) {
            args.addAll(List.of("-r", Integer.toString(params.repetitions())));
        }
        if (options.slo().stated()) {
            args.addAll(List.of("--slo", options.slo().toString()));
        }
        EngineParams engines = params.engines();
        switch (engines.simulate()) {
            case IN_PROCESS -> args.add("--simulate");
            case PROCESS -> args.add("--simulate=process");
            case VIRTUAL -> args.add("--simulate=virtual");
            case OFF -> {
                // the studies' own engines: nothing to add
            }
        }
        if (params.simulated() && !engines.simulatedGpu().equals(EngineParams.DEFAULT_SIMULATED_GPU)) {
            args.addAll(List.of("--simulate-gpu", engines.simulatedGpu()));
        }
        if (params.simulated() && engines.simulatedModelConfig() != null) {
            args.addAll(List.of("--sim-model-config", engines.simulatedModelConfig().toString()));
        }
        if (params.simulated() && !engines.simulatedAcceptance().isEmpty()) {
            args.addAll(List.of(SimParams.SIM_ACCEPTANCE_RATE, engines.simulatedAcceptance().stream()
                    .map(String::valueOf).collect(java.util.stream.Collectors.joining(","))));
        }
        if (params.seed() != RunDefaults.SEED) {
            args.addAll(List.of("--seed", Long.toString(params.seed())));
        }
        if (options.freshServer()) {
            args.add("--fresh-server");
        }
        seconds(args, "--settle", params.settle(), Duration.ofSeconds(RunDefaults.SETTLE_SECONDS));
        seconds(args, "--slice", params.slice(), Duration.ofSeconds(RunDefaults.SLICE_SECONDS));
        options.timelineGap().filter(g -> g.toMillis() != RunDefaults.TIMELINE_GAP_MS)
                .ifPresent(g -> args.addAll(List.of("--timeline-gap", Long.toString(g.toMillis()))));
        seconds(args, "--ready-timeout", engines.readyTimeout(), EngineParams.DEFAULT_READY_TIMEOUT);
        seconds(args, "--stop-grace", engines.grace(), EngineParams.DEFAULT_GRACE);
        if (!RunDefaults.CONTAINER_RUNTIME.equals(engines.containerRuntime())) {
            args.addAll(List.of("--container-runtime", engines.containerRuntime()));
        }
        EngineOverrides engine = options.engineOverrides();
        if (!engine.executable().isEmpty()) {
            args.addAll(List.of("--engine-exe", engine.executable()));
        }
        Redaction.args(engine.env()).forEach(e -> args.addAll(List.of("--engine-env", e)));
        if (!engine.workdir().isEmpty()) {
            args.addAll(List.of("--engine-workdir", engine.workdir()));
        }
        if (!engine.url().isEmpty()) {
            args.addAll(List.of("--engine-url", engine.url()));
        }
        TelemetryParams telemetry = options.telemetry();
        if (!telemetry.source().equals(TelemetryParams.DEFAULTS.source())) {
            args.addAll(List.of("--gpu-telemetry", telemetry.source()));
        }
        if (!telemetry.interval().equals(TelemetryParams.DEFAULTS.interval())) {
            args.addAll(List.of("--gpu-interval", Long.toString(telemetry.interval().toMillis())));
        }
        if (!telemetry.gpus().isEmpty()) {
            args.addAll(List.of("--gpus", telemetry.gpus().stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(","))));
        }
        telemetry.pricePerGpuHour().ifPresent(p -> args.addAll(List.of("--gpu-cost", Double.toString(p))));
        if (!telemetry.url().isEmpty()) {
            args.addAll(List.of("--gpu-telemetry-url", telemetry.url()));
        }
        // the variable's name only: its value is a secret
        if (options.client().apiKeyEnv() != null) {
            args.addAll(List.of("--api-key-env", options.client().apiKeyEnv()));
        }
        seconds(args, "--connect-timeout", options.client().connectTimeout(), ClientOptions.DEFAULTS.connectTimeout());
        seconds(args, "--request-timeout", options.client().requestTimeout(), ClientOptions.DEFAULTS.requestTimeout());
        if (options.client().loadWorkers() != 1) {
            args.addAll(List.of("--load-workers", Integer.toString(options.client().loadWorkers())));
        }
        options.maxFailedShare().ifPresent(share -> args.addAll(List.of("--max-failed-share", Double.toString(share))));
        options.jmhPrimary().forEach(m -> args.addAll(List.of("--jmh-primary", m)));
        if (options.jmhParamsInName()) {
            args.add("--jmh-params-in-name");
        }
        options.capacity().ifPresent(c -> args.add(c.share().isEmpty() ? "--capacity" : "--capacity=" + c.share().getAsDouble()));
        if (options.quick()) {
            args.add("--quick");
        }
        if (params.language() != ReportLanguage.EN) {
            args.addAll(List.of("--lang", params.language().tag()));
        }
        options.slurm().ifPresent(slurm -> {
            args.addAll(List.of("--executor", "slurm"));
            if (slurm.partition() != null) {
                args.addAll(List.of("--partition", slurm.partition()));
            }
            if (slurm.account() != null) {
                args.addAll(List.of("--account", slurm.account()));
            }
            if (slurm.timeLimit() != null) {
                args.addAll(List.of("--time", slurm.timeLimit()));
            }
            if (slurm.gpus() > 0) {
                args.addAll(List.of("--gpus-per-server", Integer.toString(slurm.gpus())));
            }
            slurm.sbatchArgs().forEach(a -> args.add("--sbatch-arg=" + a));
        });
        return args;
    }

    private static void seconds(List<String> args, String option, Duration value, Duration defaultValue) {
        if (!value.equals(defaultValue)) {
            boolean whole = value.toNanos() % 1_000_000_000L == 0;
            args.addAll(List.of(option, whole ? Long.toString(value.toSeconds()) : Double.toString(value.toNanos() / 1e9)));
        }
    }
}
