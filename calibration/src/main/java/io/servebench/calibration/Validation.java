package io.servebench.calibration;

import io.servebench.calibration.PublicResult.Figure;
import io.servebench.engine.SimulatedServer;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.flags.EngineFlags;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.LoadParams;
import io.servebench.load.VirtualLoad;
import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.measure.Stat;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.results.RepetitionResult;
import io.servebench.results.TwinBar;
import io.servebench.sim.GpuProfile;
import io.servebench.sim.ModelProfile;
import io.servebench.sim.SimDialect;
import io.servebench.sim.SimParams;
import io.servebench.sim.TwinEvidence;
import io.servebench.sim.VirtualEngine;
import io.servebench.workload.Dataset;
import io.servebench.workload.Datasets;
import io.servebench.workload.SimTokenizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The simulated engine against published results it was never fitted to: each {@link PublicResult} run in virtual
 * time with the engine, model, GPU, tensor parallelism and load it names, and its figures set beside the published
 * ones. A case the twin cannot stand for (another engine, a GPU or precision it does not model, a model without a
 * built-in profile) is skipped with the reason.
 */
public final class Validation {

    /** Requests of a case that publishes none (a single request's speed): enough for a steady mean. */
    private static final int SINGLE_STREAM_REQUESTS = 3;

    private final long seed;
    private final Optional<GpuProfile> gpu;
    private final List<String> addedFlags;

    /** @param seed seeds each case's dataset and engine, so a case gives the same figures every time */
    public Validation(long seed) {
        this(seed, Optional.empty(), List.of());
    }

    /**
     * Every case on {@code gpu} instead of the GPU its source names, where present, and with {@code addedFlags} after
     * its own engine flags: diagnostics that ask what a source's figures say about its hardware (an "H100" whose decode
     * reads like the PCIe card's, stop 55) or its settings (the lab's H100 bursts at the A100's {@code
     * --max-num-seqs=256}, stop 61), never evidence for the twin.
     *
     * @param seed       seeds each case's dataset and engine
     * @param gpu        the GPU every case runs on, empty for each case's own
     * @param addedFlags engine flags ({@code --name=value}) every case runs with beside its own, empty for none
     */
    public Validation(long seed, Optional<GpuProfile> gpu, List<String> addedFlags) {
        this.seed = seed;
        this.gpu = Objects.requireNonNull(gpu, "gpu");
        this.addedFlags = List.copyOf(addedFlags);
    }

    /** The GPU the case runs on: the one given for all, else the one its source names. */
    private Optional<GpuProfile> gpuOf(PublicResult c) {
        return gpu.isPresent() ? gpu : gpu(c.gpu());
    }

    /**
     * One case's outcome: the twin's figures (empty when skipped), or why it was skipped.
     *
     * @param result  the published case
     * @param skipped why the twin did not run it, empty when it did
     * @param twin    the twin's figures, for those the case publishes
     * @param expertParallel whether the twin ran it with whole experts in groups of GPUs (its flags' expert parallelism)
     */
    public record Outcome(PublicResult result, Optional<String> skipped, Map<Figure, Double> twin,
                          boolean expertParallel) {

        /** The twin's figure over the published one, less 1; empty when either is missing. */
        public OptionalDouble error(Figure figure) {
            Double mine = twin.get(figure);
            Double theirs = result.published().get(figure);
            return mine == null || theirs == null || theirs == 0 ? OptionalDouble.empty()
                    : OptionalDouble.of(mine / theirs - 1);
        }

        /** Of each published figure the twin gave, how many times faster it was ({@link Figure#speedRatio}). */
        java.util.stream.Stream<Double> speedRatios() {
            return result.published().keySet().stream()
                    .flatMap(f -> error(f).stream().mapToObj(e -> f.speedRatio(1 + e)));
        }
    }

    /**
     * A pair of cases that differ in the engine only, and what each says about which engine is faster: the public
     * result's and the twin's ratio of SGLang's mean latency (or, without one, output throughput) to vLLM's.
     *
     * @param vllm           the vLLM case
     * @param sglang         the SGLang case
     * @param figure         the figure compared
     * @param publishedRatio SGLang's figure over vLLM's, as published
     * @param twinRatio      the same ratio in the twin
     */
    public record EngineChoice(Outcome vllm, Outcome sglang, Figure figure, double publishedRatio, double twinRatio) {

        /** Whether the twin picks the engine the public result picks. */
        public boolean sameDirection() {
            return Math.signum(Math.log(publishedRatio)) == Math.signum(Math.log(twinRatio));
        }
    }

    /**
     * Every case, in order. The cases run side by side, one per core: each has its own virtual engine, load and seed,
     * so what one gives does not depend on the others or on the order they end in.
     */
    public List<Outcome> run(List<PublicResult> cases) {
        return cases.parallelStream().map(this::run).toList();
    }

    /**
     * Whether the case's vLLM ran MXFP4 experts with Marlin on a GPU where today's vLLM picks Triton: a version before
     * 0.12, whose wheels lacked {@code triton_kernels} ({@link io.servebench.sim.Mxfp4Kernel#MARLIN}). Its own log on an
     * H100 says so ("Weight-only FP4 compression will be used leveraging the Marlin kernel", vLLM 0.10.1, issue #23278).
     */
    boolean marlinOnHopper(PublicResult c) {
        return c.engine().equals(EngineKinds.VLLM.name()) && c.dtype().equals("mxfp4")
                && gpuOf(c).map(g -> g.computeCapability() / 10 == 9).orElse(false) && versionBelow(c, 0, 12, 0);
    }

    /**
     * Whether the case's SGLang kept every token of gpt-oss's sliding-window layers in its one KV pool, where today's
     * pools them apart ({@link ModelProfile.SglangWindow#OWN_POOL}): its {@code server_args.py} set {@code
     * disable_hybrid_swa_memory = True} for {@code GptOssForCausalLM} whatever the command line said (read in two
     * stored versions of the file, of August and November 2025, beside the attention and MoE backends it picks for
     * the model), still in January 2026 (sgl-project/sglang PR #17630 turns it off by hand to reproduce a bug), and no
     * longer in 0.5.9 (ovg-project/kvcached PR #263: "GptOssForCausalLM follows hybrid_swa_model path"; the rule's
     * later home, {@code _gpt_oss_overrides}, sets backends and the dtype only). So a version before 0.5.9 runs as
     * with {@code --disable-hybrid-swa-memory}.
     */
    boolean sglangGptOssOnePool(PublicResult c) {
        return c.engine().equals(EngineKinds.SGLANG.name())
                && ModelProfile.builtInArchitecture(c.model()).filter("GptOssForCausalLM"::equals).isPresent()
                && versionBelow(c, 0, 5, 9);
    }

    /**
     * The {@code --mem-fraction-static} the case's SGLang took when not given one, where its version's rule differs from
     * today's ({@link io.servebench.sim.SimParams}, by the GPU's memory): before sgl-project/sglang PR #7054 ("Simplify
     * the heuristics for setting --mem-fraction-static", merged 2025-06-10, so before 0.4.7) {@code server_args.py} set
     * it by the tensor-parallel size alone, 0.79 from 16 GPUs, 0.81 from 8, 0.85 from 4, 0.87 from 2, else 0.88 (read in
     * stored versions of the file of that spring, beside disaggregation, EAGLE3 and {@code enable_flashmla}); empty for a
     * later version, another engine, or a case whose flags set it.
     */
    Optional<Double> sglangMemFractionByTensorParallelism(PublicResult c) {
        if (!c.engine().equals(EngineKinds.SGLANG.name()) || !versionBelow(c, 0, 4, 7)
                || c.serverFlags().stream().anyMatch(f -> f.startsWith("--mem-fraction-static"))) {
            return Optional.empty();
        }
        int tp = c.tensorParallel();
        return Optional.of(tp >= 16 ? 0.79 : tp >= 8 ? 0.81 : tp >= 4 ? 0.85 : tp >= 2 ? 0.87 : 0.88);
    }

    /** Whether the case states its engine's version and it is below {@code major.minor.patch}. */
    private static boolean versionBelow(PublicResult c, int major, int minor, int patch) {
        if (c.engineVersion().isEmpty()) {
            return false;
        }
        // "0.5.4.post2", "0.5.3rc0": the numbers before the first suffix
        String[] parts = c.engineVersion().get().split("\\.");
        int[] v = new int[3];
        for (int i = 0; i < 3 && i < parts.length; i++) {
            String digits = parts[i].replaceAll("\\D.*", "");
            if (digits.isEmpty()) {
                break;
            }
            v[i] = Integer.parseInt(digits);
        }
        return Arrays.compare(v, new int[] {major, minor, patch}) < 0;
    }

    /** One case in virtual time, or the reason it is skipped. */
    public Outcome run(PublicResult c) {
        Optional<String> unsupported = unsupported(c);
        if (unsupported.isPresent()) {
            return new Outcome(c, unsupported, Map.of(), false);
        }
        SimDialect dialect = SimDialect.of(c.engine());
        EngineFlags names = dialect == SimDialect.SGLANG ? EngineFlags.SGLANG : EngineFlags.VLLM;
        List<String> flags = new ArrayList<>();
        if (c.tensorParallel() > 1) {
            flags.add(names.tensorParallelSize() + "=" + c.tensorParallel());
        }
        if (c.dtype().equals("fp8") && !ModelProfile.builtIn(c.model()).orElseThrow().fp8Weights()) {
            flags.add("--quantization=fp8");
        }
        flags.addAll(c.serverFlags());
        if (!c.draftAcceptance().isEmpty()) {
            // what the run printed of its drafts' acceptance, a condition of the run as its lengths are
            flags.add(SimParams.SIM_ACCEPTANCE_RATE + "=" + c.conditionalAcceptance().stream()
                    .map(p -> String.format(java.util.Locale.ROOT, "%.4f", p))
                    .collect(java.util.stream.Collectors.joining(",")));
        }
        flags.addAll(addedFlags);
        if (marlinOnHopper(c)) {
            flags.add(SimParams.SIM_MXFP4_KERNEL + "=marlin");
        }
        if (sglangGptOssOnePool(c)) {
            flags.add("--disable-hybrid-swa-memory");
        }
        sglangMemFractionByTensorParallelism(c).ifPresent(f -> flags.add("--mem-fraction-static=" + f));
        SimParams params;
        try {
            params = SimParams.fromFlags(dialect, c.model(), flags, gpuOf(c).orElseThrow());
        } catch (IllegalArgumentException e) {
            // the source says its engine started: the twin's memory rule is wrong, or the source left a setting out;
            // either way the case is reported as refused, with the check's own arithmetic
            String refused = addedFlags.isEmpty() ? REFUSED : "the twin refuses to start the engine with "
                    + String.join(" ", addedFlags) + " beside the flags the source prints: ";
            return new Outcome(c, Optional.of(refused + e.getMessage()), Map.of(), false);
        }
        VirtualEngine engine = VirtualEngine.of(params, seed);
        int requests = c.requests() > 0 ? c.requests() : SINGLE_STREAM_REQUESTS;
        Dataset dataset = dataset(c, requests);
        MetricsAggregator.Running metrics = new MetricsAggregator().start(SloParams.NONE, engine::earliestArrivalNs);
        new VirtualLoad(new SimulatedServer(engine), new io.servebench.load.Target(java.net.URI.create("virtual:" + c.model()), c.model())).run(dataset.supply(seed), 0, requests, LoadParams.of(profile(c)), metrics);
        RepetitionResult r = metrics.finish();
        Map<Figure, Double> twin = new EnumMap<>(Figure.class);
        for (Figure f : c.published().keySet()) {
            figure(r, f).ifPresent(v -> twin.put(f, v));
        }
        return new Outcome(c, Optional.empty(), twin, TwinEvidence.expertParallel(params));
    }

    /**
     * The twin's evidence per kind of set-up (engine, GPU, architecture, one GPU or several, expert parallelism, load
     * regime) from the cases it ran: how many, and
     * how far its figures were from the published ones at most and on average. Kinds in the order of their first case.
     */
    public static List<TwinEvidence> evidence(List<Outcome> outcomes) {
        Map<String, List<Outcome>> byKind = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            if (o.skipped().isEmpty()) {
                PublicResult c = o.result();
                byKind.computeIfAbsent(c.engine() + "\n" + catalogueId(c.gpu()) + "\n" + c.modelClass() + "\n"
                        + (c.tensorParallel() > 1) + "\n" + o.expertParallel() + "\n" + regime(c),
                        k -> new ArrayList<>()).add(o);
            }
        }
        List<TwinEvidence> out = new ArrayList<>();
        for (List<Outcome> kind : byKind.values()) {
            List<Double> errors = new ArrayList<>();
            for (Outcome o : kind) {
                for (Figure f : o.result().published().keySet()) {
                    o.error(f).ifPresent(e -> errors.add(Math.abs(e)));
                }
            }
            List<Double> speedRatios = kind.stream().flatMap(Outcome::speedRatios).toList();
            if (errors.isEmpty()) {
                continue;
            }
            PublicResult first = kind.get(0).result();
            out.add(new TwinEvidence(first.engine(), catalogueId(first.gpu()), first.modelClass(),
                    first.tensorParallel() > 1, kind.get(0).expertParallel(), regime(first), kind.size(),
                    errors.size(), errors.stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
                    errors.stream().mapToDouble(Double::doubleValue).average().orElseThrow(),
                    (int) speedRatios.stream().filter(r -> r > 1).count(), median(speedRatios)));
        }
        return out;
    }

    /** The median by ServeBench's one percentile estimator ({@link io.servebench.stats.Percentiles}). */
    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        long[] once = new long[sorted.length];
        Arrays.fill(once, 1);
        return io.servebench.stats.Percentiles.of(sorted, once, 50);
    }

    /**
     * How the case's load arrived, by the rule a block's error bar is chosen by ({@link TwinBar.Regime#of}): at a
     * request rate that spreads its requests over ten seconds or more, or all at once (no rate, a closed loop, or a
     * burst faster than that).
     */
    static TwinEvidence.Regime regime(PublicResult c) {
        return TwinEvidence.Regime.valueOf(TwinBar.Regime.of(c.requestRate().orElse(Double.NaN), c.requests()).name());
    }

    /**
     * The pairs of run cases that differ in the engine only, each with the direction both sides give. Of several cases
     * of one engine on a set-up, the first listed is paired: the run a source compares engines on, listed before the
     * runs that tune one engine further (GPUStack's "Choosing the Inference Engine" before its later sections).
     */
    public static List<EngineChoice> engineChoices(List<Outcome> outcomes) {
        Map<String, Outcome> vllm = new LinkedHashMap<>();
        Map<String, Outcome> sglang = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            if (o.skipped().isEmpty()) {
                (SimDialect.of(o.result().engine()) == SimDialect.VLLM ? vllm : sglang).putIfAbsent(setUp(o.result()), o);
            }
        }
        List<EngineChoice> pairs = new ArrayList<>();
        vllm.forEach((key, v) -> {
            Outcome s = sglang.get(key);
            if (s == null) {
                return;
            }
            for (Figure f : List.of(Figure.MEAN_E2E, Figure.OUTPUT_THROUGHPUT)) {
                Double pv = v.result().published().get(f);
                Double ps = s.result().published().get(f);
                Double tv = v.twin().get(f);
                Double ts = s.twin().get(f);
                if (pv != null && ps != null && tv != null && ts != null) {
                    pairs.add(new EngineChoice(v, s, f, ps / pv, ts / tv));
                    return;
                }
            }
        });
        return pairs;
    }

    /** Everything about a case but its engine and figures. */
    private static String setUp(PublicResult c) {
        return String.join("|", c.model(), c.gpu(), Integer.toString(c.tensorParallel()), c.dtype(), c.dataset(),
                c.inputTokens().toString(), c.outputTokens().toString(), c.concurrency().toString(),
                c.requestRate().toString(), Integer.toString(c.requests()));
    }

    /**
     * How a skipped case's reason begins when the twin refuses the engine's start as its source prints it. Neutral on
     * purpose: a source may leave out a setting its engine started with (GPUStack's Qwen3-32B page prints a start that
     * vLLM 0.11.0's own memory check refuses on an 80 GB H100; docs/simulated-engine.md, stop 55).
     */
    static final String REFUSED = "the twin refuses to start the engine as the source prints it: ";

    /** Why the twin does not run {@code c}, empty when it does. */
    static Optional<String> unsupported(PublicResult c) {
        if (c.inReference()) {
            return Optional.of("a block of the reference study, which the twin is calibrated on: see sim calibrate");
        }
        if (SimDialect.find(c.engine()).isEmpty()) {
            return Optional.of("engine " + c.engine() + " is not one the twin stands for");
        }
        if (gpu(c.gpu()).isEmpty()) {
            return Optional.of("no profile of the GPU " + c.gpu());
        }
        if (!c.dtype().equals("bf16") && !c.dtype().equals("fp8") && !c.dtype().equals("mxfp4")) {
            return Optional.of(c.dtype() + " weights are not modelled");
        }
        Optional<ModelProfile> model = ModelProfile.builtIn(c.model());
        if (model.isEmpty()) {
            return Optional.of("no built-in profile of " + c.model());
        }
        // MXFP4 as a checkpoint ships it: the experts only, which the model's own config says
        if (c.dtype().equals("mxfp4") && model.get().expertBytesPerParameter() >= model.get().bytesPerParameter()) {
            return Optional.of("mxfp4 weights of a model whose built-in config is not MXFP4");
        }
        return Optional.empty();
    }

    /**
     * The GPU a source names, by the ids of {@link GpuProfile#catalogue()}: its first word, e.g. {@code H100 SXM 80GB},
     * and the form factor where the second word names PCIe ({@code H100 PCIe 80GB}: {@code h100-pcie}).
     */
    static Optional<GpuProfile> gpu(String named) {
        return Optional.ofNullable(GpuProfile.catalogue().get(catalogueId(named)));
    }

    /** The id in {@link GpuProfile#catalogue()} of the GPU a source names ({@link #gpu}). */
    private static String catalogueId(String named) {
        String[] words = named.strip().toLowerCase(Locale.ROOT).split("\\s+");
        return words.length > 1 && words[1].equals("pcie") ? words[0] + "-pcie" : words[0];
    }

    /**
     * The case's requests, of the lengths it published. Where the source prints its token totals ({@code vllm bench
     * serve} and {@code sglang.bench_serving} do), those set the lengths: a ShareGPT case's have its client's spread
     * ({@link PublicResult#shareGptShape()}: vLLM's benchmark client's sample, half its prompts under 76 tokens and a
     * third of its replies under 50, or the bundled set's log-normal one for guidellm's) scaled to the published means
     * (vLLM's client drew about 217 prompt and 201 generated tokens a request); a random case's are drawn from
     * the distributions its client draws them from ({@link PublicResult#inputLengths()}) and scaled to the published
     * means, or are the published means where the client asks for one length, so a run whose requests stopped early at
     * an end-of-sequence token (32,000 in and 100 out asked, 77 out on average) generates as many tokens as it did. Only
     * the totals are published, not each request's length. A case without totals runs its nominal lengths.
     */
    static Dataset dataset(PublicResult c, int requests) {
        SimTokenizer tokens = new SimTokenizer();
        boolean shaped = c.inputLengths().isPresent() || c.outputLengths().isPresent();
        String lengths = shaped ? "synthetic:in=" + c.inputLengths().orElse("fixed(" + c.inputTokens().orElseThrow() + ")")
                + ",out=" + c.outputLengths().orElse("fixed(" + c.outputTokens().orElseThrow() + ")") + ",count=" + requests
                : null;
        if (c.totalInputTokens().isPresent() && c.totalOutputTokens().isPresent()) {
            double in = (double) c.totalInputTokens().getAsLong() / requests;
            double out = (double) c.totalOutputTokens().getAsLong() / requests;
            if (c.shareGptShape().isPresent()) {
                return Datasets.shareGptShaped(c.shareGptShape().get(), in, out, requests, tokens::count);
            }
            if (shaped) {
                return Datasets.syntheticShaped(lengths, in, out, tokens::count);
            }
            return Datasets.resolve("synthetic:in=fixed(" + Math.round(in) + "),out=fixed(" + Math.max(1, Math.round(out))
                    + "),count=" + requests, tokens::count);
        }
        String spec = c.dataset().equals("sharegpt") ? Datasets.SYNTHETIC_SHAREGPT : shaped ? lengths
                : "synthetic:in=fixed(" + c.inputTokens().orElseThrow() + "),out=fixed(" + c.outputTokens().orElseThrow() + ")";
        return Datasets.resolve(spec, tokens::count);
    }

    /**
     * The load: a rate, evenly spaced or a Poisson process as the client sent it (capped at the concurrency where one is
     * given too), a closed loop of that many streams, or every request at once. A Poisson schedule is drawn from the
     * validation's seed, not the published client's: the same process, not the same instants.
     */
    private ArrivalProfile profile(PublicResult c) {
        if (c.requestRate().isPresent()) {
            double perSecond = c.requestRate().getAsDouble();
            ArrivalProfile.Rate rate = c.poissonArrivals() ? new ArrivalProfile.Poisson(perSecond, seed)
                    : new ArrivalProfile.Constant(perSecond);
            return c.concurrency().isPresent() ? new ArrivalProfile.Capped(rate, c.concurrency().getAsInt()) : rate;
        }
        if (c.concurrency().isPresent()) {
            return new ArrivalProfile.Concurrent(c.concurrency().getAsInt());
        }
        return new ArrivalProfile.Throughput();
    }

    private static OptionalDouble figure(RepetitionResult r, Figure f) {
        switch (f) {
            case MEAN_TTFT:
                return r.number(Metric.TTFT, Stat.MEAN);
            case MEAN_TPOT:
                return r.number(Metric.TPOT, Stat.MEAN);
            case MEAN_E2E: {
                OptionalDouble seconds = r.number(Metric.E2E_LATENCY, Stat.MEAN);
                return seconds.isPresent() ? OptionalDouble.of(seconds.getAsDouble() * 1000) : seconds;
            }
            case OUTPUT_THROUGHPUT:
                return r.value(Metric.OUTPUT_THROUGHPUT);
            default:
                return r.value(Metric.TOTAL_THROUGHPUT);
        }
    }
}
