package io.servebench.cli;

import io.servebench.loadcheck.LoadCheck;
import io.servebench.execution.ClientWarmup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code benchmarks.jar loadcheck}: how precise and how fast the load generator is, against a known truth. */
@Command(name = "loadcheck", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 120,
        versionProvider = Main.Version.class,
        description = "Starts the ground-truth streaming server in this JVM with a fixed script (role chunk, one token per event, final usage), drives it, and prints achieved vs requested rate, schedule lag, TTFT and ITL error against the server's own write times, events/s, peak streams, client CPU per event (user and kernel), server CPU per event, how busy the process kept the machine, the connection pool's counts, the host's open-file and port limits, and warnings for anything that held the check back. The last line is a key=value summary. Client and server share the machine: on a small one the figures measure the machine as much as the client.",
        footerHeading = "%nExamples:%n",
        footer = {
                "  java -jar benchmarks.jar loadcheck --rate 500 --tokens 100 --duration 20",
                "                                              ~50,000 events/s and ~1,000 open streams",
                "  java -jar benchmarks.jar loadcheck --concurrency 2000 --tokens 100 --gap-ms 20 --duration 20",
                "                                              2,000 streams held open",
                "  java -jar benchmarks.jar loadcheck --rate 5000 --tokens 100 --duration 15 --server-threads 4",
                "                                              ~500,000 events/s, for a machine of 16 cores or more",
                "  java -jar benchmarks.jar loadcheck --rate 5000 --tokens 100 --duration 15 --split",
                "                                              the same with the truth server in a process of its own",
                "  java -jar benchmarks.jar loadcheck --rate 5000 --tokens 100 --duration 15 --split --load-workers 4",
                "                                              and the client's load spread over four processes",
                "  java -jar benchmarks.jar loadcheck --rate 10000 --tokens 100 --duration 15 --split 2 --load-workers 4",
                "                                              ~20,000 streams: two truth servers, each with its own files",
                "  java -jar benchmarks.jar loadcheck --rate 50 --duration 5 | tail -1    the summary line only"})
public final class LoadCheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--rate", paramLabel = "R", description = "Requests per second, constant (default: ${DEFAULT-VALUE}).")
    double rate = 500;

    @Option(names = "--concurrency", paramLabel = "N", description = "Closed loop with N streams instead of a constant rate.")
    int concurrency;

    @Option(names = "--tokens", paramLabel = "T", description = "Tokens per request, one per event (default: ${DEFAULT-VALUE}).")
    int tokens = 100;

    @Option(names = "--duration", paramLabel = "S", description = "Seconds of measured load (default: ${DEFAULT-VALUE}).")
    double durationSeconds = 20;

    // --warmup-seconds as run names it (its --warmup counts requests); --warmup, this command's first name, still reads
    @Option(names = {"--warmup-seconds", "--warmup"}, paramLabel = "S", description = "Seconds of load before it, left out of the figures (default: ${DEFAULT-VALUE}).")
    double warmupSeconds = 3;

    @Option(names = "--ttft-ms", paramLabel = "MS", description = "The server's time to first token (default: ${DEFAULT-VALUE}).")
    double ttftMs = 20;

    @Option(names = "--gap-ms", paramLabel = "MS", description = "The server's gap between token events (default: ${DEFAULT-VALUE}).")
    double gapMs = 10;

    @Option(names = "--server-threads", paramLabel = "N", description = "The truth server's event-loop threads"
            + " (default: three per eight cores, here ${DEFAULT-VALUE}); one loop carries at most 1,000,000 / (server CPU per"
            + " event, in us) events/s, which the check prints.")
    int serverThreads = LoadCheck.defaultServerLoops();

    @Option(names = "--split", arity = "0..1", fallbackValue = "1", paramLabel = "N", description = "Run the truth server"
            + " in a process of its own, or in N of them: each side then has its own open-files limit (one file per"
            + " connection each, not two in one process), and the client's process holds the client alone; they compare"
            + " over pipes. N processes each serve on a port of their own, the load spread over them round robin, and"
            + " --server-threads shared out among them: N times the server's files, and N times the client's local"
            + " ports (one range per server port). N, and --load-workers, at most the machine's cores.")
    int split;

    @Option(names = "--load-workers", paramLabel = "N", description = "Spread the client's load over N worker processes,"
            + " each with its own open-files limit, I/O threads and collector (default: ${DEFAULT-VALUE}, this process"
            + " alone); a constant --rate only. Client CPU is then the workers' load path, and the busy share counts"
            + " every process.")
    int loadWorkers = 1;

    /**
     * The truth server alone, answering on standard input and output as a {@code --split} check's child does:
     * scripts/peer/compare drives it with two clients in turn.
     */
    @Option(names = "--truth-server", hidden = true)
    boolean truthServer;

    @Override
    public Integer call() throws Exception {
        if (ttftMs < 0 || gapMs < 0) {
            throw new IllegalArgumentException("--ttft-ms and --gap-ms must be >= 0, got " + ttftMs + " and " + gapMs);
        }
        LoadCheck check = new LoadCheck(rate, concurrency, tokens, seconds(durationSeconds), seconds(warmupSeconds),
                millis(ttftMs), millis(gapMs), serverThreads, split, loadWorkers);
        if (truthServer) {
            LoadCheck.serveTruth(check, new java.io.OutputStreamWriter(System.out, java.nio.charset.StandardCharsets.UTF_8),
                    new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8)));
            return 0;
        }
        check.requireCores(Runtime.getRuntime().availableProcessors());
        ClientWarmup.once(spec.commandLine().getOut());
        check.run().print(spec.commandLine().getOut());
        return 0;
    }

    private static Duration seconds(double s) {
        return Duration.ofNanos(Math.round(s * 1e9));
    }

    private static Duration millis(double ms) {
        return Duration.ofNanos(Math.round(ms * 1e6));
    }
}
