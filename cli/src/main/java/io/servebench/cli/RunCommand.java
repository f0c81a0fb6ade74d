package io.servebench.cli;

import io.servebench.annotations.Profile;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.flags.Flag;
import io.servebench.study.AdHocStudy;
import io.servebench.workload.LoadOption;
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
        versionProvider = Main.Version.class,
        description = {"Runs a benchmark written on the command line: a running server (--target) or an engine ServeBench"
                + " starts (--engine), a model, and a load. It is the study a class would declare, so every report,"
                + " compare, --resume, SLURM and --simulate work unchanged; --print-study prints that class.",
                "Every option of a study run applies too (java -jar benchmarks.jar -h): -o, -r, --slo, --seed,"
                + " --simulate, --api-key-env, -p NAME=VALUES for any other load setting, ..."},
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

    @Option(names = "--profile", paramLabel = "NAME", completionCandidates = Profiles.class, description = "The arrival profile, one of ${COMPLETION-CANDIDATES} (default: " + Profile.CONSTANT + ").")
    String profile;

    @Option(names = "--rate", paramLabel = "R[,R...]", split = ",", description = "Requests per second; a list runs one block per rate, e.g. --rate 1,4,8; inf sends every request at once (the throughput profile, vllm bench serve's --request-rate inf).")
    List<String> rates = new ArrayList<>();

    @Option(names = "--concurrency", paramLabel = "N[,N...]", split = ",", description = "Streams of a concurrent (closed-loop) load; a list runs one block each. Sets --profile concurrent unless another is given.")
    List<String> concurrency = new ArrayList<>();

    @Option(names = "--requests", paramLabel = "N", description = "Measured requests of each block (default: 100).")
    Integer requests;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Stop each block's load after this long (durationSeconds).")
    Double duration;

    @Option(names = "--warmup", paramLabel = "N", description = "Requests sent before the measured ones, left out of the figures (default: 0).")
    Integer warmup;

    @Option(names = "--dataset", paramLabel = "SPEC", description = "The prompts: synthetic-sharegpt (default), sharegpt:PATH, jsonl:PATH (one request a line), synthetic:in=512,out=128, ... as a study's @Workload(dataset) takes them (docs/writing-studies.md, the table of dataset kinds).")
    String dataset;

    @Option(names = "--max-concurrency", paramLabel = "N", description = "Most requests in flight, whatever the rate (vllm bench serve's --max-concurrency).")
    Integer maxConcurrency;

    @Option(names = "--sweep-rates", paramLabel = "K", description = "With --profile sweep: the constant rates run between the synchronous and the throughput rate (guidellm's --rate K with --rate-type sweep).")
    Integer sweepRates;

    @Option(names = "--api", paramLabel = "chat|completions", description = "The OpenAI API to call (default: chat).")
    String api;

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
        if (sweepRates != null) {
            options.put(LoadOption.SWEEP_RATES.key(), sweepRates.toString());
        }
        if (maxConcurrency != null) {
            options.put(LoadOption.MAX_CONCURRENCY.key(), maxConcurrency.toString());
        }
        if (duration != null) {
            options.put(LoadOption.DURATION_SECONDS.key(), LoadOption.format(duration));
        }
        if (api != null) {
            options.put(LoadOption.API.key(), api);
        }
        boolean allAtOnce = allAtOnce();
        List<String> sendRates = allAtOnce ? List.of() : rates;
        String profileName = allAtOnce ? Profile.THROUGHPUT
                : profile != null ? profile : !concurrency.isEmpty() ? Profile.CONCURRENT : null;
        WorkloadOptions workload = new WorkloadOptions(dataset, profileName,
                sendRates.isEmpty() ? null : number("--rate", sendRates.get(0)),
                concurrency.isEmpty() ? null : whole("--concurrency", concurrency.get(0)), requests, warmup, options);
        sendRates.forEach(r -> number("--rate", r));
        concurrency.forEach(c -> whole("--concurrency", c));
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
    private boolean allAtOnce() {
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

    /** This command's own options, in one order, as the run records them to be repeated. */
    private List<String> args() {
        List<String> args = new ArrayList<>();
        add(args, "--target", target);
        add(args, "--engine", engine);
        add(args, "--flags", flags);
        add(args, "--model", model);
        add(args, "--profile", profile);
        add(args, "--rate", rates.isEmpty() ? null : String.join(",", rates));
        add(args, "--concurrency", concurrency.isEmpty() ? null : String.join(",", concurrency));
        add(args, "--requests", requests);
        add(args, "--duration", duration == null ? null : LoadOption.format(duration));
        add(args, "--warmup", warmup);
        add(args, "--dataset", dataset);
        add(args, "--max-concurrency", maxConcurrency);
        add(args, "--sweep-rates", sweepRates);
        add(args, "--api", api);
        if (!name.equals("AdHoc")) {
            add(args, "--name", name);
        }
        return args;
    }

    private static void add(List<String> args, String option, Object value) {
        if (value != null) {
            args.add(option);
            args.add(value.toString());
        }
    }

    private static double number(String option, String text) {
        try {
            double value = Double.parseDouble(text.strip());
            if (value > 0 && Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Main.UsageException("run: " + option + " " + text + " is not a positive number; expected e.g. "
                + option + " 1,4,8");
    }

    private static int whole(String option, String text) {
        try {
            int value = Integer.parseInt(text.strip());
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Main.UsageException("run: " + option + " " + text + " is not a whole number of at least 1; expected e.g. "
                + option + " 1,8,32");
    }

    /** Parses {@code args} (those after {@code run}) into this command, for a run resumed from its journal. */
    static RunCommand parse(String[] args, CommandLine parent) {
        return Main.parse(new RunCommand(), args, parent);
    }

    /** The arrival profiles' names, as {@code @Workload(profile)} takes them ({@link StudyChecker#PROFILES}). */
    static final class Profiles implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return StudyChecker.PROFILES.iterator();
        }
    }
}
