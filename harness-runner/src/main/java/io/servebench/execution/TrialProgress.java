package io.servebench.execution;

import io.servebench.load.LoadListener;
import io.servebench.load.RequestRecord;
import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.metrics.gpu.GpuSample;
import io.servebench.metrics.gpu.GpuTelemetry;
import io.servebench.results.RepetitionResult;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shows one trial's progress: a live bar on a terminal, and on a pipe (CI, {@code | tee}) one line when the load
 * ends, with the figures a verdict rests on and why it stopped early when it did, so logs stay readable; verbose
 * ({@code -v}), a line when it starts and one per time slice too. A load in which no request has ended for
 * {@link #QUIET_NOTICE} while some are in flight says so then and as often again, on a pipe in a line and on a terminal
 * on the bar until a request ends (an engine that stopped answering shows as that, not as a count that stands still
 * until {@code --request-timeout} fails the requests).
 */
final class TrialProgress implements LoadListener, AutoCloseable {

    private final PrintWriter out;
    private final String name;
    private final ProgressBar bar;
    /** Whether the load's start and its slices get lines of their own on a pipe. */
    private final boolean verbose;
    /** The first slice's line, held until a second slice closes. */
    private String firstSlice;
    /** The engine's GPUs as sampled while the load runs; null without telemetry. */
    private volatile GpuTelemetry.Recording gpus;
    /** When the bar's GPU figures were last set, ns. */
    private long gpuShownNs;
    /** What the bar shows after its count: the last slice's figures, then the GPUs'. */
    private String sliceShown = "";
    private String gpuShown = "";
    /** What the GPU figures are called: the simulated engine's come from its power model, not a GPU. */
    private volatile String gpuName = "GPU";

    /** How long a load on a pipe may go with requests in flight and none ending before a line says so. */
    static final Duration QUIET_NOTICE = Duration.ofSeconds(60);
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong ended = new AtomicLong();
    /** When a request last ended, or the load began, ns. */
    private volatile long lastEndNs = System.nanoTime();
    /** Looks for a quiet load every {@code quiet}; null when nothing is shown. */
    private final ScheduledExecutorService watch;
    /** What the bar says of a quiet load, empty once a request ends. */
    private String quietShown = "";

    private TrialProgress(PrintWriter out, String name, ProgressBar bar, boolean verbose, Duration quiet) {
        this.out = out;
        this.name = name;
        this.bar = bar;
        this.verbose = verbose;
        if (quiet == null) {
            this.watch = null;
            return;
        }
        this.watch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "servebench-quiet-load");
            t.setDaemon(true);
            return t;
        });
        watch.scheduleAtFixedRate(() -> quietNotice(quiet), quiet.toNanos(), quiet.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** On a pipe: {@link #start}'s, with the quiet time a test chooses. */
    static TrialProgress onPipe(PrintWriter out, String name, boolean verbose, Duration quiet) {
        return new TrialProgress(out, name, null, verbose, quiet);
    }

    private void quietNotice(Duration quiet) {
        long inFlight = sent.get() - ended.get();
        long silentNs = System.nanoTime() - lastEndNs;
        if (inFlight > 0 && silentNs >= quiet.toNanos()) {
            long silent = TimeUnit.NANOSECONDS.toSeconds(silentNs);
            String timeout = " (one that hears nothing for --request-timeout fails)";
            if (bar == null) {
                out.printf("%s: %d in flight, none ended for %d s%s%n", name, inFlight, silent, timeout);
                return;
            }
            synchronized (this) {
                // what matters first, for a narrow terminal that cuts the bar's line short
                quietShown = String.format(" none ended for %d s, %d in flight%s", silent, inFlight, timeout);
                bar.setExtraMessage(shown());
            }
        }
    }

    /** The bar's words after its count: a quiet load's notice, else the last slice's figures and the GPUs'. */
    private String shown() {
        return quietShown.isEmpty() ? sliceShown + gpuShown : quietShown;
    }

    @Override
    public void onSend(long id) {
        sent.incrementAndGet();
    }

    /**
     * @param shown   whether anything is printed at all; off, the progress only counts (for {@code progress(false)})
     * @param verbose whether, on a pipe, the load's start and its time slices get lines of their own
     */
    static TrialProgress start(PrintWriter out, String name, int requests, boolean shown, boolean verbose) {
        if (!shown) {
            return new TrialProgress(new PrintWriter(java.io.Writer.nullWriter()), name, null, false, null);
        }
        if (System.console() == null) {
            if (verbose) {
                out.printf("%s: %d requests...%n", name, requests);
            }
            return onPipe(out, name, verbose, QUIET_NOTICE);
        }
        return onTerminal(out, name, requests, verbose, QUIET_NOTICE, new ProgressBarBuilder());
    }

    /** On a terminal: {@link #start}'s, drawn by {@code builder} (a test's, with its own consumer). */
    static TrialProgress onTerminal(PrintWriter out, String name, int requests, boolean verbose, Duration quiet,
                                    ProgressBarBuilder builder) {
        ProgressBar bar = builder.setTaskName(name).setInitialMax(requests).setStyle(ProgressBarStyle.ASCII)
                .setUnit(" req", 1).setUpdateIntervalMillis(250).continuousUpdate().build();
        return new TrialProgress(out, name, bar, verbose, quiet);
    }

    /** Shows {@code recording}'s latest power and utilisation on the bar while the load runs. */
    void gpus(GpuTelemetry.Recording recording) {
        this.gpus = recording;
    }

    @Override
    public void onComplete(RequestRecord record) {
        ended.incrementAndGet();
        lastEndNs = System.nanoTime();
        if (bar != null) {
            bar.step();
            GpuTelemetry.Recording g = gpus;
            long now = System.nanoTime();
            synchronized (this) {
                if (!quietShown.isEmpty()) {
                    quietShown = "";
                    bar.setExtraMessage(shown());
                }
                if (g != null && now - gpuShownNs > 1_000_000_000L) {
                    gpuShownNs = now;
                    List<GpuSample> latest = g.latest();
                    if (!latest.isEmpty()) {
                        gpuShown = " " + gpuFigures(latest.stream().mapToDouble(GpuSample::watts).sum(),
                                latest.stream().mapToDouble(GpuSample::gpuUtilization).average().orElse(Double.NaN));
                        bar.setExtraMessage(shown());
                    }
                }
            }
        }
    }

    /** The load runs on the simulated engine: its GPU figures are its power model's, and the lines say so. */
    void simulatedGpu() {
        gpuName = "simulated GPU";
    }

    /** {@code GPU 612 W, 97% util}: the GPUs' power together and their mean utilisation. */
    private String gpuFigures(double watts, double utilization) {
        return gpuName + " " + format(watts, 0) + " W" + (Double.isNaN(utilization) ? "" : ", " + format(utilization, 0) + "% util");
    }

    /**
     * A time slice of the load has closed: its figures go on the bar's line (a terminal) or on a line of their own, so
     * a long load shows how it goes while it runs.
     */
    void slice(java.util.Map.Entry<Integer, RepetitionResult> slice) {
        RepetitionResult m = slice.getValue();
        String figures = String.format(java.util.Locale.ROOT, "slice %d: %.0f ok, %.0f failed, mean latency %s s, P99 TTFT %s ms,"
                + " mean ITL %s ms, %s tok/s", slice.getKey() + 1,
                m.value(Metric.SUCCESSFUL_REQUESTS).orElse(0), m.value(Metric.FAILED_REQUESTS).orElse(0),
                format(m.number(Metric.E2E_LATENCY, Stat.MEAN).orElse(Double.NaN), 3),
                format(m.number(Metric.TTFT, Stat.P99).orElse(Double.NaN), 1),
                format(m.number(Metric.ITL, Stat.MEAN).orElse(Double.NaN), 2),
                format(m.number(Metric.OUTPUT_THROUGHPUT, null).orElse(Double.NaN), 0));
        if (bar != null) {
            synchronized (this) {
                sliceShown = " " + figures;
                bar.setExtraMessage(shown());
            }
        } else if (!verbose) {
            return;
        } else if (slice.getKey() == 0) {
            // a load of one slice says it all in its last line: the first slice's line waits for a second slice
            firstSlice = figures;
        } else {
            if (firstSlice != null) {
                out.printf("  %s %s%n", name, firstSlice);
                firstSlice = null;
            }
            out.printf("  %s %s%n", name, figures);
        }
    }

    /**
     * Ends the bar and prints the load's headline numbers, and why it stopped early when it did.
     *
     * @param stop the stop condition or interruption that ended sending early, in one sentence; empty when every
     *             request went out
     */
    void finish(RepetitionResult metrics, java.util.Optional<String> stop) {
        close();
        long ok = Math.round(metrics.value(Metric.SUCCESSFUL_REQUESTS).orElse(0));
        long measured = ok + Math.round(metrics.value(Metric.FAILED_REQUESTS).orElse(0));
        java.util.OptionalDouble watts = metrics.value(Metric.GPU_POWER_MEAN);
        long cancelled = Math.round(metrics.value(Metric.CANCELLED_REQUESTS).orElse(0));
        out.printf("%s: %d/%d ok%s, mean latency %s s, median TTFT %s ms, median ITL %s ms, %s tok/s%s%s%n", name,
                ok, measured,
                cancelled > 0 ? " (" + cancelled + " cancelled)" : "",
                format(metrics.number(Metric.E2E_LATENCY, Stat.MEAN).orElse(Double.NaN), 3),
                format(metrics.number(Metric.TTFT, Stat.MEDIAN).orElse(Double.NaN), 1),
                format(metrics.number(Metric.ITL, Stat.MEDIAN).orElse(Double.NaN), 2),
                format(metrics.number(Metric.OUTPUT_THROUGHPUT, null).orElse(Double.NaN), 0),
                watts.isEmpty() ? "" : ", " + gpuFigures(watts.getAsDouble(),
                        metrics.value(Metric.GPU_UTILIZATION).orElse(Double.NaN)),
                stop.map(s -> "; " + s).orElse(""));
    }

    private static String format(double value, int decimals) {
        return Double.isNaN(value) ? "—" : String.format("%." + decimals + "f", value);
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
        if (watch != null) {
            watch.shutdownNow();
        }
    }
}
