package io.servebench.loadcheck;

import io.servebench.http.HostLimits;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.Interruption;
import io.servebench.load.ListenerThread;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadJvm;
import io.servebench.load.LoadListener;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.LoadWorkers;
import io.servebench.load.RequestRecord;
import io.servebench.load.Spread;
import io.servebench.load.Target;
import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.results.RepetitionResult;
import io.servebench.truth.Script;
import io.servebench.truth.TruthServer;
import io.servebench.workload.RequestSpec;

import com.sun.management.OperatingSystemMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

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
 * @param truthProcesses the processes the truth server runs in ({@link TruthProcesses}), each with its own open-files
 *                    limit and port, the load spread over them round robin; 0 to run it in this JVM
 * @param loadWorkers the processes the client's load is spread over ({@link LoadWorkers}); 1 for this process alone
 */
public record LoadCheck(double rate, int concurrency, int tokens, Duration duration, Duration warmup, Duration ttft,
                        Duration gap, int serverLoops, int truthProcesses, int loadWorkers) {

    /** Descriptors left for everything but the client's connections and the server's side of them. */
    private static final int FILES_HELD_BACK = 64;
    /** How long a response's truth may take to be complete after the client has read its end. */
    static final Duration TRUTH_WAIT = Duration.ofSeconds(2);

    /**
     * A busier process than this, as a share of all cores, left threads waiting for a CPU: on 2 cores, runs
     * at 74-85% had TTFT error P99 of 11-35 ms, runs at 42-44% 1.7 ms (see docs/measurement-truth.md).
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
        if (truthProcesses < 0) {
            throw new IllegalArgumentException("--split must be >= 1 truth server processes, got " + truthProcesses);
        }
        if (loadWorkers < 1) {
            throw new IllegalArgumentException("--load-workers must be >= 1, got " + loadWorkers);
        }
        if (loadWorkers > 1 && concurrency > 0) {
            throw new IllegalArgumentException("--load-workers " + loadWorkers + " needs a constant --rate: a closed"
                    + " loop (--concurrency) is kept by one process");
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must be >= 0 s, got " + warmup.toMillis() / 1000.0);
        }
    }

    /** The server's script: role chunk, one token per event, final usage, no stall, no failure. */
    public Script script() {
        return Script.defaults().withTtft(ttft).withGap(gap).withTokensPerRequest(tokens);
    }

    /**
     * Refuses more truth server processes or load workers than {@code cores}: each is a JVM of its own, so more could
     * only take turns on the cores, and would start one after another.
     *
     * @throws IllegalArgumentException naming the option and the cores
     */
    public void requireCores(int cores) {
        if (truthProcesses > cores || loadWorkers > cores) {
            throw new IllegalArgumentException((truthProcesses > cores ? "--split " + truthProcesses
                    : "--load-workers " + loadWorkers) + ": more processes than this machine's " + cores + " cores,"
                    + " which could only take turns; expected at most " + cores);
        }
    }

    /**
     * Runs the check; failures of single requests are counted in the report, never thrown. Its memory does not grow
     * with its length: records are compared with the server's truth as they complete, and neither is kept.
     */
    public LoadCheckReport run() throws IOException {
        requireCores(Runtime.getRuntime().availableProcessors());
        try (TruthSide server = truthProcesses > 0 ? TruthProcesses.start(this)
                : TruthSide.inProcess(TruthServer.start(script(), 0, serverLoops))) {
            HostLimits limits = HostLimits.current();
            long processCpuStart = processCpuNs();
            long serverCpuStart = server.cpuNs();
            long wallStart = System.nanoTime();
            // with the server in this process, client and server sockets are both its files: a pool that could use
            // them all would leave the server none to accept with
            int maxConnections = (int) Math.max(1, Math.min(LoadParams.DEFAULT_MAX_CONNECTIONS,
                    limits.connectionsLeft(server.filesPerConnection()) - FILES_HELD_BACK));
            LoadWorkers workers = loadWorkers > 1 ? new LoadWorkers(loadWorkers, null) : null;
            MetricsAggregator.Running metrics = new MetricsAggregator().start(SloParams.NONE, System::nanoTime);
            ClientTally client = new ClientTally();
            TruthComparison truth = new TruthComparison(server::takeTruth, TRUTH_WAIT, System::nanoTime);
            LoadResult result;
            List<String> excursion;
            long longestPauseMs;
            try (ListenerThread listeners = new ListenerThread(LoadListener.all(metrics, client, truth));
                 LoadTimeline timeline = new LoadTimeline()) {
                timeline.watch(listeners);
                // as a run's load: the sender and the I/O threads only queue what the listeners are told
                List<Target> targets = server.baseUris().stream().map(uri -> new Target(uri, TruthServer.MODEL)).toList();
                LoadParams params = LoadParams.of(profile()).withMaxConnections(maxConnections);
                result = workers == null
                        ? new LoadGenerator().run(targets, spread(), specs(), warmups(), measured(), params,
                        LoadListener.all(timeline, listeners))
                        : workers.run(targets, spread(), specs(), warmups(), measured(), params,
                        LoadListener.all(timeline, listeners), new Interruption());
                listeners.drain();
                excursion = timeline.excursion(expectedStreams());
                longestPauseMs = timeline.longestPauseMs();
            } finally {
                truth.close();
            }
            double cores = Runtime.getRuntime().availableProcessors();
            long workersCpuNs = workers == null ? 0 : workers.processCpuNs();
            double busy = (processCpuNs() - processCpuStart + workersCpuNs) / (double) (System.nanoTime() - wallStart)
                    / cores;
            long serverCpuNs = server.cpuNs() - serverCpuStart;
            double loopBusy = serverCpuNs / (double) (System.nanoTime() - wallStart) / totalServerLoops();
            List<String> warnings = new ArrayList<>();
            server.ended().ifPresent(why -> warnings.add(why + ": the requests it had or was sent failed, and have no"
                    + " truth to compare; the figures are those of the requests the servers still serving answered"));
            if (loopBusy > SERVER_LOOP_SATURATED) {
                warnings.add(String.format(Locale.ROOT, "the truth server's %d event loops were each %.0f%% busy: the"
                        + " server, not the client, was near its limit, and falls behind at the first excursion; give"
                        + " it more with --server-threads %d", totalServerLoops(), 100 * loopBusy,
                        (int) Math.ceil(totalServerLoops() * loopBusy / 0.6)));
            }
            if (!excursion.isEmpty()) {
                warnings.add(String.join("\n", excursion));
            }
            if (longestPauseMs >= PAUSE_WARNED_MS && !LoadJvm.lowPause()) {
                warnings.add(String.format(Locale.ROOT, "this process's collector (%s) stopped it for up to %d ms at a"
                        + " time during the load: whatever it sends or serves waits for the pause, which shows as"
                        + " schedule lag; start it with java -XX:+UseZGC (pauses under a millisecond, as the load"
                        + " workers and the split truth server have)", LoadJvm.pausingCollectors().get(0).getName(),
                        longestPauseMs));
            }
            limits.warning(expectedStreams(), server.filesPerConnection()).ifPresent(warnings::add);
            if (busy > SATURATED) {
                warnings.add(String.format(Locale.ROOT, "%s kept %.0f%% of the machine's %.0f cores busy:"
                        + " client and server waited for a CPU, which shows in every figure; fewer events/s, or the"
                        + " check on a machine with more cores, measure the client instead of the machine", processes(),
                        100 * busy,
                        cores));
            }
            cpuShortfall(perEventUs(result.clientCpu().totalNs(), client.allEvents),
                    perEventUs(serverCpuNs, client.allEvents), cores).ifPresent(warnings::add);
            result.connections().note(limits).ifPresent(warnings::add);
            if (result.connections().sendsAtLimit() > 0 && maxConnections < LoadParams.DEFAULT_MAX_CONNECTIONS) {
                warnings.add(String.format(Locale.ROOT, "the client's limit of %,d connections came from the open-files"
                        + " limit (%s)%s; raise it with ulimit -n", maxConnections, limits.bounds(),
                        truthProcesses > 0 ? "" : ", two files per connection with the server in this process (--split halves that)"));
            }
            if (server.acceptFailures() > 0) {
                warnings.add(String.format(Locale.ROOT, "the truth server could not accept %,d connections at once (%s);"
                        + " they waited, which shows as TTFT; %s", server.acceptFailures(),
                        server.firstAcceptFailure().orElse("?"), limits.bounds()));
            }
            return report(client, metrics.finish(), truth, server.peakStreams(), result, limits, warnings,
                    perEventUs(serverCpuNs, client.allEvents), busy);
        }
    }

    /**
     * Whether the events the check asks for need more CPU than the machine has, at the CPU per event it measured on
     * both sides: then the events fall behind, requests last longer than the script says, and those in flight grow
     * until a limit (connections, files, ports) stops them, whatever the processes are split into. On the device's 16
     * cores, 10,000 req/s x 100 tokens at 10.8 (client) + 8.1 (server) us per event needs 18.9 cores.
     *
     * @param clientUs the client's CPU per event (all its processes), microseconds
     * @param serverUs the truth server's loops' CPU per event, microseconds
     */
    Optional<String> cpuShortfall(double clientUs, double serverUs, double cores) {
        double eventsPerSecond = perSecond() * tokens;
        double needed = (clientUs + serverUs) * eventsPerSecond / 1e6;
        if (!(needed > cores * SATURATED)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "at the CPU per event this check measured (client %.1f us, truth"
                + " server %.1f us), the %,.0f events/s it asks for need %.1f cores, and this machine has %.0f: the"
                + " events cannot all be sent and read in time, requests last longer than the script, and those in"
                + " flight grow until a limit stops them; ask for fewer events/s (rate x tokens), or run client and"
                + " server on machines of more cores", clientUs, serverUs, eventsPerSecond, needed, cores));
    }

    /** The processes whose CPU the check counts as its own, as the report names them. */
    String processes() {
        return loadWorkers > 1 ? "this process and its " + loadWorkers + " load workers" : "this process";
    }

    /** What the check needs of the client's records beyond the metrics, taken as they complete. */
    private static final class ClientTally implements LoadListener {
        private final SignedSamples lags = new SignedSamples();
        private long measured;
        private long firstSentNs = Long.MAX_VALUE;
        private long lastSentNs = Long.MIN_VALUE;
        private long sent;
        private long events;
        private long allEvents;
        private int maxPerRead;

        @Override
        public synchronized void onComplete(RequestRecord r) {
            allEvents += r.eventTimesNs().length;
            if (r.warmup()) {
                return;
            }
            measured++;
            maxPerRead = Math.max(maxPerRead, r.eventsPerReadMax());
            if (r.succeeded()) {
                events += r.eventTimesNs().length;
            }
            if (r.sentNs() != RequestRecord.NONE) {
                lags.add(r.sentNs() - r.intendedNs());
                firstSentNs = Math.min(firstSentNs, r.sentNs());
                lastSentNs = Math.max(lastSentNs, r.sentNs());
                sent++;
            }
        }

        synchronized double achievedRate() {
            return sent < 2 ? Double.NaN : (sent - 1) / ((lastSentNs - firstSentNs) / 1e9);
        }
    }

    /** The truth server of a {@code --split} check, in its own process: see {@link SplitTruth#serve}. */
    public static void serveTruth(LoadCheck check, java.io.Writer stdout, java.io.BufferedReader stdin) throws IOException {
        SplitTruth.serve(check, stdout, stdin);
    }

    /**
     * How the requests are spread over the truth servers: round robin by their place in the load, so that the request
     * numbered {@code id} went to {@code spread().replica(id)} (single-turn requests are conversations of one).
     */
    Spread spread() {
        return Spread.roundRobin(Math.max(1, truthProcesses));
    }

    /**
     * The event loops of each truth server process: the check's {@code serverLoops} shared out, at least one each.
     */
    int loopsPerProcess() {
        return truthProcesses <= 1 ? serverLoops : Math.max(1, (serverLoops + truthProcesses - 1) / truthProcesses);
    }

    /** The event loops of all truth servers together. */
    private int totalServerLoops() {
        return loopsPerProcess() * spread().replicas();
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

    /** Requests per second the check sends: its rate, or what its streams give. */
    private double perSecond() {
        return concurrency > 0
                ? concurrency / Math.max(1e-3, (ttft.toNanos() + (tokens - 1) * gap.toNanos()) / 1e9)
                : rate;
    }

    private int warmups() {
        return (int) Math.round(perSecond() * warmup.toNanos() / 1e9);
    }

    private int measured() {
        return Math.max(1, (int) Math.round(perSecond() * duration.toNanos() / 1e9));
    }

    /** The requests, made as they are drawn. */
    private java.util.Iterator<RequestSpec> specs() {
        return java.util.stream.IntStream.range(0, warmups() + measured())
                .mapToObj(i -> new RequestSpec(i, "loadcheck request " + i, 3, tokens, true, false)).iterator();
    }

    private LoadCheckReport report(ClientTally client, RepetitionResult metrics, TruthComparison truth,
                                   int serverPeakStreams, LoadResult result, HostLimits limits, List<String> warnings,
                                   double serverCpuUsPerEvent, double busy) {
        double seconds = metrics.value(Metric.DURATION).orElse(Double.NaN);
        long failed = (long) metrics.value(Metric.FAILED_REQUESTS).orElse(0);
        SignedSamples lags = client.lags;
        return new LoadCheckReport(concurrency > 0 ? Double.NaN : rate, concurrency, tokens, (int) client.measured, failed,
                metrics.errorKinds(), client.achievedRate(), ms(lags.quantile(0.5)), ms(lags.quantile(0.99)),
                ms(lags.max()), ms(truth.ttftErrors().quantile(0.5)), ms(truth.ttftErrors().quantile(0.99)),
                ms(truth.ttftErrors().max()), ms(truth.absItlErrors().quantile(0.5)),
                ms(truth.absItlErrors().quantile(0.99)), ms(truth.eventDelays().quantile(0.5)),
                ms(truth.eventDelays().quantile(0.99)), (int) truth.unmatched(), client.events / seconds,
                (int) metrics.value(Metric.MAX_CONCURRENCY).orElse(0), serverPeakStreams, spread().replicas(),
                perEventUs(result.clientCpu().totalNs(), client.allEvents),
                perEventUs(result.clientCpu().userNs(), client.allEvents), serverCpuUsPerEvent, busy, client.maxPerRead,
                result.connections(), limits.toString(), warnings, processes());
    }

    private static long processCpuNs() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /**
     * The truth server's loops by default: three per eight cores. On the device's 16 cores, four loops at 8.0–9.9 us of
     * server CPU per event carry at most 400,000–500,000 events/s, and 5,000 req/s x 100 tokens needs 500,000: in 9 of
     * 10 runs the server fell behind, the requests in flight climbed to the pool's limit and the sends waited
     * (docs/measurement-truth.md); six held.
     */
    public static int defaultServerLoops() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() * 3 / 8);
    }

    /** A server loop busier than this share of its time falls behind at the next excursion. */
    static final double SERVER_LOOP_SATURATED = 0.80;
    /** A collector pause this long (ms, within one step of the timeline) is warned of: the lag target is 1 ms. */
    static final long PAUSE_WARNED_MS = 1;

    private static double perEventUs(long ns, long events) {
        return events == 0 ? Double.NaN : ns / 1e3 / events;
    }

    private static double ms(double ns) {
        return ns / 1e6;
    }
}
