package io.servebench.loadcheck;

import io.servebench.http.HostLimits;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.RecordCollector;
import io.servebench.load.RequestRecord;
import io.servebench.load.Target;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.results.Metric;
import io.servebench.results.RepetitionResult;
import io.servebench.truth.Script;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;

import com.sun.management.OperatingSystemMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Measures the load generator itself: starts the {@link TruthServer} in this JVM with a fixed script,
 * drives it at a constant rate (or with N closed-loop streams), and compares what the client measured
 * with what the server did.
 *
 * @param rate        requests per second of the constant profile (ignored when {@code concurrency > 0})
 * @param concurrency closed-loop streams, 0 for the constant-rate profile
 * @param tokens      tokens per request, one per event
 * @param duration    how long the measured load lasts
 * @param warmup      load sent before it at the same rate and left out of the figures (JIT warm-up)
 * @param ttft        the server's time to first token
 * @param gap         the server's gap between token events
 * @param serverLoops the truth server's event-loop threads
 */
public record LoadCheck(double rate, int concurrency, int tokens, Duration duration, Duration warmup, Duration ttft,
                        Duration gap, int serverLoops) {

    /** Descriptors left for everything but the client's connections and the server's side of them. */
    private static final int FILES_HELD_BACK = 64;
    /** How long the truth of the last responses may take to be complete, all requests together. */
    private static final Duration TRUTH_WAIT = Duration.ofSeconds(5);

    /**
     * A busier process than this, as a share of all cores, left threads waiting for a CPU: on 2 cores, runs
     * at 74-85% had TTFT error P99 of 11-35 ms, runs at 42-44% 1.7 ms (see the README).
     */
    static final double SATURATED = 0.70;

    public LoadCheck {
        if (concurrency < 0) {
            throw new IllegalArgumentException("--concurrency must be >= 1 (or absent for a constant rate), got " + concurrency);
        }
        if (concurrency == 0 && (!(rate > 0) || Double.isInfinite(rate))) {
            throw new IllegalArgumentException("--rate must be a finite number of requests/s > 0, got " + rate);
        }
        if (tokens < 1) {
            throw new IllegalArgumentException("--tokens must be >= 1, got " + tokens);
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("--duration must be > 0 s, got " + duration.toMillis() / 1000.0);
        }
        if (serverLoops < 1) {
            throw new IllegalArgumentException("--server-threads must be >= 1, got " + serverLoops);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must be >= 0 s, got " + warmup.toMillis() / 1000.0);
        }
    }

    /** The server's script: role chunk, one token per event, final usage, no stall, no failure. */
    public Script script() {
        return Script.defaults().withTtft(ttft).withGap(gap).withTokensPerRequest(tokens);
    }

    /** Runs the check; failures of single requests are counted in the report, never thrown. */
    public LoadCheckReport run() throws IOException {
        try (TruthServer server = TruthServer.start(script(), 0, serverLoops)) {
            HostLimits limits = HostLimits.current();
            List<RequestSpec> specs = specs();
            long processCpuStart = processCpuNs();
            long serverCpuStart = server.cpuNs();
            long wallStart = System.nanoTime();
            // client and server sockets are both this process's files: a pool that could use them all would
            // leave the server none to accept with
            int maxConnections = (int) Math.max(1, Math.min(LoadParams.DEFAULT_MAX_CONNECTIONS,
                    limits.connectionsLeft(2) - FILES_HELD_BACK));
            RecordCollector records = new RecordCollector();
            LoadResult result = new LoadGenerator().run(new Target(server.baseUri(), TruthServer.MODEL), specs,
                    LoadParams.of(profile()).withMaxConnections(maxConnections), records);
            double cores = Runtime.getRuntime().availableProcessors();
            double busy = (processCpuNs() - processCpuStart) / (double) (System.nanoTime() - wallStart) / cores;
            long serverCpuNs = server.cpuNs() - serverCpuStart;
            long allEvents = records.records().stream().mapToLong(r -> r.eventTimesNs().length).sum();
            List<RequestRecord> measured = records.records().stream().filter(r -> !r.warmup()).toList();
            RepetitionResult metrics = new MetricsAggregator().aggregate(measured);
            // one deadline for all: a server that broke must not cost seconds per request
            long truthDeadline = System.nanoTime() + TRUTH_WAIT.toNanos();
            TruthComparison truth = TruthComparison.of(measured, id -> server.awaitTruth(id,
                    Duration.ofNanos(Math.max(0, truthDeadline - System.nanoTime()))));
            List<String> warnings = new ArrayList<>();
            // the server is in this process too: two descriptors per connection
            limits.warning(expectedStreams(), 2).ifPresent(warnings::add);
            if (busy > SATURATED) {
                warnings.add(String.format(Locale.ROOT, "this process kept %.0f%% of the machine's %.0f cores busy:"
                        + " client and server waited for a CPU, which shows in every figure; fewer events/s, or the"
                        + " check on a machine with more cores, measure the client instead of the machine", 100 * busy,
                        cores));
            }
            result.connections().note(limits).ifPresent(warnings::add);
            if (result.connections().sendsAtLimit() > 0 && maxConnections < LoadParams.DEFAULT_MAX_CONNECTIONS) {
                warnings.add(String.format(Locale.ROOT, "the client's limit of %,d connections came from the open-files"
                        + " limit (%s), two files per connection with the server in this process; raise it with"
                        + " ulimit -n", maxConnections, limits));
            }
            if (server.acceptFailures() > 0) {
                warnings.add(String.format(Locale.ROOT, "the truth server could not accept %,d connections at once (%s);"
                        + " they waited, which shows as TTFT; %s", server.acceptFailures(),
                        server.firstAcceptFailure().orElse("?"), limits));
            }
            return report(measured, metrics, truth, server.peakStreams(), result, allEvents, limits, warnings,
                    perEventUs(serverCpuNs, allEvents), busy);
        }
    }

    /** Streams open at once when the server keeps its script: arrivals over one request's duration. */
    int expectedStreams() {
        if (concurrency > 0) {
            return concurrency;
        }
        double requestSeconds = (ttft.toNanos() + (tokens - 1) * gap.toNanos()) / 1e9;
        return (int) Math.ceil(rate * requestSeconds) + 1;
    }

    private ArrivalProfile profile() {
        return concurrency > 0 ? new ArrivalProfile.Concurrent(concurrency) : new ArrivalProfile.Constant(rate);
    }

    private List<RequestSpec> specs() {
        double perSecond = concurrency > 0
                ? concurrency / Math.max(1e-3, (ttft.toNanos() + (tokens - 1) * gap.toNanos()) / 1e9)
                : rate;
        int warmups = (int) Math.round(perSecond * warmup.toNanos() / 1e9);
        int measured = Math.max(1, (int) Math.round(perSecond * duration.toNanos() / 1e9));
        List<RequestSpec> specs = new ArrayList<>(warmups + measured);
        for (int i = 0; i < warmups + measured; i++) {
            specs.add(new RequestSpec(i, "loadcheck request " + i, 3, tokens, true, i < warmups));
        }
        return specs;
    }

    private LoadCheckReport report(List<RequestRecord> measured, RepetitionResult metrics, TruthComparison truth,
                                   int serverPeakStreams, LoadResult result, long allEvents, HostLimits limits,
                                   List<String> warnings, double serverCpuUsPerEvent, double busy) {
        long[] sent = measured.stream().mapToLong(RequestRecord::sentNs).filter(s -> s != RequestRecord.NONE)
                .sorted().toArray();
        double achieved = sent.length < 2 ? Double.NaN : (sent.length - 1) / ((sent[sent.length - 1] - sent[0]) / 1e9);
        long[] lags = measured.stream().filter(r -> r.sentNs() != RequestRecord.NONE)
                .mapToLong(r -> r.sentNs() - r.intendedNs()).toArray();
        long[] absItl = Arrays.stream(truth.itlErrorsNs()).map(Math::abs).toArray();
        long events = measured.stream().filter(RequestRecord::succeeded).mapToLong(r -> r.eventTimesNs().length).sum();
        double seconds = metrics.value(Metric.DURATION).orElse(Double.NaN);
        int maxPerRead = measured.stream().mapToInt(RequestRecord::eventsPerReadMax).max().orElse(0);
        long failed = (long) metrics.value(Metric.FAILED_REQUESTS).orElse(0);
        return new LoadCheckReport(concurrency > 0 ? Double.NaN : rate, concurrency, tokens, measured.size(), failed,
                metrics.errorKinds(), achieved, ms(TruthComparison.quantile(lags, 0.5)),
                ms(TruthComparison.quantile(lags, 0.99)), ms(TruthComparison.quantile(lags, 1.0)),
                ms(TruthComparison.quantile(truth.ttftErrorsNs(), 0.5)),
                ms(TruthComparison.quantile(truth.ttftErrorsNs(), 0.99)),
                ms(TruthComparison.quantile(truth.ttftErrorsNs(), 1.0)),
                ms(TruthComparison.quantile(absItl, 0.5)), ms(TruthComparison.quantile(absItl, 0.99)),
                ms(TruthComparison.quantile(truth.eventDelaysNs(), 0.5)),
                ms(TruthComparison.quantile(truth.eventDelaysNs(), 0.99)),
                truth.unmatched(), events / seconds, (int) metrics.value(Metric.MAX_CONCURRENCY).orElse(0),
                serverPeakStreams, perEventUs(result.clientCpu().totalNs(), allEvents),
                perEventUs(result.clientCpu().userNs(), allEvents), serverCpuUsPerEvent, busy, maxPerRead,
                result.connections(), limits.toString(), warnings);
    }

    private static long processCpuNs() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /** The truth server's loops by default: one per four cores, as many as the client's I/O threads and more. */
    public static int defaultServerLoops() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 4);
    }

    private static double perEventUs(long ns, long events) {
        return events == 0 ? Double.NaN : ns / 1e3 / events;
    }

    private static double ms(double ns) {
        return ns / 1e6;
    }
}
