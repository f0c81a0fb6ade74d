package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.execution.BlockResults;
import io.servebench.execution.ClientWarmup;
import io.servebench.execution.ExecutionException;
import io.servebench.execution.Executor;
import io.servebench.execution.LoadNames;
import io.servebench.execution.LocalExecutor;
import io.servebench.execution.RunContext;
import io.servebench.execution.ServeBenchVersion;
import io.servebench.execution.ShutdownHooks;
import io.servebench.execution.TrialOutcomes;
import io.servebench.execution.slurm.SlurmExecutor;
import io.servebench.load.Interruption;
import io.servebench.load.RequestRecordReader;
import io.servebench.metrics.RequestTimelines;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.reports.ResultFormatType;
import io.servebench.reports.ResultFormats;
import io.servebench.results.BlockResult;
import io.servebench.results.CapacityResult;
import io.servebench.results.RequestTimeline;
import io.servebench.results.ResultFormat;
import io.servebench.results.RunResult;
import io.servebench.results.TuningResult;
import io.servebench.results.jmh.JmhJsonWriter;
import io.servebench.results.journal.RunHeader;
import io.servebench.results.journal.RunJournal;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What every run strategy does the same way: the run folder (its journal, resumed or new, and its reports, written
 * also when the run is stopped), the executor that measures its trials (here, or SLURM jobs: decided here only), the
 * client's warm-up and the study's progress lines.
 */
final class RunFolder {

    private final RunParams params;
    private final RunOptions options;
    private final PrintWriter out;
    private final UnaryOperator<String> environment;
    private final Interruption interruption;

    /**
     * @param environment  looks up environment variables (the API key's)
     * @param interruption the run's stop request
     */
    RunFolder(RunParams params, PrintWriter out, UnaryOperator<String> environment, Interruption interruption) {
        this.params = params;
        this.options = params.options();
        this.out = out;
        this.environment = environment;
        this.interruption = interruption;
    }

    /** The run's stop request. */
    Interruption interruption() {
        return interruption;
    }

    RunParams params() {
        return params;
    }

    PrintWriter out() {
        return out;
    }

    Path dir() {
        return params.outputDir();
    }

    /**
     * The executor of {@code trials}: SLURM jobs with {@code --executor slurm}, else this process. Their datasets and the
     * API key are read first, so that a missing file or variable is reported before any engine starts.
     *
     * @param adaptive whether the run chooses its next trials from what the last measured (a tuner, a capacity search):
     *                 here, the last engine is then kept running for the next round, until the executor is closed
     *
     * @throws RunnerException when a dataset cannot be read or the API key's variable is not set, or the run is interrupted
     *                         while its datasets are built
     */
    Executor executor(List<Trial> trials, boolean adaptive) {
        RunContext context;
        try {
            context = new RunContext(params.execution(), out, trials.stream().map(t -> t.workload().dataset()).distinct()
                    .toList(), environment, interruption);
        } catch (ExecutionException e) {
            throw new RunnerException(e.getMessage());
        } catch (CancellationException e) {
            if (!interruption.interrupted()) {
                throw e;
            }
            throw new RunnerException("interrupted (" + interruption.cause().orElseThrow() + ") while the datasets were"
                    + " read, before any engine started: nothing was measured (" + e.getMessage() + ")");
        }
        return options.slurm().<Executor>map(slurm -> new SlurmExecutor(params.execution(), slurm, out, interruption))
                .orElseGet(() -> new LocalExecutor(context, adaptive));
    }

    /**
     * Warms the load generator's code before the first measured request; in virtual time no request uses it, and an
     * executor that measures elsewhere sends none from here (a SLURM job warms its own).
     */
    void warmClient(Executor executor) {
        if (params.engines().simulate() != EngineParams.Simulate.VIRTUAL && executor.measuresHere()) {
            ClientWarmup.once(out);
        }
    }

    /** The folder's {@code logs/} and {@code requests/}, which every trial writes to. */
    void createFolders() throws IOException {
        Files.createDirectories(dir().resolve("logs"));
        Files.createDirectories(dir().resolve("requests"));
    }

    /**
     * For {@code --resume}, what the folder's journal holds; for a new run, nothing, after checking that the folder
     * holds no other run's journal (two runs in one journal could not be told apart).
     *
     * @param plan the run's plan; empty for a run that chooses its trials as it goes (it replays its choices)
     */
    ResumedRun resumeOrStart(Optional<TrialPlan> plan, TrialOutcomes outcomes) throws IOException {
        if (options.resume()) {
            return ResumedRun.read(dir(), plan, outcomes);
        }
        Path journal = Runner.journal(dir());
        if (Files.exists(journal) && Files.size(journal) > 0) {
            throw new RunnerException(dir() + " already holds a run (" + RunJournal.FILE_NAME + "): continue it with --resume "
                    + dir() + ", or write this run to another folder with -o");
        }
        return new ResumedRun(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), Set.of());
    }

    /** Work done with the run's journal open. */
    interface JournalWork {
        void run(RunJournal journal) throws IOException;
    }

    /**
     * Opens the run folder's journal, writing {@code header} when it is new, and does {@code work}; the reports of
     * {@code result} are written at the end, and also when Ctrl-C or SIGTERM stops the run midway (the journal has its
     * finished trials anyway).
     *
     * @return what the reports were written from
     * @throws RunFolderException when the journal or the reports cannot be written: the run stops there
     * @throws RunnerException     when another process writes the folder's journal: nothing is measured or written
     */
    RunResult journalled(RunHeader header, Supplier<RunResult> result, JournalWork work) throws IOException {
        AtomicReference<RunResult> reported = new AtomicReference<>();
        Runnable report = () -> {
            RunResult r = result.get();
            if (reported.compareAndSet(null, r)) {
                writeReports(r);
            }
        };
        RunJournal opened;
        try {
            opened = RunJournal.open(dir());
        } catch (RunJournal.InUse e) {
            // the other run's folder: nothing of it is touched, its reports least of all
            throw new RunnerException(e.getMessage());
        }
        Thread reportOnExit = new Thread(report, "servebench-report-on-exit");
        Runtime.getRuntime().addShutdownHook(reportOnExit);
        try (RunJournal journal = opened) {
            if (journal.isEmpty()) {
                journal.append(header);
            }
            work.run(journal);
        } catch (IOException | RuntimeException | Error e) {
            // what stopped the run is the failure to tell; reports that cannot be written either (a full disk) ride along
            String reports = "Its reports are written from what it measured";
            try {
                report.run();
            } catch (UncheckedIOException reportFailure) {
                e.addSuppressed(reportFailure);
                reports = "Its reports: " + reportFailure.getMessage();
            } catch (RuntimeException reportFailure) {
                e.addSuppressed(reportFailure);
            } finally {
                ShutdownHooks.remove(reportOnExit);
            }
            if (e instanceof IOException || e instanceof UncheckedIOException) {
                throw new RunFolderException(e.getMessage() + ". The run stopped there; what it measured before is"
                        + " kept in " + dir() + " (" + RunJournal.FILE_NAME + ", requests/). " + reports + ". Once"
                        + " that is mended, continue with: " + RunCommandLine.resume(dir()), e);
            }
            throw e;
        }
        try {
            report.run();
        } catch (UncheckedIOException e) {
            throw new RunFolderException(e.getMessage() + ". Every trial ran and is in " + dir() + "/"
                    + RunJournal.FILE_NAME + "; once the folder can be written again, the same command with --resume"
                    + " writes the reports without measuring again: " + RunCommandLine.resume(dir()), e);
        } finally {
            ShutdownHooks.remove(reportOnExit);
        }
        return reported.get();
    }

    /**
     * The run's results so far: the plan's blocks with what {@code outcomes} holds for them.
     *
     * @param searchStopped whether an adaptive run's steps were interrupted before they decided
     */
    RunResult result(TrialPlan plan, String startTime, TrialOutcomes outcomes, TuningResult tuning,
                     List<CapacityResult> capacities, boolean searchStopped) {
        return new RunResult(startTime, ServeBenchVersion.get(), RunCommandLine.of(params), params.engineMode(),
                options.quick(), BlockResults.of(plan.blocks(), outcomes, params.execution()), outcomes.servers(), tuning,
                capacities, searchStopped);
    }

    /**
     * Writes every report that can be written, each whole or not at all.
     *
     * @throws UncheckedIOException naming the reports that could not be written, and why
     */
    private void writeReports(RunResult result) {
        Map<Path, ResultFormat> reports = new LinkedHashMap<>();
        for (ResultFormatType type : ResultFormatType.values()) {
            reports.put(dir().resolve(type.fileName()), type == ResultFormatType.JSON
                    ? new JmhJsonWriter(null, options.jmhParamsInName())
                    : ResultFormats.of(type, params.language(), this::timeline));
        }
        for (String metric : options.jmhPrimary()) {
            reports.put(dir().resolve("results-" + metric + ".json"), new JmhJsonWriter(metric, options.jmhParamsInName()));
        }
        List<String> unwritten = new ArrayList<>();
        IOException first = null;
        for (Map.Entry<Path, ResultFormat> report : reports.entrySet()) {
            try {
                replace(report.getValue(), result, report.getKey());
            } catch (IOException e) {
                unwritten.add(report.getKey().getFileName().toString());
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw new UncheckedIOException("cannot write " + String.join(", ", unwritten) + " in " + dir() + ": "
                    + first.getMessage(), first);
        }
        // a tracker fed the file would see a series end without a word: said here, where the reports cannot
        int entries = JmhJsonWriter.entries(result);
        for (String metric : options.jmhPrimary()) {
            int with = JmhJsonWriter.entriesWith(result, metric);
            if (with < entries) {
                out.printf("  note: results-%s.json has %d of the %d entries of results.json: the other blocks have no %s"
                        + " (their notes say why)%n", metric, with, entries, metric);
            }
        }
    }

    /**
     * Writes {@code file} whole or not at all: into a file beside it, then moved over it, so that a write that fails
     * (a full disk) leaves the report an earlier write made, not an empty or cut one.
     */
    private static void replace(ResultFormat format, RunResult result, Path file) throws IOException {
        Path partial = file.resolveSibling("." + file.getFileName() + ".partial");
        try {
            format.write(result, partial);
            try {
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                // a file system that cannot rename in one step (some object-store mounts): whole still, if not at once
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException left) {
                e.addSuppressed(left);
            }
            throw e;
        }
    }

    /**
     * {@code block}'s request timeline from its first repetition's records; empty when they are not in the run folder
     * (a SLURM node's folder not shared, a block imported) or cannot be read, which leaves the report without it.
     */
    private Optional<RequestTimeline> timeline(BlockResult block) {
        try {
            Optional<Path> file = LoadNames.firstRequests(dir(), block);
            if (file.isEmpty()) {
                return Optional.empty();
            }
            RequestTimelines timeline = new RequestTimelines(options.timelineGap().orElse(Duration.ofMillis(
                    RunDefaults.TIMELINE_GAP_MS)), RequestTimelines.MAX_REQUESTS);
            RequestRecordReader.readRecovered(file.get(), timeline);
            return Optional.of(timeline.timeline());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code Reports: summary.md, report.html, results.json}, with their paths. */
    String reportsLine() {
        return "Reports: " + dir().resolve(ResultFormatType.MARKDOWN.fileName()) + ", "
                + dir().resolve(ResultFormatType.HTML.fileName()) + ", " + dir().resolve(ResultFormatType.JSON.fileName());
    }

    /**
     * The study's progress line, to the run's output or nowhere when progress is off.
     *
     * @see StudyProgress#StudyProgress
     */
    StudyProgress progress(Executor executor, List<Trial> toRun, int finished, long serverStarts) {
        return new StudyProgress(options.progress() ? out : new PrintWriter(Writer.nullWriter()), params, toRun, finished,
                serverStarts, executor.measuresHere(), System::nanoTime);
    }

    /** Where no terminal shows the bars (CI, a pipe), the study line every half minute, so a log shows the run is alive. */
    Ticker periodicLines(StudyProgress progress) {
        if (!options.progress() || System.console() != null) {
            return () -> { };
        }
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "servebench-study-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(() -> out.println(progress.line()), 30, 30, TimeUnit.SECONDS);
        return ticker::shutdownNow;
    }

    /** Stops printing; nothing to throw. */
    interface Ticker extends AutoCloseable {
        @Override
        void close();
    }
}
