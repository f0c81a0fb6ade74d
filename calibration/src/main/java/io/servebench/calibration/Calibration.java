package io.servebench.calibration;

import io.servebench.engine.SimulatedServer;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadParams;
import io.servebench.load.RequestRecord;
import io.servebench.load.VirtualLoad;
import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.measure.Stat;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.results.RepetitionResult;
import io.servebench.sim.EngineProfile;
import io.servebench.sim.GpuProfile;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimParams;
import io.servebench.sim.TwinCalibration;
import io.servebench.sim.TwinEvidence;
import io.servebench.sim.VirtualEngine;
import io.servebench.workload.Dataset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleFunction;
import java.util.stream.Collectors;

/**
 * Fits the simulated engine's engine-profile constants on some of the reference study's blocks and predicts the
 * others without refitting, every block run in virtual time with its own engine, flags, rate and request count.
 *
 * <p>The fit, in this order, each step a bisection on a figure that grows with its constant: for vLLM, then
 * SGLang, on that engine's baseline block at the fit rate, the per-sequence host time from the mean latency and
 * the front-end time from the mean TTFT (three rounds, as each moves the other's figure a little); then the MTP
 * draft acceptance on ShareGPT-like chat from the mean latency less the mean TTFT of the {@code mtp-1} block. The
 * step overhead and every physical constant (GPU, model) stay as they are. Blocks at other rates are held out.
 */
public final class Calibration {

    /**
     * A figure the twin is judged on: the reference's name for it, the twin's metric and statistic, and how the
     * table heads it. The reference's P95 ITL is a per-request figure (guidellm's ITL is each request's mean gap:
     * in all 18 blocks it is 0.3-2.6% below the P95 TPOT), so it is set beside the twin's P95 TPOT, and, for
     * what ServeBench calls ITL (one sample per token), beside the twin's per-token P95 ITL too.
     */
    public enum Figure {
        MEAN_LATENCY("Mean Latency(s)", Metric.E2E_LATENCY, Stat.MEAN, "Mean Latency(s)"),
        P95_LATENCY("P95 Latency(s)", Metric.E2E_LATENCY, Stat.P95, "P95 Latency(s)"),
        P95_ITL_PER_REQUEST("P95 ITL (ms)", Metric.TPOT, Stat.P95, "P95 ITL (ms) / twin's P95 TPOT"),
        P95_ITL_PER_TOKEN("P95 ITL (ms)", Metric.ITL, Stat.P95, "P95 ITL (ms) / twin's per-token P95 ITL"),
        MEAN_TTFT("Mean TTFT (ms)", Metric.TTFT, Stat.MEAN, "Mean TTFT (ms)");

        final String reference;
        final Metric metric;
        final Stat stat;
        final String label;

        Figure(String reference, Metric metric, Stat stat, String label) {
            this.reference = reference;
            this.metric = metric;
            this.stat = stat;
            this.label = label;
        }

        /** The reference's name, e.g. {@code Mean Latency(s)}. */
        public String referenceName() {
            return reference;
        }

        /** How the table heads the figure: the reference's name, and the twin's metric where it differs. */
        public String label() {
            return label;
        }
    }

    /** Why a block is in the table: its figures set a constant, it shares the fit rate, or it was held out. */
    public enum Role { FIT, IN_SAMPLE, HELD_OUT }

    /**
     * The constants the fit varies.
     *
     * @param mtpAcceptance the MTP head's per-position acceptance on the study's data
     */
    public record Constants(EngineProfile vllm, EngineProfile sglang, double mtpAcceptance) {

        /** What the simulated engine runs with today. */
        public static Constants current() {
            return new Constants(EngineProfile.vllm(), EngineProfile.sglang(), SimParams.MTP_ACCEPTANCE);
        }

        /** The profile of the engine that speaks {@code dialect}. */
        EngineProfile profile(SimDialect dialect) {
            return dialect == SimDialect.SGLANG ? sglang : vllm;
        }

        /** These constants with {@code dialect}'s engine profile replaced by {@code e}. */
        Constants with(SimDialect dialect, EngineProfile e) {
            return dialect == SimDialect.SGLANG ? new Constants(vllm, e, mtpAcceptance) : new Constants(e, sglang, mtpAcceptance);
        }
    }

    /** One block: the reference's figures beside the twin's. */
    public record BlockOutcome(ReferenceBlock block, Role role, Map<Figure, Double> twin) {

        /** The twin's error on a figure relative to the reference, e.g. {@code -0.04} for 4% low. */
        public double error(Figure figure) {
            double reference = block.metric(figure.reference);
            return twin.get(figure) / reference - 1;
        }
    }

    /**
     * @param start    the constants before the fit
     * @param fitted   the constants after it
     * @param blocks   every reference block, predicted with {@code fitted}
     * @param trials   virtual trials run, fit and predictions together
     */
    public record Outcome(Constants start, Constants fitted, List<BlockOutcome> blocks, int trials) {
    }

    /** One virtual trial's inputs besides the seed and the dataset, which are the calibration's. */
    private record TrialKey(SimParams params, double rate, int requests) {
    }

    private static final int ROUNDS = 3;
    private static final int BISECTIONS = 16;
    /** The largest per-sequence host time the fit considers, ns. */
    private static final double MAX_SEQUENCE_NANOS = 2_000_000;

    private final List<ReferenceBlock> reference;
    private final String model;
    private final Dataset dataset;
    private final long seed;
    private final GpuProfile gpu;
    private final double fitRate;
    /** Trials already run: the fit's engines run side by side. */
    private final Map<TrialKey, RepetitionResult> cache = new ConcurrentHashMap<>();
    private final AtomicInteger trials = new AtomicInteger();

    /**
     * @param reference the blocks to fit on and predict
     * @param model     the served model every block names
     * @param dataset   where the prompts and output lengths come from (the reference used ShareGPT)
     * @param seed      the simulated engine's and the dataset's seed
     * @param gpu       the GPU of the reference
     * @param fitRate   the rate whose blocks the fit may use; the others are held out
     */
    public Calibration(List<ReferenceBlock> reference, String model, Dataset dataset, long seed, GpuProfile gpu,
                       double fitRate) {
        this.reference = List.copyOf(reference);
        this.model = Objects.requireNonNull(model, "model");
        this.dataset = Objects.requireNonNull(dataset, "dataset");
        this.seed = seed;
        this.gpu = Objects.requireNonNull(gpu, "gpu");
        this.fitRate = fitRate;
        if (reference.stream().noneMatch(b -> b.rate() == fitRate)) {
            throw new IllegalArgumentException("no reference block at the fit rate " + fitRate + " req/s");
        }
    }

    /** Fits from {@code start} and predicts every block with the result. */
    public Outcome run(Constants start) {
        Constants fitted = fit(start);
        return new Outcome(start, fitted, predict(fitted), trials.get());
    }

    /** Every block predicted with {@code constants}, without fitting; the blocks run side by side. */
    public List<BlockOutcome> predict(Constants constants) {
        return reference.parallelStream().map(b -> {
            RepetitionResult r = simulate(b, constants);
            Map<Figure, Double> twin = new EnumMap<>(Figure.class);
            for (Figure f : Figure.values()) {
                twin.put(f, r.number(f.metric, f.stat).orElse(Double.NaN));
            }
            return new BlockOutcome(b, role(b), twin);
        }).toList();
    }

    private Role role(ReferenceBlock b) {
        if (b.rate() != fitRate) {
            return Role.HELD_OUT;
        }
        return fitBlocks().contains(b) ? Role.FIT : Role.IN_SAMPLE;
    }

    /**
     * What the held-out blocks of {@code predicted} say of the twin on this calibration's set-up, one entry per engine
     * that has held-out blocks: how far their mean latency and mean TTFT were from the reference's, the means a published
     * case gives too ({@link TwinCalibration}). The reference's blocks are each at a request rate.
     */
    public List<TwinCalibration> evidence(List<BlockOutcome> predicted) {
        Map<String, List<BlockOutcome>> byEngine = new LinkedHashMap<>();
        predicted.stream().filter(b -> b.role() == Role.HELD_OUT)
                .forEach(b -> byEngine.computeIfAbsent(b.block().engine(), e -> new ArrayList<>()).add(b));
        String gpuId = GpuProfile.catalogue().entrySet().stream().filter(e -> e.getValue().equals(gpu))
                .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new IllegalStateException(gpu.name()
                        + " is not in the GPU catalogue"));
        List<TwinCalibration> evidence = new ArrayList<>();
        byEngine.forEach((engine, blocks) -> {
            SimParams params = SimParams.fromFlags(SimDialect.of(engine), model, blocks.get(0).block().flags(), gpu);
            double[] errors = blocks.stream().flatMap(b -> java.util.stream.Stream.of(Figure.MEAN_LATENCY, Figure.MEAN_TTFT)
                    .map(b::error)).mapToDouble(Math::abs).toArray();
            evidence.add(new TwinCalibration(model, engine, gpuId, TwinEvidence.architecture(params.model()),
                    params.tensorParallelSize() > 1, TwinEvidence.Regime.PACED, fitRate, blocks.size(), errors.length,
                    Arrays.stream(errors).max().orElseThrow(), Arrays.stream(errors).average().orElseThrow()));
        });
        return evidence;
    }

    /** The blocks whose figures set a constant: each engine's baseline and the MTP block, at the fit rate. */
    private List<ReferenceBlock> fitBlocks() {
        List<ReferenceBlock> fit = new ArrayList<>();
        for (SimDialect dialect : SimDialect.values()) {
            baseline(dialect).ifPresent(fit::add);
        }
        mtpBlock().ifPresent(fit::add);
        return fit;
    }

    private Optional<ReferenceBlock> baseline(SimDialect dialect) {
        return reference.stream().filter(b -> b.rate() == fitRate && SimDialect.of(b.engine()) == dialect
                && b.variant().equals("baseline")).findFirst();
    }

    private Optional<ReferenceBlock> mtpBlock() {
        return reference.stream().filter(b -> b.rate() == fitRate && SimDialect.of(b.engine()) == SimDialect.VLLM
                && b.variant().equals("mtp-1")).findFirst();
    }

    /**
     * Each engine's constants from its own baseline, then the MTP acceptance. An engine's blocks run with its own
     * profile only, so the engines are fitted side by side, each from {@code start}.
     */
    private Constants fit(Constants start) {
        Map<SimDialect, EngineProfile> fitted = Arrays.stream(SimDialect.values()).parallel()
                .filter(d -> baseline(d).isPresent())
                .collect(Collectors.toMap(d -> d, d -> fit(start, d, baseline(d).orElseThrow())));
        Constants c = start;
        for (Map.Entry<SimDialect, EngineProfile> engine : fitted.entrySet()) {
            c = c.with(engine.getKey(), engine.getValue());
        }
        ReferenceBlock mtp = mtpBlock().orElse(null);
        if (mtp != null) {
            Constants base = c;
            // the acceptance sets how fast tokens come after the first, so it is fitted on the latency less the TTFT:
            // the reference's MTP blocks start 40 ms later than its baseline for a reason the twin does not model,
            // which a fit on the whole latency put into the decode as a lower acceptance
            double decode = decodeSeconds(mtp.metric(Figure.MEAN_LATENCY.reference),
                    mtp.metric(Figure.MEAN_TTFT.reference));
            // more acceptance, lower latency: bisect on the negated difference
            double acceptance = bisect(p -> {
                Constants tried = new Constants(base.vllm(), base.sglang(), p);
                return decode - decodeSeconds(figure(mtp, tried, Figure.MEAN_LATENCY),
                        figure(mtp, tried, Figure.MEAN_TTFT));
            }, 0, 1);
            c = new Constants(c.vllm(), c.sglang(), Math.round(acceptance * 1000) / 1000.0);
        }
        return c;
    }

    /** A block's mean time after the first token, s, from its mean latency (s) and mean TTFT (ms). */
    private static double decodeSeconds(double latencySeconds, double ttftMillis) {
        return latencySeconds - ttftMillis / 1000;
    }

    /** {@code engine}'s per-sequence and front-end host times, from its baseline {@code block}'s latency and TTFT. */
    private EngineProfile fit(Constants start, SimDialect engine, ReferenceBlock block) {
        EngineProfile e = start.profile(engine);
        for (int round = 0; round < ROUNDS; round++) {
            EngineProfile current = e;
            double latency = block.metric(Figure.MEAN_LATENCY.reference);
            double sequence = bisect(ns -> figure(block, start.with(engine, current.withFitted((long) ns,
                    current.frontendNanos())), Figure.MEAN_LATENCY) - latency, 0, MAX_SEQUENCE_NANOS);
            e = e.withFitted(Math.round(sequence), e.frontendNanos());
            // the front end adds to every TTFT one for one; the queueing it changes moves it a little more
            double ttft = figure(block, start.with(engine, e), Figure.MEAN_TTFT);
            double frontend = Math.max(0, e.frontendNanos() + (block.metric(Figure.MEAN_TTFT.reference) - ttft) * 1e6);
            e = e.withFitted(e.sequenceNanos(), Math.round(frontend));
        }
        return e;
    }

    /** The root of an increasing function on {@code [lo, hi]}, or the bound it stays on the wrong side of. */
    private static double bisect(DoubleFunction<Double> f, double lo, double hi) {
        if (f.apply(lo) >= 0) {
            return lo;
        }
        if (f.apply(hi) <= 0) {
            return hi;
        }
        for (int i = 0; i < BISECTIONS; i++) {
            double mid = (lo + hi) / 2;
            if (f.apply(mid) < 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    private double figure(ReferenceBlock b, Constants c, Figure f) {
        return simulate(b, c).number(f.metric, f.stat).orElse(Double.NaN);
    }

    /** One block's configuration in virtual time, with {@code c}; the same inputs give the same result. */
    RepetitionResult simulate(ReferenceBlock b, Constants c) {
        SimDialect dialect = SimDialect.of(b.engine());
        SimParams params = SimParams.fromFlags(dialect, model, b.flags(), gpu).withEngine(c.profile(dialect));
        if ("mtp".equals(params.speculativeMethod())) {
            params = params.withAcceptanceRate(c.mtpAcceptance());
        }
        // every input of the trial is in its key: the settings (engine profile and acceptance included) and the load
        TrialKey key = new TrialKey(params, b.rate(), b.requests());
        return cache.computeIfAbsent(key, k -> {
            trials.incrementAndGet();
            VirtualEngine engine = VirtualEngine.of(k.params(), seed);
            MetricsAggregator.Running metrics = new MetricsAggregator().start(SloParams.NONE, engine::earliestArrivalNs);
            new VirtualLoad(new SimulatedServer(engine), new io.servebench.load.Target(java.net.URI.create("virtual:" + model), model)).run(dataset.supply(seed), 0, b.requests(),
                    LoadParams.of(new ArrivalProfile.Constant(b.rate())), metrics);
            return metrics.finish();
        });
    }
}
