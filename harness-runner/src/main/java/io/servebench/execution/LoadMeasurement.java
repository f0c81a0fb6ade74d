package io.servebench.execution;

import io.servebench.engine.RunningEngine;
import io.servebench.engine.SimulatedServer;
import io.servebench.http.HostLimits;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.DeltaTokenCounter;
import io.servebench.load.ListenerThread;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadListener;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.LoadWorkers;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordWriter;
import io.servebench.load.Spread;
import io.servebench.load.VirtualLoad;
import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.metrics.HarnessMemory;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.metrics.PrometheusScraper;
import io.servebench.metrics.PrometheusSnapshot;
import io.servebench.metrics.ServerMetricsDelta;
import io.servebench.metrics.SliceMetrics;
import io.servebench.metrics.gpu.GpuEnergy;
import io.servebench.metrics.gpu.GpuFigures;
import io.servebench.metrics.gpu.GpuSample;
import io.servebench.metrics.gpu.GpuTelemetry;
import io.servebench.metrics.gpu.GpuTimelines;
import io.servebench.plan.Trial;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.IncompleteRepetition;
import io.servebench.results.PrefixCacheReset;
import io.servebench.results.RepetitionResult;
import io.servebench.results.ServerMetric;
import io.servebench.sim.PowerMeter;
import io.servebench.workload.Datasets;
import io.servebench.workload.ModelMix;
import io.servebench.workload.RequestSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Measures the loads of one trial on its running engine: each load starts clean ({@link CleanStart}), sends its
 * requests, writes their records, aggregates the measured ones with the trial's SLOs and adds what the engine's own
 * metrics counted meanwhile.
 */
final class LoadMeasurement {

    /** The note on every result measured in virtual time, so that no report passes it off as a real run. */
    static final String VIRTUAL_NOTE = "virtual time: the simulated engine's model run as a discrete-event simulation,"
            + " no sockets; every time is on the virtual clock and schedule lag is 0 by construction";

    private final RunContext context;
    private final RunningEngine engine;
    private final CleanStart cleanStart;
    private final Trial trial;
    private final SloParams slo;
    private final AtomicBoolean scrapeNoted;

    /**
     * @param cleanStart  readies the engine before each load
     * @param slo         the SLOs of the trial's goodput
     * @param scrapeNoted whether the server's missing metrics were already noted (once per server)
     */
    LoadMeasurement(RunContext context, RunningEngine engine, CleanStart cleanStart, Trial trial, SloParams slo,
                    AtomicBoolean scrapeNoted) {
        this.context = context;
        this.engine = engine;
        this.cleanStart = cleanStart;
        this.trial = trial;
        this.slo = slo;
        this.scrapeNoted = scrapeNoted;
    }

    Trial trial() {
        return trial;
    }

    /**
     * Runs one load and aggregates it; a stop condition that ended it early becomes a note on the metrics.
     *
     * @param w             the workload as sent
     * @param repetition    which repetition of the load it is: the dataset's draw and the request ids are its own
     * @param name          the requests file's name ({@code requests/<name>.jsonl.gz})
     * @param progressLabel what the progress line calls the load
     */
    RepetitionResult measure(WorkloadParams w, ArrivalProfile profile, Repetition repetition, String name,
                             String progressLabel) throws IOException {
        ExecutionParams params = context.params();
        LoadParams load = LoadSettings.of(trial.server().kind(), w, profile, params.client(), context.apiKey())
                .withRequestIdPrefix(repetition.requestIdPrefix());
        RunContext.Counted dataset = context.dataset(w.dataset(), engine, trial.server().kind());
        // the time before which no request will be sent any more, on the records' clock
        LongSupplier clock = engine.virtual().isPresent() ? engine.virtual().get()::earliestArrivalNs : System::nanoTime;
        PerTurn turns = new PerTurn(slo, clock);
        Optional<ModelMix> mix = w.options().models() == null ? Optional.empty()
                : Optional.of(ModelMix.parse(w.options().models(), w.options().modelDistribution()));
        PerGroup models = new PerGroup(slo, clock, mix.map(ModelMix::names).orElse(List.of()), RequestSpec::model);
        List<io.servebench.engine.Endpoint> replicas = engine.endpoints();
        Spread spread = spread(w, replicas.size());
        List<String> replicaNames = replicas.stream().map(e -> e.baseUri().toString()).toList();
        PerGroup endpoints = new PerGroup(slo, clock, replicaNames,
                spec -> replicaNames.get(spread.replica(spec.index() - spec.turn())));
        if (params.verbose()) {
            context.out().printf("Preparing the prompts of %s for %s%n", w.dataset(), name);
        }
        // a set that builds its prompts as they are drawn builds this load's now, not while the load's clock runs
        dataset.dataset().prepare(repetition.seed(), w.warmup() + w.requests(), context.interruption()::interrupted);
        Iterator<RequestSpec> drawn = dataset.dataset().supply(repetition.seed());
        ShortReplies shortReplies = new ShortReplies(w.options().extraBody() != null);
        boolean exactOutput = w.options().exactOutput();
        Iterator<RequestSpec> supply = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return drawn.hasNext();
            }

            @Override
            public RequestSpec next() {
                RequestSpec next = exactOutput ? drawn.next() : drawn.next().withExactOutput(false);
                // a conversation keeps its model: the draw is its first turn's
                if (mix.isPresent()) {
                    next = next.withModel(mix.get().draw(repetition.seed(), next.index() - next.turn()));
                }
                turns.drawn(next);
                shortReplies.drawn(next);
                models.drawn(next);
                endpoints.drawn(next);
                return next;
            }
        };
        PrefixCacheReset cacheReset = cleanStart.beforeLoad(name);
        // the machine's GPUs serve a real engine only: the simulated engine's figures come from its power model
        StringBuilder noGpus = new StringBuilder();
        Optional<EngineGpus> engineGpus = params.simulate() || context.telemetry().source().isEmpty() ? Optional.empty()
                : EngineGpus.of(trial.server(), params.telemetry(), System.getenv(), noGpus::append);
        MetricsAggregator.Running metrics = new MetricsAggregator().start(slo, clock);
        try (TrialProgress progress = TrialProgress.start(context.out(), progressLabel, w.warmup() + w.requests(),
                params.progress(), params.verbose());
             RequestRecordWriter.Sink records = RequestRecordWriter.open(RequestRecordWriter.trialFile(
                     params.outputDir(), name));
             HarnessMemory memory = HarnessMemory.start();
             GpuTelemetry.Recording gpus = engineGpus.isEmpty() ? null : context.telemetry()
                     .record(engineGpus.get().indices(), params.telemetry().interval()).orElse(null)) {
            if (gpus != null) {
                progress.gpus(gpus);
            } else if (engine.power().isPresent()) {
                progress.simulatedGpu();
            }
            SliceMetrics slices = new SliceMetrics(params.slice().toNanos(), progress::slice);
            Optional<PrometheusSnapshot> before = scrape();
            IntendedSends sends = new IntendedSends();
            int workers = params.client().loadWorkers();
            // a load whose profile or stops count over all its requests stays in this process, as its results say
            Optional<String> kept = workers > 1 ? LoadWorkers.refusal(load) : Optional.empty();
            // inside a SLURM job, job steps of its allocation
            LoadWorkers.Placement placement = LoadWorkers.Placement.of(System.getenv());
            LoadListener listener = LoadListener.all(records, metrics, turns, models, endpoints, slices, progress, sends,
                    shortReplies);
            String failure = null;
            LoadResult result = null;
            LoadWorkers spreadOver = workers > 1 && kept.isEmpty() ? new LoadWorkers(workers, w.dataset(), placement) : null;
            try {
                if (engine.virtual().isPresent()) {
                    result = new VirtualLoad(new SimulatedServer(engine.virtual().get()), engine.endpoint().target())
                            .run(supply, w.warmup(), w.requests(), load, listener);
                } else {
                    // the sender and the I/O threads only queue what the listeners are told: see ListenerThread
                    try (ListenerThread listeners = new ListenerThread(listener)) {
                        List<io.servebench.load.Target> targets = replicas.stream()
                                .map(io.servebench.engine.Endpoint::target).toList();
                        if (spreadOver != null) {
                            result = spreadOver.run(targets, spread, supply, w.warmup(),
                                    w.requests(), load, listeners, context.interruption());
                        } else {
                            result = new LoadGenerator(Datasets.tokenizer(w.dataset()).map(DeltaTokenCounter::of)
                                    .orElse(DeltaTokenCounter.ONE_PER_EVENT))
                                    .run(targets, spread, supply, w.warmup(), w.requests(), load, listeners,
                                            context.interruption());
                        }
                        listeners.drain();
                    }
                }
            } catch (LoadWorkers.WorkerFailure e) {
                failure = e.getMessage();
            } catch (OutOfMemoryError e) {
                // what the aggregation holds is small and intact: the requests finished so far are kept
                failure = "the harness ran out of memory (" + e.getMessage() + "; -Xmx" + Runtime.getRuntime().maxMemory()
                        / 1048576 + "m) after " + records.written() + " requests";
            }
            Optional<PrometheusSnapshot> after = before.isPresent() ? scrape() : Optional.empty();
            Optional<long[]> window = metrics.window();
            RepetitionResult measured = metrics.finish();
            // a load that cancels or limits requests says how many, none included
            if (load.cancellation().percent() > 0 && measured.value(Metric.CANCELLED_REQUESTS).isEmpty()) {
                measured = measured.withScalar(Metric.CANCELLED_REQUESTS, 0);
            }
            if (load.cancellation().timeout() != null && measured.value(Metric.TIMED_OUT_REQUESTS).isEmpty()) {
                measured = measured.withScalar(Metric.TIMED_OUT_REQUESTS, 0);
            }
            if (gpus != null) {
                gpus.close();
                measured = withGpuFigures(measured, gpus.samples(), gpus.source() + ", " + engineGpus.get().basis(),
                        window, name, sends);
            } else if (engine.power().isPresent() && window.isPresent()) {
                PowerMeter meter = engine.power().get();
                measured = withGpuFigures(measured, twinSamples(meter, window.get(), params.telemetry().interval()),
                        "the simulated engine's power model (" + meter.gpus() + " x " + meter.gpu() + ")", window, name,
                        sends);
            }
            if (noGpus.length() > 0) {
                measured = measured.withNote("GPU telemetry: none, as " + noGpus);
            }
            if (before.isPresent() && after.isPresent()) {
                // warm-up requests are in the server's counters too: its figures cover the whole repetition
                Map<String, Double> server = ServerMetricsDelta.between(before.get(), after.get());
                Optional<String> foreign = ServerMetricsDelta.notOfThisLoad(server,
                        measured.value(Metric.TOTAL_OUTPUT_TOKENS));
                measured = foreign.isPresent() ? measured.withNote(ServerMetric.LEFT_OUT_NOTE + foreign.get())
                        : measured.withServerMetrics(server);
            }
            if (result != null) {
                measured = result.stop().note().map(measured::withNote).orElse(measured);
                measured = result.connections().note(HostLimits.current()).map(measured::withNote).orElse(measured);
            }
            if (spreadOver != null && !engine.virtual().isPresent()) {
                // instants of two machines compared (the schedule's lag) are as good as their clocks' alignment
                measured = measured.withNote("load: spread over " + workers + " worker processes, " + placement
                        + (placement.otherMachines() ? String.format(Locale.ROOT, "; the other nodes' clocks aligned to"
                        + " this one's within ±%.3f ms (half the shortest of the round trips to each worker)",
                        spreadOver.clockErrorNs() / 1e6) : ""));
            } else if (workers > 1 && !engine.virtual().isPresent()) {
                measured = measured.withNote(kept.map(why -> "--load-workers " + workers + ": this load was sent from"
                        + " one process, as " + why).orElseThrow());
            }
            measured = shortReplies.note().map(measured::withNote).orElse(measured);
            measured = measured.withNote("prompt tokens: the server's usage where it sent it; prompts counted by "
                    + dataset.counter());
            if (engine.virtual().isPresent()) {
                measured = measured.withNote(VIRTUAL_NOTE);
            }
            Map<String, RepetitionResult> bySlice = slices.finish();
            measured = measured.withTurns(turns.finish()).withModels(models.finish()).withEndpoints(endpoints.finish())
                    .withCacheReset(cacheReset)
                    .withSlices(bySlice.size() >= MIN_SLICES ? bySlice : Map.of());
            measured = withHarnessMemory(measured, memory);
            Optional<String> stop = result == null ? Optional.empty() : result.stop().note();
            progress.finish(measured, stop);
            records.close();
            if (failure == null) {
                failure = records.stopReason().orElse(null);
            }
            if (failure != null) {
                throw new LoadFailure(IncompleteRepetition.Kind.FAILED, failure, measured.withNote("partial: " + failure),
                        name, repetition.number());
            }
            if (result != null && result.stop().reason() == LoadResult.StopReason.INTERRUPTED) {
                throw new LoadFailure(IncompleteRepetition.Kind.INTERRUPTED, stop.orElseThrow(), measured, name,
                        repetition.number());
            }
            Optional<String> failed = RepetitionVerdict.failure(measured, params.maxFailedShare());
            Optional<String> died = failed.isPresent() ? engineFailure(engine) : engine.failure();
            if (died.isPresent() || failed.isPresent()) {
                // a request to an engine that died fails first: the engine's exit, once it shows, is the reason
                throw new LoadFailure(IncompleteRepetition.Kind.FAILED, died.map(d -> "its engine died: "
                        + d.lines().findFirst().orElse(d)).orElse(failed.orElse("")), measured, name, repetition.number());
            }
            return measured;
        }
    }

    /**
     * {@code measured} with its GPUs' figures and timeline over its measurement window, their samples written to
     * {@code telemetry/<name>.csv.gz} (times from the window's start).
     */
    private RepetitionResult withGpuFigures(RepetitionResult measured, List<GpuSample> samples, String source,
                                            Optional<long[]> window, String name, IntendedSends sends) throws IOException {
        if (samples.isEmpty()) {
            return measured.withNote("GPU telemetry: " + source + " gave no sample while the load ran");
        }
        long origin = window.map(w -> w[0]).orElse(samples.get(0).nanos());
        Path file = context.params().outputDir().resolve("telemetry").resolve(name + ".csv.gz");
        Files.createDirectories(file.getParent());
        try (java.io.Writer w = new java.io.OutputStreamWriter(new java.util.zip.GZIPOutputStream(Files.newOutputStream(file)),
                java.nio.charset.StandardCharsets.UTF_8)) {
            w.write(GpuFigures.csv(samples, origin, engine.virtual().isEmpty()));
        } catch (IOException e) {
            // a full disk: the message names what could not be written
            throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        if (window.isEmpty()) {
            return measured;
        }
        long[] w = window.get();
        return GpuEnergy.of(samples, w[0], w[1])
                .map(e -> GpuFigures.with(measured, e, source, context.params().telemetry().pricePerGpuHour())
                        .withGpuTimeline(GpuTimelines.of(samples, w[0], w[1], sends.times(),
                                context.params().telemetry().interval())))
                .orElseGet(() -> measured.withNote("GPU telemetry: " + source
                        + " gave no sample inside the measurement window"));
    }

    /**
     * The simulated engine's power over {@code window} as NVML would read it every {@code interval}: one sample per GPU
     * and reading, each GPU an equal share of the engine's power and energy (tensor-parallel ranks run the same steps).
     */
    private static List<GpuSample> twinSamples(PowerMeter meter, long[] window, java.time.Duration interval) {
        List<GpuSample> samples = new java.util.ArrayList<>();
        int n = meter.gpus();
        for (PowerMeter.Reading r : meter.readings(window[0], window[1], interval.toNanos())) {
            for (int gpu = 0; gpu < n; gpu++) {
                samples.add(new GpuSample(r.nanos(), gpu, r.watts() / n, r.joules() / n, r.utilization(), Double.NaN,
                        Double.NaN, Double.NaN, Double.NaN, Double.NaN, GpuSample.UNKNOWN_REASONS));
            }
        }
        return samples;
    }

    /** {@code measured} with the harness's memory at its peak while the load ran. */
    private static RepetitionResult withHarnessMemory(RepetitionResult measured, HarnessMemory memory) {
        memory.close();
        RepetitionResult with = measured.withScalar(Metric.HARNESS_HEAP_PEAK, memory.peakHeapMb());
        java.util.OptionalDouble resident = memory.peakResidentMb();
        return resident.isPresent() ? with.withScalar(Metric.HARNESS_RSS_PEAK, resident.getAsDouble()) : with;
    }

    /** Fewest slices for which a repetition reports its figures per slice: fewer say no more than its whole. */
    static final int MIN_SLICES = 5;

    /** The engine's failure, waited for a moment: a supervisor reports its engine's exit a few milliseconds late. */
    static Optional<String> engineFailure(RunningEngine engine) {
        for (int i = 0; i < 20 && engine.failure().isEmpty(); i++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return engine.failure();
    }

    /**
     * A load that does not count as a complete repetition: it could not go on (the harness ran out of memory, the disk
     * filled up), its engine died, every request or too large a share of them failed ({@link RepetitionVerdict}), or the
     * run was interrupted. What it measured, and why.
     */
    static final class LoadFailure extends RuntimeException {
        private final IncompleteRepetition.Kind kind;
        private final transient RepetitionResult partial;
        private final String name;
        private final int number;

        /**
         * @param name   the load's name ({@code requests/<name>.jsonl.gz})
         * @param number its repetition's number
         */
        LoadFailure(IncompleteRepetition.Kind kind, String why, RepetitionResult partial, String name, int number) {
            super(why);
            this.kind = kind;
            this.partial = partial;
            this.name = name;
            this.number = number;
        }

        /** The load's name, which its records and telemetry files carry. */
        String name() {
            return name;
        }

        /** Its repetition's number. */
        int number() {
            return number;
        }

        /** Whether the load failed or was interrupted. */
        IncompleteRepetition.Kind kind() {
            return kind;
        }

        /** The requests finished before the failure, aggregated. */
        RepetitionResult partial() {
            return partial;
        }
    }

    /**
     * The measured requests' metrics per turn of their conversations, each turn aggregated as the whole is; none for
     * single turns. Thread-safe.
     */
    private static final class PerTurn implements LoadListener {
        private final SloParams slo;
        private final LongSupplier clock;
        private final Map<Long, Integer> turnOf = new ConcurrentHashMap<>();
        private final Map<Integer, MetricsAggregator.Running> byTurn = new ConcurrentHashMap<>();
        private volatile boolean multiTurn;

        PerTurn(SloParams slo, LongSupplier clock) {
            this.slo = slo;
            this.clock = clock;
        }

        /** A request was drawn: conversations are drawn whole, so a later turn shows before the first is sent. */
        void drawn(RequestSpec spec) {
            if (spec.turn() > 0) {
                multiTurn = true;
            }
            turnOf.put((long) spec.index(), spec.turn());
        }

        @Override
        public void onSend(long id) {
            onSend(id, clock.getAsLong());
        }

        @Override
        public void onSend(long id, long handedOverNs) {
            if (multiTurn) {
                byTurn.computeIfAbsent(turnOf.getOrDefault(id, 0), t -> new MetricsAggregator().start(slo, clock))
                        .onSend(id, handedOverNs);
            }
        }

        @Override
        public void onComplete(RequestRecord record) {
            Integer turn = turnOf.remove(record.id());
            if (multiTurn) {
                byTurn.computeIfAbsent(turn == null ? 0 : turn, t -> new MetricsAggregator().start(slo, clock))
                        .onComplete(record);
            }
        }

        Map<String, RepetitionResult> finish() {
            Map<String, RepetitionResult> results = new LinkedHashMap<>();
            new TreeMap<>(byTurn).forEach((turn, running) -> results.put(Integer.toString(turn + 1), running.finish()));
            return results.size() > 1 ? results : Map.of();
        }
    }

    /** The spread of {@code w}'s requests over an engine's {@code replicas}: its weights, else round robin. */
    private static Spread spread(WorkloadParams w, int replicas) {
        String weights = w.options().endpointWeights();
        if (weights == null) {
            return Spread.roundRobin(replicas);
        }
        List<Integer> parsed = java.util.Arrays.stream(weights.split(",")).map(String::strip).map(Integer::valueOf).toList();
        if (parsed.size() != replicas) {
            throw new IllegalArgumentException("endpointWeights = \"" + weights + "\" gives " + parsed.size()
                    + " weights, but the engine serves at " + replicas + " URL" + (replicas == 1 ? "" : "s")
                    + "; expected one weight per URL");
        }
        return new Spread(parsed);
    }

    /**
     * The measured requests' metrics per group (the model or LoRA adapter of a mixed workload; the replica of an engine
     * at several URLs), each aggregated as the whole is, in the groups' order; none for fewer than two groups.
     * Thread-safe.
     */
    private static final class PerGroup implements LoadListener {
        private final SloParams slo;
        private final LongSupplier clock;
        private final List<String> names;
        private final java.util.function.Function<RequestSpec, String> group;
        private final Map<Long, String> groupOf = new ConcurrentHashMap<>();
        private final Map<String, MetricsAggregator.Running> byGroup = new ConcurrentHashMap<>();

        /**
         * @param names the groups; fewer than two: none kept
         * @param group a request's group, {@code null} for none
         */
        PerGroup(SloParams slo, LongSupplier clock, List<String> names, java.util.function.Function<RequestSpec, String> group) {
            this.slo = slo;
            this.clock = clock;
            this.names = names;
            this.group = group;
        }

        void drawn(RequestSpec spec) {
            String name = names.size() > 1 ? group.apply(spec) : null;
            if (name != null) {
                groupOf.put((long) spec.index(), name);
            }
        }

        private MetricsAggregator.Running of(long id) {
            String model = groupOf.get(id);
            return model == null ? null : byGroup.computeIfAbsent(model, m -> new MetricsAggregator().start(slo, clock));
        }

        @Override
        public void onSend(long id) {
            onSend(id, clock.getAsLong());
        }

        @Override
        public void onSend(long id, long handedOverNs) {
            MetricsAggregator.Running running = of(id);
            if (running != null) {
                running.onSend(id, handedOverNs);
            }
        }

        @Override
        public void onComplete(RequestRecord record) {
            MetricsAggregator.Running running = of(record.id());
            groupOf.remove(record.id());
            if (running != null) {
                running.onComplete(record);
            }
        }

        Map<String, RepetitionResult> finish() {
            Map<String, RepetitionResult> results = new LinkedHashMap<>();
            names.stream().filter(byGroup::containsKey).forEach(name -> results.put(name, byGroup.get(name).finish()));
            return names.size() > 1 ? results : Map.of();
        }
    }

    /** A scrape of the engine's metrics; empty (with one note per server) when it offers none. */
    private Optional<PrometheusSnapshot> scrape() {
        if (engine.virtual().isPresent()) {
            return Optional.of(PrometheusSnapshot.parse(engine.virtual().get().metricsText()));
        }
        // replicas of one engine count together, as one server counts over its label sets
        List<PrometheusSnapshot> scrapes = new java.util.ArrayList<>();
        for (io.servebench.engine.Endpoint endpoint : engine.endpoints()) {
            PrometheusScraper.Result result = context.scraper().scrape(endpoint.metricsUri());
            if (result.snapshot().isEmpty()) {
                if (scrapeNoted.compareAndSet(false, true)) {
                    context.out().printf("  note: no server-side metrics: %s%n", result.problem());
                }
                return Optional.empty();
            }
            scrapes.add(result.snapshot().get());
        }
        return Optional.of(scrapes.size() == 1 ? scrapes.get(0) : PrometheusSnapshot.sum(scrapes));
    }
}
