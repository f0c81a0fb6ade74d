package io.servebench.cli;

import io.servebench.annotations.Profile;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.flags.Flag;
import io.servebench.study.AdHocStudy;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;
import io.servebench.study.StudyChecker;
import io.servebench.study.WorkloadOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code benchmarks.jar run}: a benchmark written on the command line, no class needed, as {@code vllm bench serve} and
 * guidellm take one. Its options build the study a class would declare ({@link AdHocStudy}); every option of a study
 * run ({@code -o}, {@code -r}, {@code --slo}, {@code --simulate}, {@code -p}, ...) is taken as {@link Main} takes it.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 120,
        versionProvider = Main.Version.class, modelTransformer = RunCommand.LoadSettings.class,
        customSynopsis = {"benchmarks.jar run (--target URL | --engine vllm|sglang|sim [--flags \"FLAGS\"]) --model NAME"
                + " [LOAD OPTIONS] [STUDY RUN OPTIONS]"},
        description = {"Runs a benchmark written on the command line: a running server (--target) or an engine ServeBench"
                + " starts (--engine), a model, and a load. It is the study a class would declare, so every report,"
                + " compare, --resume, SLURM and --simulate work unchanged; --print-study prints that class.",
                "Its load: an option for each workload setting, from --dataset to --endpoint-weights, the settings"
                        + " -p and @Workload take (java -jar benchmarks.jar -h lists them).",
                "Every option of a study run applies too (java -jar benchmarks.jar -h): -o, -r, --slo, --seed,"
                + " --simulate, --api-key-env, -p NAME=V1,V2 for a list of any other setting's values, ..."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  java -jar benchmarks.jar run --target http://127.0.0.1:8000 --model Qwen/Qwen3-8B --rate 1,4,8 \\",
                "      --requests 500 --dataset synthetic-sharegpt -o results/adhoc",
                "                                  three rates against a running server: one block each",
                "  java -jar benchmarks.jar run --engine vllm --flags \"--max-num-seqs=64 --gpu-memory-utilization=0.9\" \\",
                "      --model Qwen/Qwen3-8B --concurrency 1,8,32 --requests 300 -r 3",
                "                                  ServeBench starts vLLM, three repetitions of each concurrency",
                "  java -jar benchmarks.jar run --engine vllm --model Qwen/Qwen3-8B --rate 4 --simulate=virtual",
                "                                  the same on the simulated engine, in virtual time",
                "  java -jar benchmarks.jar run --target http://gpu-host:8000 --model m --rate 4 --print-study > AdHoc.java",
                "                                  the class to keep in your project"})
public final class RunCommand implements Callable<Integer> {

    /** The engine kinds {@code --engine} may name: those ServeBench starts from a model and flags. */
    static final List<String> ENGINES = List.of(EngineKinds.VLLM.name(), EngineKinds.SGLANG.name(), EngineKinds.SIM.name());

    @Spec
    CommandSpec spec;

    @ParentCommand
    Main parent;

    @Option(names = "--target", paramLabel = "URL", description = "The running server's base URL, e.g. http://127.0.0.1:8000 (a /v1 after it, or an API's whole path such as /v1/chat/completions, is cut back); several, comma-separated, for replicas of one engine.")
    String target;

    @Option(names = "--engine", paramLabel = "KIND", description = "Start this engine instead, supervised as a study's: vllm, sglang or sim.")
    String engine;

    @Option(names = "--flags", paramLabel = "\"FLAGS\"", description = "With --engine: its flags as its own command line takes them, --name=value, --name value or --name, e.g. \"--tensor-parallel-size 2 --max-num-seqs=64 --enable-prefix-caching\" (not read by a shell: no quoting inside).")
    String flags;

    @Option(names = "--model", required = true, paramLabel = "NAME", description = "The served model, as requests name it and the engine loads it, e.g. Qwen/Qwen3-8B.")
    String model;

    @Option(names = "--name", paramLabel = "CLASS", description = "The name the benchmarks are reported under, and the class --print-study declares (default: ${DEFAULT-VALUE}).")
    String name = "AdHoc";

    @Option(names = "--print-study", description = "Print the Java class that declares this study, and exit; it compiles with the annotation processor.")
    boolean printStudy;

    /** The options of a study run, which {@link Main} reads. */
    @Unmatched
    List<String> runOptions = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        AdHocStudy study = study();
        if (printStudy) {
            spec.commandLine().getOut().print(study.javaSource());
            spec.commandLine().getOut().flush();
            return Main.OK;
        }
        Main main = Main.parse(runOptions.toArray(String[]::new), spec.commandLine());
        return main.runAdHoc(study, parent);
    }

    /** The study these options declare, checked as the processor checks a class. */
    AdHocStudy study() {
        if (target == null && engine == null && runOptions.stream().anyMatch(o -> o.startsWith("--simulate"))) {
            throw new Main.UsageException("run: --simulate stands the simulated engine in for the engine a run starts;"
                    + " name that engine, e.g. --engine vllm --simulate=virtual (or --engine sglang)");
        }
        if ((target == null) == (engine == null)) {
            throw new Main.UsageException("run: give either --target URL (a running server) or --engine KIND (one"
                    + " ServeBench starts), e.g. --target http://127.0.0.1:8000");
        }
        if (engine != null && !ENGINES.contains(engine)) {
            throw new Main.UsageException("run: --engine " + engine + " is not one ServeBench starts from a model; expected"
                    + " one of " + String.join(", ", ENGINES) + " (for another server, start it and give --target)");
        }
        if (flags != null && engine == null) {
            throw new Main.UsageException("run: --flags are the flags of an engine ServeBench starts: they need --engine");
        }
        if (!name.matches("[A-Za-z_$][A-Za-z0-9_$]*")) {
            throw new Main.UsageException("run: --name " + name + " is not a Java class name, e.g. --name QwenLatency");
        }
        List<String> engineFlags = flags == null ? List.of() : Flag.ofLine(flags);
        Map<String, String> options = new LinkedHashMap<>();
        for (LoadOption option : LoadOption.values()) {
            String value = value(option.key());
            if (value != null) {
                String problem = option.problem(value);
                if (problem != null) {
                    throw new Main.UsageException("run: " + LoadSettingOptions.names(option.key())[0] + " " + value + ": "
                            + problem);
                }
                options.put(option.key(), option.normalize(value));
            }
        }
        List<String> rates = values(WorkloadSetting.RATE);
        List<String> concurrency = values(WorkloadSetting.CONCURRENCY);
        String profile = value(WorkloadSetting.PROFILE.key());
        boolean allAtOnce = allAtOnce(rates, profile);
        List<String> sendRates = allAtOnce ? List.of() : rates;
        String profileName = allAtOnce ? Profile.THROUGHPUT
                : profile != null ? profile : !concurrency.isEmpty() ? Profile.CONCURRENT : null;
        sendRates.forEach(r -> number(WorkloadSetting.RATE, r));
        concurrency.forEach(c -> number(WorkloadSetting.CONCURRENCY, c));
        WorkloadOptions workload = new WorkloadOptions(value(WorkloadSetting.DATASET.key()), profileName,
                sendRates.isEmpty() ? null : number(WorkloadSetting.RATE, sendRates.get(0)),
                concurrency.isEmpty() ? null : (int) number(WorkloadSetting.CONCURRENCY, concurrency.get(0)),
                count(WorkloadSetting.REQUESTS), count(WorkloadSetting.WARMUP), options);
        AdHocStudy study = AdHocStudy.of(name, model, target != null ? EngineKinds.ENDPOINT.name() : engine, engineFlags,
                target != null ? new EngineSetup("", List.of(), "", List.of(), target, "") : EngineSetup.NONE, workload,
                sendRates, concurrency, args());
        List<String> problems = StudyChecker.check(study.study()).stream().map(p -> p.message()).toList();
        if (!problems.isEmpty()) {
            throw new Main.UsageException("run: " + String.join("; ", problems));
        }
        return study;
    }

    /**
     * Whether {@code --rate} asks for every request at once, as {@code vllm bench serve --request-rate inf} does: the
     * {@code throughput} profile. It is a block of its own kind, so it stands alone.
     */
    private static boolean allAtOnce(List<String> rates, String profile) {
        if (rates.stream().noneMatch(RunCommand::infinite)) {
            return false;
        }
        if (rates.size() > 1) {
            throw new Main.UsageException("run: --rate " + String.join(",", rates) + ": inf sends every request at"
                    + " once (the throughput profile), which is a block of its own; expected --rate inf alone, or finite"
                    + " rates (--profile sweep measures from one request at a time to all at once, and rates between)");
        }
        if (profile != null && !profile.equals(Profile.THROUGHPUT)) {
            throw new Main.UsageException("run: --rate inf sends every request at once, which --profile " + profile
                    + " does not; expected --rate inf without --profile (or with --profile throughput)");
        }
        return true;
    }

    /** {@code inf} or {@code infinity}, as Python's {@code float()} reads {@code vllm bench serve}'s argument. */
    private static boolean infinite(String rate) {
        String r = rate.strip().toLowerCase(java.util.Locale.ROOT);
        return r.equals("inf") || r.equals("infinity") || r.equals("+inf");
    }

    /** This command's options, in one order, as the run records them to be repeated. */
    private List<String> args() {
        List<String> args = new ArrayList<>();
        add(args, "--target", target);
        add(args, "--engine", engine);
        add(args, "--flags", flags);
        add(args, "--model", model);
        for (String key : WorkloadSetting.keys()) {
            List<String> values = values(key);
            add(args, LoadSettingOptions.names(key)[0], values.isEmpty() ? null : String.join(",", values));
        }
        LoadOption.keys().forEach(key -> add(args, LoadSettingOptions.names(key)[0], value(key)));
        if (!name.equals("AdHoc")) {
            add(args, "--name", name);
        }
        return args;
    }

    private static void add(List<String> args, String option, String value) {
        if (value != null) {
            args.add(option);
            args.add(value);
        }
    }

    /** The value given to the option of setting {@code key}, or {@code null}. */
    private String value(String key) {
        List<String> values = values(key);
        return values.isEmpty() ? null : values.get(0);
    }

    /** The values given to the option of setting {@code key}: one, a list (rate, concurrency), or none. */
    private List<String> values(String key) {
        Object value = spec.findOption(LoadSettingOptions.names(key)[0]).getValue();
        return value == null ? List.of() : value instanceof List<?> list ? list.stream().map(String::valueOf).toList()
                : List.of(value.toString());
    }

    private List<String> values(WorkloadSetting setting) {
        return values(setting.key());
    }

    /** {@code text} as the value of a numeric setting, refused naming what it takes. */
    private static double number(WorkloadSetting setting, String text) {
        String option = LoadSettingOptions.names(setting.key())[0];
        try {
            double value = Double.parseDouble(text.strip());
            if (setting.inRange(value) && (!setting.wholeNumber() || value == Math.rint(value) && value <= Integer.MAX_VALUE)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Main.UsageException("run: " + option + " " + text + " is not " + setting.expected());
    }

    /** The value of a count setting given (requests, warm-up), or {@code null}. */
    private Integer count(WorkloadSetting setting) {
        String text = value(setting.key());
        return text == null ? null : (int) number(setting, text);
    }

    /** Parses {@code args} (those after {@code run}) into this command, for a run resumed from its journal. */
    static RunCommand parse(String[] args, CommandLine parent) {
        return Main.parse(new RunCommand(), args, parent);
    }

    /**
     * Adds an option for each workload setting, from their one home: {@code run}'s load is what {@code @Workload} and
     * {@code -p} take, named as they name it.
     */
    static final class LoadSettings implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            for (WorkloadSetting setting : WorkloadSetting.values()) {
                spec.addOption(LoadSettingOptions.option(setting, switch (setting) {
                    case RATE -> "a positive number, or inf for every request at once (the throughput profile, vllm"
                            + " bench serve's --request-rate inf); a list runs one block per rate, e.g. --rate 1,4,8";
                    case CONCURRENCY -> LoadSettingOptions.takes(setting) + "; a list runs one block each, e.g."
                            + " --concurrency 1,8,32; sets --profile concurrent unless another is given";
                    default -> LoadSettingOptions.takes(setting);
                }));
            }
            for (LoadOption option : LoadOption.values()) {
                spec.addOption(LoadSettingOptions.option(option));
            }
            return spec;
        }
    }
}
