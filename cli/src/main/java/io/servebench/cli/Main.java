package io.servebench.cli;

import io.servebench.engine.EngineParams;
import io.servebench.engine.kind.Redaction;
import io.servebench.execution.ClientOptions;
import io.servebench.execution.ExecutionException;
import io.servebench.execution.ExecutionParams;
import io.servebench.execution.ServeBenchVersion;
import io.servebench.execution.Signals;
import io.servebench.execution.slurm.SlurmParams;
import io.servebench.load.LoadParams;
import io.servebench.measure.SloParams;
import io.servebench.metrics.gpu.TelemetryParams;
import io.servebench.plan.EngineOverrides;
import io.servebench.reports.ReportLanguage;
import io.servebench.results.journal.RunHeader;
import io.servebench.results.journal.RunJournal;
import io.servebench.runner.RunDefaults;
import io.servebench.runner.RunFolderException;
import io.servebench.runner.RunOptions;
import io.servebench.runner.RunOutcome;
import io.servebench.runner.Runner;
import io.servebench.runner.RunnerException;
import io.servebench.sim.SimParams;
import io.servebench.study.AdHocStudy;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** Entry point of {@code benchmarks.jar}: JMH-style options over the benchmarks found on the class path. */
@Command(name = "benchmarks.jar", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        subcommands = {RunCommand.class, SimCommand.class, CompareCommand.class, LoadCheckCommand.class},
        sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 120,
        description = "Runs ServeBench studies: starts each engine, drives an open-loop streaming load, measures every request and token, and writes results.json (JMH format), summary.md, report.html and per-request records.",
        footerHeading = "%nExamples:%n",
        footer = {
                "  java -jar benchmarks.jar -l                                  list every benchmark",
                "  java -jar benchmarks.jar --dry-run qwen                      show the trial plan of the reference study",
                "  java -jar benchmarks.jar --simulate --quick -p dataset=synthetic-sharegpt qwen",
                "                                                               run it on the simulated engine in a few minutes",
                "  java -jar benchmarks.jar QuickStart -p rate=2,4 -r 3         three repetitions at two rates",
                "  java -jar benchmarks.jar 'LatencyTuning\\.(vllm|mtp)$' -p requests=200 -o results/mtp",
                "  java -jar benchmarks.jar loadcheck --rate 500 --tokens 100   check the load generator (see loadcheck -h)",
                "",
                "Exit codes: 0 every trial complete, 1 a trial failed, 2 bad input (nothing started), 3 compare found a",
                "regression, 130 interrupted by Ctrl-C (SIGINT), 143 by SIGTERM (see docs/command-line.md)."})
public final class Main implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "REGEX", arity = "0..*",
            description = "Run benchmarks whose Class.variant name contains a match of any REGEX (all when none).")
    List<String> includes = new ArrayList<>();

    @Option(names = {"-l", "--list"}, description = "List the matching benchmarks, one per line, and exit.")
    boolean list;

    @Option(names = "--dry-run", description = "Print the trial plan (one line per trial) without starting anything.")
    boolean dryRun;

    @Option(names = "-p", paramLabel = "NAME=V1,V2", description = "Override a parameter or workload setting (Workload settings, below) with a list of values; the benchmarks expand over them. Repeatable. A dataset's own options keep their commas (-p dataset=synthetic:in=512,out=128,sharegpt:a.json is two datasets), and so does a setting marked \"one value\" below (-p models=sql-lora:3,chat-lora:1).")
    List<String> params = new ArrayList<>();

    @Option(names = "--trial", paramLabel = "KEY", description = "Run only this trial of the plan: its id without the running number, as --dry-run lists it after the tNN- (e.g. --trial vllm-e064484c-constant-16); repeatable. Not with a tuning study or --capacity, which choose their own trials.")
    List<String> trials = new ArrayList<>();

    @Option(names = "-r", paramLabel = "N", description = "Repetitions of every trial, for noise estimates (default: " + RunDefaults.REPETITIONS + "); for a tuning study or --capacity, the least each configuration or probe gets.")
    Integer repetitions;

    @Option(names = "-o", paramLabel = "DIR", description = "Results folder (default: results/<timestamp>).")
    Path output;

    @Option(names = "--simulate", arity = "0..1", paramLabel = "MODE", fallbackValue = "in-process", preprocessor = SimulateMode.class, description = "Run every trial on the built-in simulated engine, which reads the flags of the study's engine: in the harness's JVM (default), =process to start it as a separate process like a real engine, or =virtual to run its model in virtual time (no sockets, no waiting: a 1000-request trial in well under a second).")
    String simulate;

    @Option(names = "--simulate-gpu", paramLabel = "ID", completionCandidates = SimCommand.Gpus.class, description = "With --simulate: the GPU the simulated engine imitates, per tensor-parallel rank, h100 by default, one of ${COMPLETION-CANDIDATES}, from their datasheets (see docs/simulated-engine.md). Its efficiency factors are the H100's, not calibrated for the others.")
    String simulateGpu;

    @Option(names = "--sim-model-config", paramLabel = "PATH", description = "With --simulate: the config.json (or the folder holding it) of the model the simulated engine stands in for, when it is not built in and not in the Hugging Face cache; e.g. --sim-model-config ~/configs/my-finetune/config.json. A model found nowhere is refused.")
    Path simModelConfig;

    @Option(names = "--sim-acceptance-rate", paramLabel = "P[,P...]", description = "With --simulate: the share of draft tokens the simulated engine accepts in speculative decoding, one rate per draft position, each given the earlier ones were accepted, the last for the positions after it; e.g. --sim-acceptance-rate 0.7,0.5,0.3 as measured on your data. Default: the draft method's (MTP 0.204 a position, fitted on the reference study's chat data; EAGLE 0.6; n-gram 0.4).")
    String simAcceptanceRate;

    @Option(names = "--fresh-server", description = "Start a new server for every trial instead of reusing one per configuration.")
    boolean freshServer;

    @Option(names = "--settle", paramLabel = "SECONDS", description = "Pause between two loads on one server (repetitions, trials, sweep steps), after emptying its prefix cache (default: " + RunDefaults.SETTLE_SECONDS + ").")
    Double settleSeconds;

    @Option(names = "--slice", paramLabel = "SECONDS", description = "Length of the time slices a long load reports its figures in, when it lasts 5 slices or more (default: " + RunDefaults.SLICE_SECONDS + "), e.g. --slice 300 for an hour-long soak.")
    Double sliceSeconds;

    @Option(names = "--timeline-gap", paramLabel = "MS", description = "The shortest gap between two token events that report.html's request timeline marks (default: " + RunDefaults.TIMELINE_GAP_MS + "), e.g. --timeline-gap 250.")
    Long timelineGapMs;

    @Option(names = "--ready-timeout", paramLabel = "SECONDS", description = "How long an engine may take to load and become ready (default: " + EngineParams.DEFAULT_READY_TIMEOUT_SECONDS + ").")
    Long readyTimeoutSeconds;

    @Option(names = "--stop-grace", paramLabel = "SECONDS", description = "How long an engine gets to exit after SIGTERM before SIGKILL (default: " + EngineParams.DEFAULT_GRACE_SECONDS + ").")
    Long graceSeconds;

    @Option(names = "--engine-exe", paramLabel = "PATH", description = "The engine program to run instead of the study's (e.g. a virtualenv's bin/vllm).")
    String engineExe = "";

    @Option(names = "--engine-env", paramLabel = "NAME[=VALUE]", description = "An environment variable for every engine, e.g. --engine-env CUDA_VISIBLE_DEVICES=0; NAME alone hands on ServeBench's own (the way to give a secret, e.g. --engine-env HF_TOKEN); repeatable.")
    List<String> engineEnv = new ArrayList<>();

    @Option(names = "--engine-workdir", paramLabel = "DIR", description = "The engines' working directory.")
    String engineWorkdir = "";

    @Option(names = "--engine-url", paramLabel = "URL", description = "The URL of the running server, for studies whose engine is an endpoint.")
    String engineUrl = "";

    @Option(names = "--container-runtime", paramLabel = "docker|podman", description = "Runs studies that name an image (default: " + RunDefaults.CONTAINER_RUNTIME + ").")
    String containerRuntime;

    @Option(names = "--quick", description = {"Shorten each trial to about " + ExecutionParams.QUICK_SECONDS
            + " s of load (at least " + ExecutionParams.QUICK_MIN_REQUESTS + " requests):", "a first look, noisier than the declared workload."})
    boolean quick;

    @Option(names = "--slo", paramLabel = "NAME=MS,...", description = "SLOs for goodput, in ms or with a unit (ttft, tpot, itl, e2e), e.g. ttft=200,tpot=50 or ttft=0.5s,e2e=3s (vllm bench serve's --goodput \"ttft:200 tpot:50 e2el:3000\" reads the same); overrides the studies' @Slo bound by bound.")
    String slo;

    @Option(names = "--seed", paramLabel = "N", description = "Seed for request order, arrival times and the simulated engine (default: " + RunDefaults.SEED + ").")
    Long seed;

    @Option(names = "--gpu-telemetry", paramLabel = "SOURCE", description = "Where the engines' GPU readings (power, energy, utilisation, memory, clocks, throttling) come from during each load: auto (NVML, else nvidia-smi, else none), nvml, nvidia-smi, dcgm (with --gpu-telemetry-url) or off (default: ${DEFAULT-VALUE}). The simulated engine reports its power model's instead.")
    String gpuTelemetry = TelemetryParams.DEFAULTS.source();

    @Option(names = "--gpu-telemetry-url", paramLabel = "URL", description = "Read the GPUs from a DCGM exporter's page instead, e.g. --gpu-telemetry-url http://gpu-host:9400/metrics: the way to see the GPUs of an engine on another host (an endpoint). Run the exporter with -c at or below --gpu-interval, or its 30 s default refresh blurs each trial's energy.")
    String gpuTelemetryUrl;

    @Option(names = "--gpu-interval", paramLabel = "MS", description = "Time between two readings of a GPU (default: ${DEFAULT-VALUE}).")
    long gpuIntervalMs = TelemetryParams.DEFAULTS.interval().toMillis();

    @Option(names = "--gpus", paramLabel = "LIST", split = ",", description = "The GPUs the engines use, by index, e.g. --gpus 0,1 (default: the engine's CUDA_VISIBLE_DEVICES, else the first tensor-parallel-size GPUs for vllm and sglang, else every GPU the source sees).")
    List<Integer> gpus = new ArrayList<>();

    @Option(names = "--gpu-cost", paramLabel = "PRICE", description = "What one GPU costs an hour, e.g. --gpu-cost 2.49: adds the cost per million output tokens at the measured throughput.")
    Double gpuCost;

    @Option(names = "--api-key-env", paramLabel = "NAME", description = "Send the value of environment variable NAME as 'Authorization: Bearer', and start vllm and sglang with it as --api-key (only the name is recorded; a key is never a flag of a study).")
    String apiKeyEnv;

    @Option(names = "--connect-timeout", paramLabel = "SECONDS", description = "Longest wait for a connection (default: ${DEFAULT-VALUE}).")
    double connectTimeoutSeconds = LoadParams.DEFAULT_CONNECT_TIMEOUT.toSeconds();

    @Option(names = "--request-timeout", paramLabel = "SECONDS", description = "Longest silence while a request is in flight before it fails as a timeout (default: ${DEFAULT-VALUE}).")
    double requestTimeoutSeconds = LoadParams.DEFAULT_REQUEST_TIMEOUT.toSeconds();

    @Option(names = "--jmh-primary", paramLabel = "METRIC", split = ",", description = "Also write results-METRIC.json with METRIC as the primary metric (e.g. ttft.p99, itl.mean, output_throughput), for a CI tracker's second series; repeatable.")
    List<String> jmhPrimary = new ArrayList<>();

    @Option(names = "--jmh-params-in-name", description = "Put each entry's params into its benchmark name in results.json (RateValidation.baseline[rate=16]) and give it none: one series per entry in trackers that key by the name alone, such as Bencher.")
    boolean jmhParamsInName;

    @Option(names = "--lang", paramLabel = "TAG", description = "Language of summary.md and report.html: en or zh-CN (default: en).")
    String lang;

    @Option(names = "--capacity", arity = "0..1", paramLabel = "SHARE", fallbackValue = "slo", description = "Instead of the planned trials, find each selected variant's capacity under its SLOs (--slo or @Slo): the highest request rate (for a closed-loop load, --concurrency or profile concurrent: the most streams) at which SHARE of the requests (default: the variant's @Slo(minAttainment), else 0.99) meet them, by doubling or halving from its declared rate (or concurrency) and then bisecting to within 10%%.")
    String capacity;

    @Option(names = "--executor", paramLabel = "local|slurm", description = "Where the server configurations run: here, one after the other (local, the default), or as one SLURM job each (slurm), from a login node whose -o folder the compute nodes share; a tuning study or --capacity submits each round of its measurements and waits for it. E.g. --executor slurm --partition gpu --gpus-per-server 1 --time 2:00:00.")
    String executor = "local";

    @Option(names = "--partition", paramLabel = "NAME", description = "With --executor slurm: sbatch --partition.")
    String partition;

    @Option(names = "--account", paramLabel = "NAME", description = "With --executor slurm: sbatch --account.")
    String account;

    @Option(names = "--time", paramLabel = "LIMIT", description = "With --executor slurm: each job's time limit, as sbatch --time takes it (e.g. 2:00:00).")
    String timeLimit;

    @Option(names = "--gpus-per-server", paramLabel = "N", description = "With --executor slurm: GPUs each server configuration's job asks for (sbatch --gpus).")
    int gpusPerServer;

    @Option(names = "--sbatch-arg", paramLabel = "ARG", description = "With --executor slurm: one more sbatch argument, one word, e.g. --sbatch-arg=--qos=high; repeatable.")
    List<String> sbatchArgs = new ArrayList<>();


    @Option(names = "--load-workers", paramLabel = "N", description = "Spread each load over N worker processes of this"
            + " machine, each with its own open-files limit, I/O threads and collector (default: ${DEFAULT-VALUE}, this"
            + " process); in a SLURM job of several nodes, job steps on the nodes after the engine's, which then"
            + " listens on every interface: the schedule is drawn once and dealt out, the records merge into the run"
            + " folder, and a worker"
            + " that dies fails its repetition. Rate, trace and throughput profiles; a closed loop, maxConcurrency,"
            + " maxErrors or saturationWindowSeconds keep a load in this process, as its results note. Not with"
            + " --simulate=virtual. E.g. --load-workers 4 for 10,000 streams or more.")
    int loadWorkers = 1;

    @Option(names = "--max-failed-share", paramLabel = "SHARE", description = "The largest share of a repetition's measured requests that may fail before its trial fails and the run exits 1 (default: " + ExecutionParams.DEFAULT_MAX_FAILED_SHARE + "); a repetition whose requests all failed fails whatever the share, e.g. --max-failed-share 0.2 for an overload study.")
    Double maxFailedShare;

    @Option(names = {"-v", "--verbose"}, description = "More on the console: each load's start and its time slices (a line a slice), and on an error its stack trace too (for a bug report).")
    boolean verbose;

    @Option(names = "--resume", paramLabel = "DIR", description = "Continue the run in DIR (after Ctrl-C, SIGTERM, a crash or SIGKILL) with the options it was started with, read from its journal.jsonl: complete trials are kept; the others run again from their first repetition that did not complete, keeping those that did; the reports cover them all. Takes no other option, e.g. --resume results/20261203-171500.")
    Path resume;

    /** Set when this command line was read back from a journal for {@code --resume}. */
    private boolean resuming;

    /** Whether Ctrl-C and SIGTERM interrupt a run gracefully: only in the program's own process, never a caller's. */
    private boolean handleSignals;

    /** The study {@code run} wrote on the command line, run instead of classes; {@code null} for a study run. */
    private AdHocStudy adHoc;

    /** Every trial complete. */
    public static final int OK = 0;
    /** A trial failed: its engine, its load, or too many of its requests. */
    public static final int TRIAL_FAILED = 1;
    /** Bad input (command line, study, dataset, output folder): nothing was started. */
    public static final int BAD_INPUT = 2;
    /** {@code compare --fail-on} found a decided regression. */
    public static final int REGRESSION = 3;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true), true));
    }

    /** Runs the command line and returns its exit code; what {@link #main} does, without exiting or taking signals. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(args, out, err, false);
    }

    private static int execute(String[] args, PrintWriter out, PrintWriter err, boolean handleSignals) {
        Main main = new Main();
        main.handleSignals = handleSignals;
        CommandLine cmd = new CommandLine(main);
        cmd.setOut(out);
        cmd.setErr(err);
        listWorkloadSettings(cmd);
        boolean verbose = Arrays.asList(args).contains("-v") || Arrays.asList(args).contains("--verbose");
        cmd.setParameterExceptionHandler((e, a) -> {
            err.println("error: " + e.getMessage() + " (see -h)");
            return BAD_INPUT;
        });
        cmd.setExecutionExceptionHandler((e, c, r) -> {
            if (verbose) {
                e.printStackTrace(err);
            }
            if (e instanceof UsageException || e instanceof RunnerException || e instanceof ExecutionException
                    || e instanceof IllegalArgumentException) {
                err.println("error: " + e.getMessage());
                return BAD_INPUT;
            }
            if (e instanceof RunFolderException) {
                // the machine (a full disk), not ServeBench: the message says what was kept and how to go on
                err.println("error: " + e.getMessage());
                return TRIAL_FAILED;
            }
            // a fault of ServeBench's own: one line, the trace with -v; results already measured are on disk
            err.println("error: " + e + (verbose ? "" : " (a fault of ServeBench's; -v shows where, for a bug report)"));
            return TRIAL_FAILED;
        });
        return cmd.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if (resume != null) {
            return resumeRun();
        }
        PrintWriter out = spec.commandLine().getOut();
        Runner runner = new Runner(runOptions(), out);
        if (list) {
            runner.selectedBenchmarks().forEach(out::println);
            return 0;
        }
        if (dryRun) {
            runner.printPlan();
            return 0;
        }
        RunOutcome outcome;
        try (Signals.Handlers signals = handleSignals ? Signals.stopOn(runner::interrupt, out) : Signals.Handlers.NONE) {
            outcome = runner.run();
        } catch (RunnerException e) {
            if (runner.interruptedBy().isEmpty()) {
                throw e;
            }
            // stopped before anything ran: the signal's exit code, as for a run stopped midway
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return Signals.exitCode(runner.interruptedBy().get()).orElse(Signals.SIGINT_EXIT);
        }
        Optional<String> interrupted = runner.interruptedBy();
        if (interrupted.isPresent()) {
            return Signals.exitCode(interrupted.get()).orElse(Signals.SIGINT_EXIT);
        }
        return outcome.allTrialsRan() ? OK : TRIAL_FAILED;
    }

    /** What the options given ask of a run, checked; the runner resolves what was not given to its defaults. */
    RunOptions runOptions() {
        if (simModelConfig != null && simulate == null) {
            throw new UsageException("--sim-model-config " + simModelConfig + " needs --simulate: real engines read their"
                    + " own model");
        }
        if (simAcceptanceRate != null && simulate == null) {
            throw new UsageException("--sim-acceptance-rate " + simAcceptanceRate + " needs --simulate: real engines"
                    + " accept what their drafts earn");
        }
        if (simulateGpu != null && simulate == null) {
            throw new UsageException("--simulate-gpu " + simulateGpu + " needs --simulate: real engines run on the GPUs"
                    + " they find");
        }
        if (adHoc != null && !includes.isEmpty()) {
            throw new UsageException("run takes no study class (" + String.join(" ", includes) + "): its options are the"
                    + " study; to run a class, leave out run");
        }
        RunOptions.Builder run = RunOptions.builder().simulate(simulateMode()).quick(quick).freshServer(freshServer)
                .engineOverrides(new EngineOverrides(engineExe, engineEnv, engineWorkdir, engineUrl))
                .telemetry(new TelemetryParams(gpuTelemetry, Duration.ofMillis(gpuIntervalMs), gpus,
                        gpuCost == null ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(gpuCost),
                        gpuTelemetryUrl))
                .client(new ClientOptions(apiKeyEnv, seconds("--connect-timeout", connectTimeoutSeconds),
                        seconds("--request-timeout", requestTimeoutSeconds), loadWorkers))
                .slo(slo == null ? SloParams.NONE : SloParams.parse(slo)).outputDir(output).resume(resuming);
        // only what was given: the runner resolves the rest to its defaults (RunDefaults, EngineParams)
        Optional.ofNullable(repetitions).ifPresent(run::repetitions);
        Optional.ofNullable(readyTimeoutSeconds).map(Duration::ofSeconds).ifPresent(run::readyTimeout);
        Optional.ofNullable(graceSeconds).map(Duration::ofSeconds).ifPresent(run::stopGrace);
        Optional.ofNullable(simulateGpu).ifPresent(run::simulatedGpu);
        Optional.ofNullable(simModelConfig).ifPresent(run::simulatedModelConfig);
        if (simAcceptanceRate != null) {
            try {
                run.simulatedAcceptance(SimParams.acceptanceRates(simAcceptanceRate));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--sim-acceptance-rate: expected " + e.getMessage());
            }
        }
        Optional.ofNullable(containerRuntime).ifPresent(run::containerRuntime);
        Optional.ofNullable(seed).ifPresent(run::seed);
        Optional.ofNullable(settleSeconds).map(s -> Duration.ofMillis(Math.round(s * 1000))).ifPresent(run::settle);
        Optional.ofNullable(sliceSeconds).map(s -> Duration.ofMillis(Math.round(s * 1000))).ifPresent(run::slice);
        Optional.ofNullable(timelineGapMs).map(Duration::ofMillis).ifPresent(run::timelineGap);
        Optional.ofNullable(lang).map(ReportLanguage::of).ifPresent(run::language);
        Optional.ofNullable(maxFailedShare).ifPresent(run::maxFailedShare);
        if (capacity != null) {
            if ("slo".equals(capacity)) {
                run.capacity();
            } else {
                run.capacity(share(capacity));
            }
        }
        run.slurm(slurmParams()).verbose(verbose);
        includes.forEach(run::include);
        Optional.ofNullable(adHoc).ifPresent(run::adHoc);
        jmhPrimary.forEach(run::jmhPrimary);
        run.jmhParamsInName(jmhParamsInName);
        parseOverrides(params).forEach((name, values) -> run.param(name, values.toArray(String[]::new)));
        trials.forEach(run::trial);
        return run.build();
    }

    /** {@code --executor} and its options, {@code null} for a local run. */
    private SlurmParams slurmParams() {
        boolean slurmOptions = partition != null || account != null || timeLimit != null || gpusPerServer != 0
                || !sbatchArgs.isEmpty();
        switch (executor) {
            case "local":
                if (slurmOptions) {
                    throw new UsageException("--partition, --account, --time, --gpus-per-server and --sbatch-arg are for"
                            + " --executor slurm; add it, or leave them out for a local run");
                }
                return null;
            case "slurm":
                if (gpusPerServer < 0) {
                    throw new UsageException("--gpus-per-server " + gpusPerServer + ": expected 0 or more GPUs");
                }
                return new SlurmParams(partition, account, timeLimit, gpusPerServer, sbatchArgs);
            default:
                throw new UsageException("--executor " + executor + ": expected local or slurm");
        }
    }

    /** {@code --resume DIR}: the run's own command line, from its journal's header, run again into DIR. */
    private int resumeRun() throws Exception {
        if (!resumeGivenAlone()) {
            throw new UsageException("--resume " + resume + " takes no other option but -v: the run continues with the options it"
                    + " was started with (the first line of its " + RunJournal.FILE_NAME + ")");
        }
        RunHeader header = RunJournal.readHeader(resume).orElseThrow(() -> new UsageException("--resume " + resume
                + (java.nio.file.Files.exists(resume.resolve(RunJournal.FILE_NAME))
                ? ": its " + RunJournal.FILE_NAME + " has no run header (the line {\"run\": ...} a run writes first)"
                : ": no " + RunJournal.FILE_NAME + " there") + "; expected the folder a run wrote (its -o)"));
        header.args().stream().filter(a -> a.equals(Redaction.MASK) || a.endsWith("=" + Redaction.MASK)).findFirst()
                .ifPresent(masked -> {
                    throw new UsageException("--resume " + resume + ": the run's command line has a secret the journal masks ("
                            + masked + "); put it in the harness's environment instead (engines inherit it) and start a new run");
                });
        Main again = parseRecorded(header.args(), spec.commandLine());
        again.output = resume;
        again.verbose |= verbose;
        again.resuming = true;
        again.handleSignals = handleSignals;
        return again.call();
    }

    /**
     * Adds the help's list of the workload settings {@code -p} and {@code @Workload} take, from their one home
     * ({@link LoadOption}, after the six every workload has), before the examples.
     */
    static void listWorkloadSettings(CommandLine cmd) {
        String section = "workloadSettings";
        cmd.getHelpSectionMap().put(section, help -> {
            StringBuilder text = new StringBuilder(String.format("%nWorkload settings (-p NAME=V1,V2, or @Workload's attribute"
                    + " of that name):%n"));
            for (WorkloadSetting setting : WorkloadSetting.values()) {
                settingLine(text, setting.key(), setting.meaning(), LoadSettingOptions.takes(setting));
            }
            for (LoadOption option : LoadOption.values()) {
                settingLine(text, option.key(), option.meaning(), option.expected()
                        + (option.holdsCommas() ? " (one value, commas included)" : ""));
            }
            return text.toString();
        });
        List<String> sections = new ArrayList<>(cmd.getHelpSectionKeys());
        sections.add(sections.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), section);
        cmd.setHelpSectionKeys(sections);
    }

    /** A setting's lines of the help: its key, then what it does and what it takes, wrapped at its words. */
    private static void settingLine(StringBuilder text, String key, String meaning, String expected) {
        StringBuilder line = new StringBuilder(String.format("  %-25s", key));
        int start = 0;
        for (String word : (meaning + ": " + expected).split(" ")) {
            if (line.length() - start > 28 && line.length() - start + 1 + word.length() > 120) {
                line.append(System.lineSeparator());
                start = line.length();
                line.append(" ".repeat(27));
            }
            line.append(' ').append(word);
        }
        text.append(line).append(System.lineSeparator());
    }

    /**
     * A run's recorded command line ({@link Runner#commandLine()}) parsed as {@code --resume} reads it back, into a new
     * command that writes where {@code parent} does.
     */
    static Main parseRecorded(List<String> args, CommandLine parent) {
        if (!args.isEmpty() && args.get(0).equals("run")) {
            // a study written on the command line: its run options first, then those of any run
            RunCommand written = RunCommand.parse(args.subList(1, args.size()).toArray(String[]::new), parent);
            Main again = parse(written.runOptions.toArray(String[]::new), parent);
            again.adHoc = written.study();
            return again;
        }
        return parse(args.toArray(String[]::new), parent);
    }

    /** {@code args}, the options of a study run, parsed into a new command that writes where {@code parent} does. */
    static Main parse(String[] args, CommandLine parent) {
        return parse(new Main(), args, parent);
    }

    /** {@code args} parsed into {@code command}, which writes where {@code parent} does. */
    static <T> T parse(T command, String[] args, CommandLine parent) {
        CommandLine cmd = new CommandLine(command);
        cmd.setOut(parent.getOut());
        cmd.setErr(parent.getErr());
        cmd.parseArgs(args);
        return command;
    }

    /**
     * Runs {@code study}, written on the command line by {@code run}, with this command's options; Ctrl-C and SIGTERM
     * handled as {@code parent} handles them.
     */
    int runAdHoc(AdHocStudy study, Main parent) throws Exception {
        adHoc = study;
        handleSignals = parent.handleSignals;
        return call();
    }

    /** Whether {@code --resume} came alone, or with {@code -v}, which changes what the console shows and nothing else. */
    private boolean resumeGivenAlone() {
        return spec.commandLine().getParseResult().matchedOptions().stream()
                .allMatch(o -> o.longestName().equals("--resume") || o.longestName().equals("--verbose"))
                && spec.commandLine().getParseResult().matchedPositionals().isEmpty();
    }

    private EngineParams.Simulate simulateMode() {
        EngineParams.Simulate mode;
        if (simulate == null) {
            mode = EngineParams.Simulate.OFF;
        } else if (EngineParams.Simulate.WORDS.contains(simulate)) {
            mode = EngineParams.Simulate.of(simulate);
        } else {
            throw new UsageException("--simulate=" + simulate
                    + ": expected --simulate, --simulate=process or --simulate=virtual");
        }
        if (containerRuntime != null && !List.of("docker", "podman").contains(containerRuntime)) {
            throw new UsageException("--container-runtime " + containerRuntime + ": expected docker or podman");
        }
        if ((settleSeconds != null && settleSeconds < 0) || (readyTimeoutSeconds != null && readyTimeoutSeconds <= 0)
                || (graceSeconds != null && graceSeconds < 0)) {
            throw new UsageException("--settle, --ready-timeout and --stop-grace take seconds: settle and grace 0 or more,"
                    + " the timeout more than 0");
        }
        return mode;
    }

    /**
     * Takes the word after {@code --simulate} as its mode only when it names one, so that {@code --simulate QuickStart}
     * simulates and runs QuickStart (picocli would otherwise take QuickStart as the mode and refuse it).
     */
    static final class SimulateMode implements CommandLine.IParameterPreprocessor {
        @Override
        public boolean preprocess(java.util.Stack<String> args, CommandLine.Model.CommandSpec command,
                                  CommandLine.Model.ArgSpec option, Map<String, Object> info) {
            if ("=".equals(info.get("separator")) || args.isEmpty() || EngineParams.Simulate.WORDS.contains(args.peek())) {
                return false;
            }
            option.setValue(((CommandLine.Model.OptionSpec) option).fallbackValue());
            return true;
        }
    }

    static Map<String, List<String>> parseOverrides(List<String> params) {
        Map<String, List<String>> overrides = new LinkedHashMap<>();
        for (String p : params) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("-p " + p + ": expected NAME=V1,V2 (e.g. -p rate=1,4)");
            }
            String value = p.substring(eq + 1);
            String name = p.substring(0, eq).strip();
            List<String> values = RunOptions.paramValues(name, value);
            if (values.stream().anyMatch(String::isEmpty)) {
                throw new UsageException("-p " + p + ": empty value; expected NAME=V1,V2 (e.g. -p rate=1,4)");
            }
            if (overrides.put(p.substring(0, eq).strip(), values) != null) {
                throw new UsageException("-p " + p.substring(0, eq) + " given twice; give all values once: -p NAME=V1,V2");
            }
        }
        return overrides;
    }

    private static double share(String text) {
        try {
            return Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            throw new UsageException("--capacity=" + text + ": expected a share of requests such as 0.99");
        }
    }

    private static Duration seconds(String option, double seconds) {
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new UsageException(option + " " + seconds + ": expected a positive number of seconds");
        }
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }

    /** A command line that cannot run: reported on one line, exit code 2. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"ServeBench " + ServeBenchVersion.get()};
        }
    }
}
