package io.servebench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.http.CpuTime;
import io.servebench.http.PoolStats;
import io.servebench.workload.RequestSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One load's schedule sent by several processes on this host ({@code --load-workers N}): its arrivals are drawn once,
 * here, from the repetition's draw of requests, and dealt out a conversation at a time, round robin; each worker
 * ({@link LoadWorker}, a JVM of its own with its own open-files limit, collector and I/O threads) sends its share at the
 * intended times, counted from one start instant on the host's one monotonic clock, and streams back each send and
 * each record, which this process tells its listeners as they come. What a single process would send, the workers send:
 * the same requests at the same intended times, every record once.
 *
 * <p>Scheduled profiles only, without a cap on the requests in flight or a stop condition that counts requests
 * (those would each count only their own share): a closed loop, {@code maxConcurrency}, {@code maxErrors} and the
 * over-saturation stop are refused. A worker that dies fails the load, with the records that reached this process kept.
 */
public final class LoadWorkers {

    /** What the coordinator and its workers say to each other, a line each. */
    static final String READY = "ready ";
    /** The coordinator asks for the worker's clock, which it answers on a line of its own. */
    static final String CLOCK = "t";
    /** Clock readings per worker on another machine; the one of the shortest round trip counts. */
    private static final int CLOCK_READINGS = 32;
    static final String START = "start ";
    static final String STOP = "stop ";
    static final String SENT = "s ";
    static final String RECORD = "r ";
    static final String END = "end ";
    /** The worker's whole process CPU time, ns, said just before its end. */
    static final String CPU = "cpu ";
    /** The API key travels in the worker's environment under this name, never on its command line or in a file. */
    static final String API_KEY_ENV = "SERVEBENCH_LOAD_WORKER_KEY";
    /** How long before the schedule's start the workers are told it, so that each has its connections open. */
    private static final long LEAD_NS = 1_500_000_000L;

    /** How often the coordinator asks its listeners whether the load must stop, ms. */
    private static final long POLL_MS = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final int workers;
    private final String dataset;
    private final Placement placement;
    private final java.util.concurrent.atomic.LongAdder processCpuNs = new java.util.concurrent.atomic.LongAdder();
    /** How far the last load's workers' clocks may be off this one's, ns ({@link #clockErrorNs()}). */
    private volatile long clockErrorNs;

    /**
     * @param workers processes to spread the load over, at least 2
     * @param dataset the workload's dataset spec: the workers count the tokens of events with its tokenizer, as a single
     *                process would ({@link io.servebench.workload.Datasets#tokenizer}); {@code null} for one token per
     *                event without continuous usage
     */
    public LoadWorkers(int workers, String dataset) {
        this(workers, dataset, Placement.HERE);
    }

    /** Workers placed by {@code placement}: here, or as job steps of a SLURM allocation ({@link Placement#of}). */
    public LoadWorkers(int workers, String dataset, Placement placement) {
        if (workers < 2) {
            throw new IllegalArgumentException("load workers: expected 2 or more, got " + workers);
        }
        this.workers = workers;
        this.dataset = dataset;
        this.placement = placement;
    }

    /**
     * Where the workers run: processes of this machine, or, inside a SLURM job, job steps ({@code srun --overlap}) of
     * its allocation: on the nodes after the first when it has several (the first runs the engine), else beside the
     * engine. A worker on another machine has its own monotonic clock: the coordinator reads it over the pipe before
     * the start, and moves the worker's start instant and records by the offset of the reading with the shortest
     * round trip (its error at most half that trip; durations within a record are the worker's own and exact).
     */
    public static final class Placement {
        /** Processes of this machine. */
        public static final Placement HERE = new Placement(0);

        /** Nodes of the SLURM allocation; 0 for none. */
        private final int nodes;

        private Placement(int nodes) {
            this.nodes = nodes;
        }

        /** SLURM job steps when {@code env} is a SLURM job's ({@code SLURM_JOB_ID}), else {@link #HERE}. */
        public static Placement of(java.util.Map<String, String> env) {
            if (env.get("SLURM_JOB_ID") == null) {
                return HERE;
            }
            int nodes = 1;
            try {
                nodes = Math.max(1, Integer.parseInt(env.getOrDefault("SLURM_JOB_NUM_NODES", "1").strip()));
            } catch (NumberFormatException e) {
                // a job that does not say has one node: its workers run beside the engine
            }
            return new Placement(nodes);
        }

        /**
         * Whether the workers run on other machines than this one: the nodes after the first of a SLURM allocation of
         * several. They reach an engine of this machine by its name ({@link #host()}), so an engine ServeBench starts
         * must listen on more than the loopback address.
         */
        public boolean otherMachines() {
            return nodes > 1;
        }

        /**
         * {@code uri} as a worker reaches it: on another machine, a loopback host (an engine this machine started, or
         * an endpoint given as {@code 127.0.0.1} or {@code localhost}) is this machine's name; anything else as it is.
         */
        URI reachable(URI uri) {
            if (!otherMachines() || !loopback(uri.getHost())) {
                return uri;
            }
            try {
                return new URI(uri.getScheme(), uri.getUserInfo(), host(), uri.getPort(), uri.getPath(), uri.getQuery(),
                        uri.getFragment());
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException("cannot name " + uri + " by this machine's name " + host(), e);
            }
        }

        private static boolean loopback(String host) {
            if (host == null) {
                return false;
            }
            if (host.equalsIgnoreCase("localhost")) {
                return true;
            }
            // only a literal address: a name is for the workers' own resolver
            if (!host.matches("[0-9.]+") && !host.contains(":")) {
                return false;
            }
            try {
                return java.net.InetAddress.getByName(host).isLoopbackAddress();
            } catch (java.net.UnknownHostException e) {
                return false;
            }
        }

        /** What goes before worker {@code number}'s own command line. */
        List<String> prefix(int number) {
            if (nodes == 0) {
                return List.of();
            }
            int node = nodes == 1 ? 0 : 1 + (number - 1) % (nodes - 1);
            return List.of("srun", "--overlap", "--nodes=1", "--ntasks=1", "--relative=" + node, "--kill-on-bad-exit=1",
                    "--quiet");
        }

        @Override
        public String toString() {
            return nodes == 0 ? "this machine" : "SLURM job steps over " + nodes + (nodes == 1 ? " node"
                    : " nodes (the " + (nodes - 1) + " after the engine's, which reach it as " + host()
                    + ", where an engine ServeBench starts listens on every interface)");
        }
    }

    /** This machine's name, as a worker says it: workers on it share the coordinator's clock. */
    static String host() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "unknown";
        }
    }

    /**
     * How far the clocks of the last load's workers on other machines may be off this one's, ns: half the shortest of
     * {@value #CLOCK_READINGS} round trips over the pipe of the worst-aligned worker, which bounds the error of
     * figures that compare instants of two workers (the schedule's lag); 0 when every worker ran on this machine.
     */
    public long clockErrorNs() {
        return clockErrorNs;
    }

    /** The CPU time of every worker process of the loads run so far, whole processes (JIT, GC and all), ns. */
    public long processCpuNs() {
        return processCpuNs.sum();
    }

    /**
     * Why {@code params} cannot be spread over workers, or empty when it can.
     */
    public static Optional<String> refusal(LoadParams params) {
        if (params.profile().maxInFlight() > 0) {
            return Optional.of("a closed loop (concurrency, synchronous) or a cap on the requests in flight"
                    + " (maxConcurrency) is kept by one process; several would each keep their own");
        }
        if (params.stop().maxErrors() > 0 || params.stop().saturationWindow() != null) {
            return Optional.of("maxErrors and saturationWindowSeconds count over all of a load's requests, and each"
                    + " worker sees only its share");
        }
        return Optional.empty();
    }

    /**
     * Runs one load as {@link LoadGenerator#run(List, Spread, Iterator, int, int, LoadParams, LoadListener,
     * Interruption)} does, spread over the workers.
     *
     * @throws IllegalArgumentException when the load cannot be spread ({@link #refusal})
     * @throws WorkerFailure            when a worker could not start or died; the records it sent before are told
     */
    public LoadResult run(List<Target> targets, Spread spread, Iterator<RequestSpec> supply, int warmupRequests,
                          int measuredRequests, LoadParams params, LoadListener listener, Interruption interruption)
            throws IOException {
        refusal(params).ifPresent(why -> {
            throw new IllegalArgumentException("--load-workers: " + why);
        });
        ArrivalProfile.Scheduled schedule = (ArrivalProfile.Scheduled) params.profile();
        long warmupNs = params.warmupTime().toNanos();
        long[] offsets = LoadGenerator.offsets(schedule, warmupRequests, measuredRequests, warmupNs);
        List<List<RequestSpec>> specs = new ArrayList<>();
        List<List<Long>> times = new ArrayList<>();
        for (int k = 0; k < workers; k++) {
            specs.add(new ArrayList<>());
            times.add(new ArrayList<>());
        }
        // the generator's own draw: a conversation per arrival, warm-up by position and by the warm-up time
        Conversations conversations = new Conversations(supply);
        int drawn = 0;
        for (int i = 0; i < offsets.length && drawn < offsets.length && conversations.hasNext(); i++) {
            boolean inWarmupTime = offsets[i] < warmupNs;
            List<RequestSpec> turns = conversations.next(drawn, offsets.length - drawn,
                    at -> at < warmupRequests || inWarmupTime);
            drawn += turns.size();
            specs.get(i % workers).addAll(turns);
            times.get(i % workers).add(offsets[i]);
        }
        List<Worker> started = new ArrayList<>();
        try {
            for (int k = 0; k < workers; k++) {
                if (!specs.get(k).isEmpty()) {
                    started.add(Worker.start(k + 1, placement, processCpuNs, job(targets, spread, params, specs.get(k), times.get(k)),
                            params.apiKey()));
                }
            }
            long clockError = 0;
            for (Worker w : started) {
                w.awaitReady();
                clockError = Math.max(clockError, w.clockErrorNs);
            }
            clockErrorNs = clockError;
            long t0 = System.nanoTime() + LEAD_NS;
            for (Worker w : started) {
                w.start(t0 + w.firstOffsetNs, listener);
            }
            try (Interruption.Registration stop = interruption.onInterrupt(() ->
                    started.forEach(w -> w.stop(interruption.cause().orElse("interrupted"))))) {
                awaitAll(started, listener, interruption);
                List<LoadResult> results = new ArrayList<>();
                for (Worker w : started) {
                    results.add(w.result());
                }
                started.stream().map(w -> w.listenerFailure).filter(java.util.Objects::nonNull).findFirst().ifPresent(e -> {
                    throw new IllegalStateException("the LoadListener failed; the load completed but its progress"
                            + " reports may be incomplete", e);
                });
                return merged(results);
            }
        } finally {
            started.forEach(Worker::close);
        }
    }

    /**
     * Waits for every worker to end. The listeners' own stop (their records cannot be kept) reaches the workers as an
     * interruption does; a worker that dies stops the others, so that the load ends with what each measured.
     */
    private static void awaitAll(List<Worker> started, LoadListener listener, Interruption interruption)
            throws WorkerFailure {
        boolean stopped = false;
        for (Worker w : started) {
            while (!w.await(POLL_MS)) {
                if (stopped) {
                    continue;
                }
                Optional<String> why = listener.stopReason().filter(r -> !interruption.interrupted())
                        .or(() -> started.stream().map(Worker::failure).flatMap(Optional::stream).findFirst());
                if (why.isPresent()) {
                    started.forEach(each -> each.stop(why.get()));
                    stopped = true;
                }
            }
        }
    }

    private WorkerJob job(List<Target> targets, Spread spread, LoadParams p, List<RequestSpec> specs, List<Long> offsets) {
        long first = offsets.get(0);
        long[] relative = new long[specs.size()];
        for (int i = 0; i < relative.length; i++) {
            // a conversation's later turns take no arrival: the trace runs out with the supply
            relative[i] = offsets.get(Math.min(i, offsets.size() - 1)) - first;
        }
        Cancellation c = p.cancellation();
        return new WorkerJob(targets.stream().map(t -> placement.reachable(t.baseUri()).toString()).toList(),
                targets.get(0).model(),
                targets.get(0).adapterAfterBase(), spread.weights(), p.api().name(), p.connectTimeout().toNanos(), p.requestTimeout().toNanos(),
                p.maxConnections(), p.continuousUsageStats(), p.stop().maxDuration() == null ? 0
                : Math.max(1, p.stop().maxDuration().toNanos() - first), p.extraBody(), p.requestIdPrefix(), c.percent(),
                c.delay().toNanos(), c.afterFirstToken(), c.timeout() == null ? 0 : c.timeout().toNanos(), dataset, first,
                relative, specs);
    }

    /** The workers' results as one: the widest window, the counts and costs summed, the first early stop. */
    private static LoadResult merged(List<LoadResult> results) {
        long start = results.stream().mapToLong(LoadResult::measuredStartNs).filter(t -> t != RequestRecord.NONE).min()
                .orElse(RequestRecord.NONE);
        long end = results.stream().mapToLong(LoadResult::measuredEndNs).filter(t -> t != RequestRecord.NONE).max()
                .orElse(RequestRecord.NONE);
        int planned = 0;
        int sent = 0;
        int failed = 0;
        double elapsed = 0;
        LoadResult.Stop early = null;
        PoolStats pools = null;
        CpuTime cpu = CpuTime.ZERO;
        for (LoadResult r : results) {
            planned += r.stop().planned();
            sent += r.stop().sent();
            failed += r.stop().failed();
            elapsed = Math.max(elapsed, r.stop().elapsedSeconds());
            if (early == null && r.stop().reason() != LoadResult.StopReason.COMPLETED) {
                early = r.stop();
            }
            pools = pools == null ? r.connections() : pools.plus(r.connections());
            cpu = cpu.plus(r.clientCpu());
        }
        LoadResult.Stop stop = early == null
                ? new LoadResult.Stop(LoadResult.StopReason.COMPLETED, sent, sent, failed, elapsed, null)
                : new LoadResult.Stop(early.reason(), planned, sent, failed, elapsed, early.detail());
        return new LoadResult(start, end, stop, pools, cpu);
    }

    /** A load worker could not start, or died before its share was sent and answered. */
    public static final class WorkerFailure extends IOException {
        private static final long serialVersionUID = 1L;

        WorkerFailure(String message) {
            super(message);
        }
    }

    /** One worker process and the thread that reads what it says. */
    private static final class Worker {
        private final int number;
        private final Process process;
        private final PrintWriter in;
        private final BufferedReader out;
        private final long firstOffsetNs;
        private final int requests;
        private Thread reader;
        private volatile LoadResult result;
        private volatile String failure;
        private volatile int told;
        /** The worker's clock less this one's: 0 on this machine, whose monotonic clock every process shares. */
        private long offsetNs;
        /** How far {@link #offsetNs} may be off: half the shortest round trip it was read in; 0 on this machine. */
        private long clockErrorNs;
        /** The first exception the listener threw while this worker's lines were told, or null. */
        private volatile RuntimeException listenerFailure;

        private final java.util.concurrent.atomic.LongAdder cpu;

        private Worker(int number, Process process, long firstOffsetNs, int requests,
                       java.util.concurrent.atomic.LongAdder cpu) {
            this.number = number;
            this.cpu = cpu;
            this.process = process;
            this.firstOffsetNs = firstOffsetNs;
            this.requests = requests;
            this.in = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), false);
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** @param apiKey the load's API key, which only the worker's environment carries; {@code null} for none */
        static Worker start(int number, Placement placement, java.util.concurrent.atomic.LongAdder cpu, WorkerJob job,
                            String apiKey) throws IOException {
            List<String> command = new ArrayList<>(placement.prefix(number));
            command.addAll(LoadJvm.command(System.getProperty("java.class.path"), LoadWorker.class));
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
            builder.environment().remove(API_KEY_ENV);
            if (apiKey != null) {
                builder.environment().put(API_KEY_ENV, apiKey);
            }
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new WorkerFailure("load worker " + number + " could not start (" + builder.command().get(0) + "): "
                        + e.getMessage());
            }
            Worker w = new Worker(number, process, job.firstOffsetNs(), job.specs().size(), cpu);
            w.in.println(JSON.writeValueAsString(job));
            w.in.flush();
            return w;
        }

        void awaitReady() throws IOException {
            String line = out.readLine();
            if (line == null || !line.startsWith(READY)) {
                throw new WorkerFailure("load worker " + number + " did not start: "
                        + (line == null ? "it ended (exit code " + exitCode() + ")" : "it said " + line));
            }
            if (!line.substring(READY.length()).equals(host())) {
                long[] offsetAndError = clockOffset();
                offsetNs = offsetAndError[0];
                clockErrorNs = offsetAndError[1];
            }
        }

        /**
         * The worker's clock less this one's, from the reading of the shortest round trip, and how far it may be off
         * (half that trip), ns.
         */
        private long[] clockOffset() throws IOException {
            long bestTrip = Long.MAX_VALUE;
            long offset = 0;
            for (int i = 0; i < CLOCK_READINGS; i++) {
                long before = System.nanoTime();
                send(CLOCK);
                String line = out.readLine();
                long after = System.nanoTime();
                if (line == null || !line.startsWith(CLOCK + " ")) {
                    throw new WorkerFailure("load worker " + number + " did not read its clock: "
                            + (line == null ? "it ended (exit code " + exitCode() + ")" : "it said " + line));
                }
                if (after - before < bestTrip) {
                    bestTrip = after - before;
                    offset = Long.parseLong(line.substring(CLOCK.length() + 1)) - (before + (after - before) / 2);
                }
            }
            return new long[] {offset, bestTrip / 2};
        }

        void start(long startNs, LoadListener listener) {
            reader = new Thread(() -> read(listener), "servebench-load-worker-" + number);
            reader.setDaemon(true);
            reader.start();
            send(START + (startNs + offsetNs));
        }

        void stop(String why) {
            send(STOP + why.replace('\n', ' '));
        }

        private synchronized void send(String line) {
            in.println(line);
            in.flush();
        }

        private void read(LoadListener listener) {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(SENT)) {
                        int space = line.indexOf(' ', SENT.length());
                        long id = Long.parseLong(line.substring(SENT.length(), space));
                        long handedOverNs = Long.parseLong(line.substring(space + 1)) - offsetNs;
                        guarded(() -> listener.onSend(id, handedOverNs));
                    } else if (line.startsWith(RECORD)) {
                        RequestRecord parsed = RequestRecordReader.line(line.substring(RECORD.length()));
                        RequestRecord record = offsetNs == 0 ? parsed : parsed.shifted(-offsetNs);
                        guarded(() -> listener.onComplete(record));
                        told++;
                    } else if (line.startsWith(CPU)) {
                        cpu.add(Long.parseLong(line.substring(CPU.length())));
                    } else if (line.startsWith(END)) {
                        LoadResult r = JSON.readValue(line.substring(END.length()), LoadResult.class);
                        result = new LoadResult(here(r.measuredStartNs()), here(r.measuredEndNs()), r.stop(),
                                r.connections(), r.clientCpu());
                        return;
                    }
                }
                failure = "load worker " + number + " died (exit code " + exitCode() + ") after " + told + " of its "
                        + requests + " requests; the records it had sent are kept";
            } catch (IOException | RuntimeException e) {
                failure = "load worker " + number + "'s output could not be read: " + e.getMessage();
            }
        }

        /** An instant of the worker's clock on this one's. */
        private long here(long workerNs) {
            return workerNs == RequestRecord.NONE ? workerNs : workerNs - offsetNs;
        }

        /** Runs a call of the listener; its first failure is kept for the end of the load, as a single process does. */
        private void guarded(Runnable call) {
            try {
                call.run();
            } catch (RuntimeException e) {
                if (listenerFailure == null) {
                    listenerFailure = e;
                }
            }
        }

        /** Whether the worker has ended within {@code ms}. */
        boolean await(long ms) throws WorkerFailure {
            try {
                reader.join(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WorkerFailure("interrupted while waiting for load worker " + number);
            }
            return !reader.isAlive();
        }

        /** Why this worker ended without its result, once it has. */
        Optional<String> failure() {
            return !reader.isAlive() && result == null
                    ? Optional.of(failure != null ? failure : "load worker " + number + " ended without a result")
                    : Optional.empty();
        }

        LoadResult result() throws WorkerFailure {
            if (result == null) {
                throw new WorkerFailure(failure != null ? failure : "load worker " + number + " ended without a result");
            }
            return result;
        }

        private String exitCode() {
            try {
                return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "still running";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "unknown";
            }
        }

        void close() {
            in.close();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
