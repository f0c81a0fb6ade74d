package io.servebench.cli;

import io.servebench.compare.ResultsComparison.Row;
import io.servebench.compare.ResultsComparison;
import io.servebench.results.jmh.JmhBenchmark;
import io.servebench.results.jmh.JmhJsonReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code compare A/results.json B/results.json}: per trial and metric, the change from A to B and whether it is noise. */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 120,
        description = "Compares two JMH result files (ServeBench's results.json or JMH's own): per matching entry and metric, A, B, the change and a verdict at 95%% (better, worse, no significant difference, not tested). Entries match on benchmark and params, request and warm-up counts aside (and any --ignore-param).",
        footerHeading = "%nExamples:%n",
        footer = {"  java -jar benchmarks.jar compare results/main/results.json results/pr/results.json",
                "  java -jar benchmarks.jar compare A/results.json B/results.json --fail-on latency:5%%,ttft.p99:10%%",
                "",
                "  java -jar benchmarks.jar compare A/results.json B/results.json --fail-on latency:5%% --accept-within-run",
                "  java -jar benchmarks.jar compare results/adhoc-before results/adhoc-after --ignore-param flags",
                "                                  two ad-hoc runs of one load, their engines' --flags apart",
                "",
                "A verdict needs run-to-run noise: 2 or more forks (-r) a side that vary. With fewer it is undecided, and",
                "--fail-on does not fail on it unless --accept-within-run is given.",
                "",
                "Exit codes: 0 no threshold exceeded, 3 a --fail-on threshold exceeded the bad way (a decided regression),",
                "2 bad input (missing file, not JMH JSON, bad threshold, a --fail-on or --metric metric no entry holds)."})
public final class CompareCommand implements Callable<Integer> {

    private static final Pattern THRESHOLD = Pattern.compile("([A-Za-z0-9_.\\-]+):([0-9]+(?:\\.[0-9]+)?)%");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "The reference results (JMH JSON), or a run folder holding its results.json.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "The results compared with A (JMH JSON), or a run folder.")
    Path b;

    @Option(names = "--fail-on", paramLabel = "METRIC:N%", split = ",", description = "Exit 3 when METRIC moves the bad way (up for times, down for rates) by more than N%% and the move is decided: beyond the run-to-run noise of 2 or more forks a side. METRIC is 'latency' (the primary metric) or a secondary metric name (ttft.p99).")
    List<String> failOn = new ArrayList<>();

    @Option(names = "--accept-within-run", description = "Let --fail-on fail on a within-run interval too (a bootstrap of one run's requests, which knows nothing of run-to-run noise), and on a metric with no interval on its change alone: for a CI job that can afford only one repetition and accepts false alarms.")
    boolean acceptWithinRun;

    @Option(names = "--ignore-param", paramLabel = "NAME", split = ",", description = "Match entries whatever their NAME param, to set two configurations side by side: e.g. --ignore-param flags compares an ad-hoc run's load before and after its --flags changed. Repeatable.")
    List<String> ignoredParams = new ArrayList<>();

    @Option(names = "--metric", paramLabel = "METRIC", split = ",", description = "Metrics to show (default: latency, e2e_latency.p99, ttft.mean, ttft.p99, tpot.mean, itl.mean, request_throughput, output_throughput, goodput, those present).")
    List<String> metrics = new ArrayList<>();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Double> thresholds = thresholds(failOn);
        List<JmhBenchmark> ra = read(a);
        List<JmhBenchmark> rb = read(b);
        // every metric with a threshold is shown, so a failure can be read off the table
        List<String> shown = new ArrayList<>(metrics.isEmpty() ? ResultsComparison.DEFAULT_METRICS : metrics);
        thresholds.keySet().stream().filter(m -> !shown.contains(m)).forEach(shown::add);
        // a threshold on a metric that no entry holds (a misspelling) would never be checked, and the gate always pass
        Set<String> held = new java.util.TreeSet<>();
        java.util.stream.Stream.concat(ra.stream(), rb.stream()).forEach(e -> {
            held.add(ResultsComparison.PRIMARY);
            held.addAll(e.secondaryMetrics().keySet());
        });
        for (String metric : thresholds.keySet()) {
            if (!held.contains(metric)) {
                throw new Main.UsageException("--fail-on " + metric + ": no entry of " + a + " or " + b + " has " + metric
                        + "; expected a metric the files hold: " + String.join(", ", held));
            }
        }
        for (String metric : metrics) {
            if (!held.contains(metric)) {
                throw new Main.UsageException("--metric " + metric + ": no entry of " + a + " or " + b + " has it;"
                        + " expected a metric the files hold: " + String.join(", ", held));
            }
        }
        Set<String> ignored = Set.copyOf(ignoredParams);
        ResultsComparison.Result result = ResultsComparison.compare(ra, rb, shown, ignored);
        if (result.matches().isEmpty()) {
            List<ResultsComparison.ParamDifference> nearest = ResultsComparison.nearestDifference(ra, rb, ignored);
            throw new Main.UsageException("no entry of " + a + " matches one of " + b
                    + " (same benchmark and params, request and warm-up counts aside); nothing to compare" + (nearest
                    .isEmpty() ? ": no benchmark is in both" : ". The nearest entries of one benchmark differ in "
                    + nearest.stream().map(Object::toString).collect(java.util.stream.Collectors.joining("; "))
                    + "; to set them side by side anyway: --ignore-param " + nearest.stream()
                    .map(ResultsComparison.ParamDifference::name).collect(java.util.stream.Collectors.joining(","))));
        }
        List<String> regressions = new ArrayList<>();
        int notChecked = 0;
        int ranElsewhere = 0;
        for (ResultsComparison.Match m : result.matches()) {
            out.println(m.benchmark() + (m.params().isEmpty() ? "" : " " + m.params()));
            m.differences().stream().filter(d -> ignored.contains(d.name()))
                    .forEach(d -> out.println("  (" + d + ")"));
            if (!m.elsewhere().isEmpty()) {
                ranElsewhere++;
                out.println("  (ran elsewhere: " + m.elsewhere().stream().map(Object::toString)
                        .collect(java.util.stream.Collectors.joining("; ")) + ")");
            }
            out.printf(Locale.ROOT, "  %-26s %14s %14s %9s  %s%n", "metric", "A", "B", "change", "verdict at 95%");
            for (Row row : m.rows()) {
                out.printf(Locale.ROOT, "  %-26s %14s %14s %8.2f%%  %s%n", row.metric() + " (" + row.unit() + ")",
                        number(row.a()), number(row.b()), 100 * row.change(), row.verdict());
                Double threshold = thresholds.get(row.metric());
                if (threshold != null && row.regressed(threshold / 100, acceptWithinRun)) {
                    regressions.add(String.format(Locale.ROOT, "%s %s: %s changed %+.2f%% (threshold %s%%)", m.benchmark(),
                            m.params(), row.metric(), 100 * row.change(), new java.math.BigDecimal(threshold.toString()).stripTrailingZeros().toPlainString()));
                }
            }
            for (String metric : thresholds.keySet()) {
                if (m.rows().stream().noneMatch(r -> r.metric().equals(metric))) {
                    out.println("  " + metric + ": not in both files, not checked");
                    notChecked++;
                }
            }
            out.println();
        }
        result.onlyInA().forEach(k -> out.println("only in A: " + k));
        result.onlyInB().forEach(k -> out.println("only in B: " + k));
        out.println("Intervals: on B / A at 95%, from fork values when both sides have 2 or more forks that vary (run-to-run"
                + " noise: a verdict); else a seeded bootstrap of the latency histograms (within-run noise only: undecided);"
                + " 'not tested' when neither is possible.");
        if (ranElsewhere > 0) {
            out.println(ranElsewhere + " of the " + result.matches().size() + " entries ran elsewhere in A than in B (named"
                    + " above): their differences are the engine's or the GPUs' as much as the change's");
        }
        long undecided = result.matches().stream().flatMap(m -> m.rows().stream()).filter(r -> !r.decided()).count();
        if (undecided > 0) {
            out.println("Run-to-run noise was not measured for " + undecided + " of the rows: give each side 2 or more"
                    + " repetitions (-r 3) to decide them" + (acceptWithinRun ? "; --accept-within-run lets within-run"
                    + " intervals fail the check" : "; --fail-on does not fail on them"));
        }
        if (regressions.isEmpty()) {
            out.println(thresholds.isEmpty() ? "No thresholds given." : notChecked == 0 ? "No threshold exceeded."
                    : "No threshold exceeded of those checked; " + notChecked + " could not be checked, as a side lacked"
                    + " the metric (named above)");
            return 0;
        }
        regressions.forEach(r -> out.println("REGRESSION: " + r));
        return Main.REGRESSION;
    }

    /** {@code latency:5%} → {@code latency = 5.0}; a bad spelling is a usage error. */
    static Map<String, Double> thresholds(List<String> specs) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String spec : specs) {
            Matcher m = THRESHOLD.matcher(spec.strip());
            if (!m.matches()) {
                throw new Main.UsageException("--fail-on " + spec + ": expected METRIC:N% such as latency:5% or ttft.p99:10%");
            }
            out.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        return out;
    }

    /** A results file, or a run folder's {@code results.json}, as a run's {@code -o} names it. */
    private static List<JmhBenchmark> read(Path given) {
        Path file = Files.isDirectory(given) ? given.resolve("results.json") : given;
        if (!Files.isRegularFile(file)) {
            throw new Main.UsageException(file + ": no such file; expected a results.json written by ServeBench or JMH"
                    + (Files.isDirectory(given) ? ", as a run folder holds once its run has ended" : ""));
        }
        try {
            return new JmhJsonReader().read(file);
        } catch (IOException e) {
            throw new Main.UsageException(file + " cannot be compared: " + e.getMessage().lines().findFirst().orElse("")
                    + "; expected a results.json written by ServeBench or JMH");
        }
    }

    private static String number(double v) {
        return Math.abs(v) >= 1 ? String.format(Locale.ROOT, "%.3f", v) : String.format(Locale.ROOT, "%.4g", v);
    }
}
