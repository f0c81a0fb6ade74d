package io.servebench.runner;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** Entry point of {@code benchmarks.jar}: JMH-style options over the benchmarks found on the class path. */
@Command(name = "benchmarks.jar", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        sortOptions = false, usageHelpAutoWidth = true, subcommands = LoadCheckCommand.class,
        description = {"Runs ServeBench studies: starts each engine, drives an open-loop streaming load, measures every",
                "request and token, and writes results.json (JMH format), summary.md and per-request records."},
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
                "Exit codes: 0 all trials ran, 1 a trial failed, 2 bad command line or study."})
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

    @Option(names = "-p", paramLabel = "NAME=V1,V2", description = {
            "Override a parameter or workload setting (dataset, profile, rate, concurrency, requests, warmup)",
            "with a list of values; the benchmarks expand over them. Repeatable."})
    List<String> params = new ArrayList<>();

    @Option(names = "-r", paramLabel = "N", description = "Repetitions of every trial, for noise estimates (default: ${DEFAULT-VALUE}).")
    int repetitions = 1;

    @Option(names = "-o", paramLabel = "DIR", description = "Results folder (default: results/<timestamp>).")
    Path output;

    @Option(names = "--simulate", description = "Run every trial on the built-in simulated engine, which reads the flags of the study's engine.")
    boolean simulate;

    @Option(names = "--quick", description = {"Shorten each trial to about " + RunParams.QUICK_SECONDS
            + " s of load (at least " + RunParams.QUICK_MIN_REQUESTS + " requests):", "a first look, noisier than the declared workload."})
    boolean quick;

    @Option(names = "--seed", paramLabel = "N", description = "Seed for request order, arrival times and the simulated engine (default: ${DEFAULT-VALUE}).")
    long seed = 42;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line and returns its exit code; what {@link #main} does, without exiting. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cmd = new CommandLine(new Main());
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setParameterExceptionHandler((e, a) -> {
            err.println("error: " + e.getMessage() + " (see -h)");
            return CommandLine.ExitCode.USAGE;
        });
        cmd.setExecutionExceptionHandler((e, c, r) -> {
            if (e instanceof UsageException || e instanceof IllegalArgumentException) {
                err.println("error: " + e.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            throw e;
        });
        return cmd.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        Map<String, List<String>> overrides = parseOverrides(params);
        Path dir = output != null ? output
                : Path.of("results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        RunParams run = new RunParams(includes, overrides, repetitions, dir, simulate, quick, seed);
        PrintWriter out = spec.commandLine().getOut();
        Runner runner = new Runner(run, out);
        if (list) {
            runner.selectedBenchmarks().forEach(out::println);
            return 0;
        }
        if (dryRun) {
            runner.printPlan();
            return 0;
        }
        return runner.run() ? 0 : 1;
    }

    static Map<String, List<String>> parseOverrides(List<String> params) {
        Map<String, List<String>> overrides = new LinkedHashMap<>();
        for (String p : params) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("-p " + p + ": expected NAME=V1,V2 (e.g. -p rate=1,4)");
            }
            List<String> values = Arrays.stream(p.substring(eq + 1).split(",")).map(String::strip).toList();
            if (values.stream().anyMatch(String::isEmpty)) {
                throw new UsageException("-p " + p + ": empty value; expected NAME=V1,V2 (e.g. -p rate=1,4)");
            }
            if (overrides.put(p.substring(0, eq).strip(), values) != null) {
                throw new UsageException("-p " + p.substring(0, eq) + " given twice; give all values once: -p NAME=V1,V2");
            }
        }
        return overrides;
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
