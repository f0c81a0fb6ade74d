package io.servebench.tuning;

import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import io.servebench.results.BlockResult;
import io.servebench.results.Caveat.Code;
import io.servebench.results.Caveat;
import io.servebench.results.Distribution;
import io.servebench.results.HistogramBucket;
import io.servebench.results.RepetitionResult;
import io.servebench.results.TuningResult.Verdict;
import io.servebench.results.TuningResult;
import io.servebench.study.ParamSpec;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.TuneParams;
import io.servebench.study.VariantDescriptor;
import io.servebench.study.WorkloadOptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tuner's choices on scripted measurements: each configuration's per-request latencies are drawn from a normal
 * distribution of a stated mean and spread, a fresh seed per repetition, so the tests state what is true and the tuner
 * has to find it through the noise.
 */
class TunerTest {

    private static final double RATE = 8;

    /** A scripted engine: true mean latency and per-request spread, by candidate name; repetitions counted. */
    private static final class Script implements Tuner.Measurer {
        final Map<String, double[]> truth = new HashMap<>();
        /** A figure of each repetition, by candidate name: its true value, off by the run noise in each repetition. */
        final Map<String, Double> figure = new HashMap<>();
        Metric figureMetric;
        final Map<String, Integer> repetitions = new TreeMap<>();
        /** Each call's candidates by name, and the repetitions it asked for. */
        final List<Map.Entry<List<String>, Integer>> calls = new ArrayList<>();
        Tuner.Candidate recommended;

        Script set(String name, double mean, double stdev) {
            truth.put(name, new double[] {mean, stdev});
            return this;
        }

        @Override
        public List<BlockResult> measure(List<Tuner.Candidate> candidates, int wanted) {
            calls.add(Map.entry(candidates.stream().map(Tuner.Candidate::name).toList(), wanted));
            List<BlockResult> blocks = new ArrayList<>();
            for (Tuner.Candidate c : candidates) {
                String key = c.name() + "@" + c.rate();
                int have = Math.max(repetitions.getOrDefault(key, 0), wanted);
                repetitions.put(key, have);
                double[] t = truth.get(c.name());
                if (t == null) {
                    throw new AssertionError("no script for " + c.name());
                }
                // slower at higher rates, the gain of anything but the baseline shrinking with load
                double scale = c.variant().baseline() ? c.rate() / RATE : Math.pow(c.rate() / RATE, 1.1);
                List<RepetitionResult> reps = new ArrayList<>();
                for (int r = 1; r <= have; r++) {
                    RepetitionResult rep = repetition(t[0] * scale, t[1] * scale, r, (c.name() + r + c.rate()).hashCode());
                    Double f = figure.get(c.name());
                    if (f != null) {
                        Map<String, Double> scalars = new HashMap<>(rep.scalars());
                        scalars.put(figureMetric.id(), f * (1 + RUN_NOISE[(r - 1) % RUN_NOISE.length]));
                        rep = new RepetitionResult(scalars, rep.distributions(), rep.tokenEvents(), rep.coalescedEvents(),
                                Map.of(), Map.of());
                    }
                    reps.add(rep);
                }
                blocks.add(new BlockResult("S." + c.variant().name(), "S", c.variant().name(), c.variant().group(),
                        c.variant().baseline(), Map.of("rate", Double.toString(c.rate())), key, "s", reps, null));
            }
            return blocks;
        }

        @Override
        public void recommend(Tuner.Candidate candidate) {
            recommended = candidate;
        }

        int repetitionsOf(String name) {
            return repetitions.getOrDefault(name + "@" + RATE, 0);
        }
    }

    /** Run-to-run noise: repetition r's mean is off the true mean by this share, the same for every configuration. */
    private static final double[] RUN_NOISE = {0, 0.03, -0.03, 0.01, -0.01};

    /**
     * 300 per-request latencies whose mean and spread are exactly the repetition's (true mean times its run noise, and
     * the stated spread): the scripted truth is what the tuner sees, and only the statistics decide.
     */
    private static RepetitionResult repetition(double mean, double stdev, int r, long seed) {
        Random random = new Random(seed);
        double[] z = new double[300];
        for (int i = 0; i < z.length; i++) {
            z[i] = random.nextGaussian();
        }
        double zm = Arrays.stream(z).average().orElseThrow();
        double zs = Math.sqrt(Arrays.stream(z).map(x -> (x - zm) * (x - zm)).sum() / (z.length - 1));
        double target = mean * (1 + RUN_NOISE[(r - 1) % RUN_NOISE.length]);
        double[] samples = Arrays.stream(z).map(x -> target + stdev * (x - zm) / zs).sorted().toArray();
        double m = Arrays.stream(samples).average().orElseThrow();
        double sd = Math.sqrt(Arrays.stream(samples).map(x -> (x - m) * (x - m)).sum() / (samples.length - 1));
        List<HistogramBucket> buckets = Arrays.stream(samples).mapToObj(x -> new HistogramBucket(x, 1)).toList();
        Distribution d = new Distribution("s", samples.length, m, sd, samples[0], q(samples, 0.5), q(samples, 0.9),
                q(samples, 0.95), q(samples, 0.99), q(samples, 0.999), samples[samples.length - 1], buckets);
        return new RepetitionResult(Map.of(Metric.SUCCESSFUL_REQUESTS.id(), (double) samples.length),
                Map.of(Metric.E2E_LATENCY.id(), d), samples.length, 0, Map.of(), Map.of());
    }

    private static double q(double[] sorted, double p) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    }

    private static VariantDescriptor variant(String name, String group, boolean baseline, String engine, String... flags) {
        return new VariantDescriptor(name, group, List.of(flags), engine, baseline, WorkloadOptions.UNSET);
    }

    private static StudyDescriptor study(List<ParamSpec> params, VariantDescriptor... variants) {
        return new StudyDescriptor("S", "m", "", "vllm", List.of(), WorkloadOptions.UNSET, params, List.of(variants));
    }

    private static TuningResult tune(StudyDescriptor study, Script script, double... validationRates) {
        return tune(study, script, Stat.MEAN, validationRates);
    }

    private static TuningResult tune(StudyDescriptor study, Script script, Stat stat, double... validationRates) {
        TuneParams spec = new TuneParams("engine-selection", Metric.E2E_LATENCY, stat, false,
                Arrays.stream(validationRates).boxed().toList(), 3, 1.02);
        return new Tuner(study, spec, RATE, script, step -> { }, Optional.empty()).tune();
    }

    /** A scripted engine by capacity: all of 1,000 requests meet the SLOs up to its capacity, then ever fewer. */
    private static final class CapacityScript implements Tuner.Measurer {
        final Map<String, Double> capacity = new HashMap<>();
        final List<Double> probed = new ArrayList<>();

        CapacityScript set(String name, double requestsPerSecond) {
            capacity.put(name, requestsPerSecond);
            return this;
        }

        @Override
        public List<BlockResult> measure(List<Tuner.Candidate> candidates, int wanted) {
            List<BlockResult> blocks = new ArrayList<>();
            for (Tuner.Candidate c : candidates) {
                // the load a probe sends: its rate, or at a concurrency its number of streams
                double load = c.point().hasRate() ? c.rate() : c.point().concurrency();
                probed.add(load);
                double cap = capacity.get(c.name());
                double share = load <= cap ? 1 : Math.max(0, 1 - (load - cap) / cap);
                RepetitionResult r = new RepetitionResult(Map.of(Metric.SUCCESSFUL_REQUESTS.id(), 1000.0,
                        Metric.FAILED_REQUESTS.id(), 0.0, Metric.SLO_ATTAINMENT.id(), 100 * share,
                        Metric.GOODPUT.id(), share * load), Map.of(), 1000, 0, Map.of(), Map.of());
                blocks.add(new BlockResult("S." + c.variant().name(), "S", c.variant().name(), c.variant().group(),
                        c.variant().baseline(), Map.of(c.point().hasRate() ? "rate" : "concurrency",
                        c.point().hasRate() ? Double.toString(c.rate()) : Integer.toString(c.point().concurrency()),
                        "requests", "1000"), c.name() + "@" + load, "s", List.of(r), null));
            }
            return blocks;
        }

        @Override
        public void recommend(Tuner.Candidate recommended) {
        }
    }

    /** A point's rate keeps its unit: a multi-turn load's validation rates are conversations too, on the console. */
    @Test
    void aRateOfConversationsStaysOneAtItsOtherRates() {
        Tuner.Point conversations = Tuner.Point.of(io.servebench.results.CapacityResult.Axis.CONVERSATION_RATE, 2);
        assertThat(conversations.label()).isEqualTo("2 conversations/s");
        assertThat(conversations.at(0.5).label()).isEqualTo("0.5 conversations/s");
        assertThat(Tuner.Point.atRate(8).label()).isEqualTo("8 req/s");
        assertThat(Tuner.Point.atConcurrency(64).label()).isEqualTo("concurrency 64");
        assertThat(Tuner.Point.of(io.servebench.results.CapacityResult.Axis.CONCURRENCY, 22.6).concurrency()).isEqualTo(23);
        assertThat(conversations.rate()).isEqualTo(2.0);
        assertThat(conversations.concurrency()).isZero();
    }

    @Test
    void byCapacityAClearlyHigherCapacityWinsAndOneWithinTheSearchsPrecisionDoesNot() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("near", "group-a", false, "", "--a"),
                variant("more", "group-b", false, "", "--b"));
        CapacityScript script = new CapacityScript().set("vllm", 20).set("near", 20.2).set("more", 30);
        TuneParams spec = TuneParams.parse(TuneParams.CAPACITY, "S");
        TuningResult result = new Tuner(study, spec, RATE, script, step -> { },
                Optional.of(new Tuner.CapacityTarget(0.99, "ttft=200"))).tune();

        assertThat(result.metric()).isEqualTo("Capacity under SLOs (req/s)");
        assertThat(verdict(step(result, "group-a"), "near")).isEqualTo(Verdict.NO_DIFFERENCE);
        assertThat(step(result, "group-b").chosen()).isEqualTo("more");
        assertThat(result.recommended()).isEqualTo("more");
        TuningResult.Candidate more = step(result, "group-b").candidates().get(1);
        assertThat(more.mean()).isBetween(27.0, 30.0);
        assertThat(more.ratio()).isGreaterThan(1.2);
        // every search starts at the tuning point's rate
        assertThat(script.probed).contains(RATE);
    }

    /** A multi-turn load's capacity is a rate of conversations, and the ranked figure says so, not req/s. */
    @Test
    void byCapacityAtARateOfConversationsTheCapacityIsInConversations() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("more", "group-b", false, "", "--b"));
        CapacityScript script = new CapacityScript().set("vllm", 2).set("more", 3);
        TuningResult result = new Tuner(study, TuneParams.parse(TuneParams.CAPACITY, "S"),
                Tuner.Point.of(io.servebench.results.CapacityResult.Axis.CONVERSATION_RATE, 1), script, step -> { },
                Optional.of(new Tuner.CapacityTarget(0.99, "ttft=200"))).tune();

        assertThat(result.metric()).isEqualTo("Capacity under SLOs (conversations/s)");
        assertThat(step(result, "group-b").chosen()).isEqualTo("more");
    }

    /** At a concurrency, ranking by capacity searches each candidate's streams, whole numbers from the tuning point's. */
    @Test
    void byCapacityAtAConcurrencyTheSearchIsOverStreams() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("more", "group-b", false, "", "--b"));
        CapacityScript script = new CapacityScript().set("vllm", 20).set("more", 45);
        TuningResult result = new Tuner(study, TuneParams.parse(TuneParams.CAPACITY, "S"), Tuner.Point.atConcurrency(16),
                script, step -> { }, Optional.of(new Tuner.CapacityTarget(0.99, "ttft=200"))).tune();

        assertThat(result.metric()).isEqualTo("Capacity under SLOs (streams)");
        assertThat(result.concurrency()).isEqualTo(16);
        assertThat(step(result, "group-b").chosen()).isEqualTo("more");
        assertThat(script.probed).first().isEqualTo(16.0);
        assertThat(script.probed).allSatisfy(load -> assertThat(load).isEqualTo(Math.rint(load)));
        TuningResult.Candidate more = step(result, "group-b").candidates().get(1);
        assertThat(more.mean()).isBetween(41.0, 45.0);
    }

    @Test
    void byAPercentileAnOptionThatOnlyNarrowsTheSpreadWinsAndByTheMeanItDoesNot() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("steady", "scheduling", false, "", "--steady"));
        // the same mean, a third of the spread: P99 about 2.0 + 2.33 * 0.2 = 2.47 s against 2.0 + 2.33 * 0.6 = 3.4 s
        Script script = new Script().set("vllm", 2.0, 0.6).set("steady", 2.0, 0.2);
        assertThat(tune(study, script, Stat.P99).recommended()).isEqualTo("steady");
        assertThat(tune(study, new Script().set("vllm", 2.0, 0.6).set("steady", 2.0, 0.2), Stat.MEAN).recommended())
                .isEqualTo("vllm");
        assertThat(TuneParams.parse("ttft.p99", "S").label("req/s")).isEqualTo("P99 TTFT (ms)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TuneParams.parse("p99", "S"))
                .hasMessageContaining("expected one of e2e_latency, ttft, tpot, itl");
        // a figure of each repetition: its mean only, labelled by itself
        assertThat(TuneParams.parse("energy_per_output_token", "S").label("req/s")).isEqualTo(Metric.ENERGY_PER_OUTPUT_TOKEN.label());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TuneParams.parse("energy_per_output_token.p99", "S"))
                .hasMessageContaining("energy_per_output_token, energy_per_request, cost_per_million_output_tokens "
                        + "(from GPU telemetry, compared over repetitions)");
    }

    @Test
    void aBlockWithoutTheRankedDistributionFailsItsCandidateSayingSo() {
        // ranked by ITL, which a run leaves out when the server's events could not give it per token: the scripted
        // blocks have latencies but no ITL, so no candidate can be ranked, and none is called better or worse
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("steady", "scheduling", false, "", "--steady"));
        TuneParams byItl = new TuneParams("engine-selection", Metric.ITL, Stat.MEAN, false, List.of(), 3, 1.02);
        TuningResult result = new Tuner(study, byItl, RATE, new Script().set("vllm", 2.0, 0.6).set("steady", 1.0, 0.2),
                step -> { }, Optional.empty()).tune();
        assertThat(result.recommended()).isEqualTo("vllm");
        assertThat(verdict(step(result, "scheduling"), "steady")).isEqualTo(Verdict.FAILED);
    }

    private static TuningResult.Step step(TuningResult result, String name) {
        return result.steps().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static Verdict verdict(TuningResult.Step step, String candidate) {
        return step.candidates().stream().filter(c -> c.name().equals(candidate)).findFirst().orElseThrow().verdict();
    }

    @Test
    void aRealDifferenceIsChosenAndANoisyNonDifferenceIsNot() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("sglang", "engine-selection", false, "sglang"),
                variant("prefixCaching", "prefix-caching", false, "", "--enable-prefix-caching"),
                variant("mtp", "speculative-decoding", false, "", "--speculative-config={}"),
                variant("mtpFast", "speculative-decoding", false, "", "--speculative-config={}", "--fast"));
        Script script = new Script().set("vllm", 2.6, 1.5).set("sglang", 8.1, 4.0)
                .set("prefixCaching", 2.63, 1.5)    // 1% slower, well inside the per-request noise
                .set("mtp", 2.2, 1.3)               // 15% faster
                .set("mtpFast", 2.17, 1.3);         // faster than the baseline too, but only 1.4% faster than mtp
        TuningResult result = tune(study, script);

        assertThat(step(result, "engine-selection").chosen()).isEqualTo("vllm");
        assertThat(verdict(step(result, "engine-selection"), "sglang")).isEqualTo(Verdict.WORSE);
        assertThat(step(result, "prefix-caching").chosen()).isEqualTo("vllm");
        assertThat(verdict(step(result, "prefix-caching"), "prefixCaching")).isEqualTo(Verdict.NO_DIFFERENCE);
        assertThat(step(result, "speculative-decoding").chosen()).isEqualTo("mtp");
        assertThat(verdict(step(result, "speculative-decoding"), "mtpFast")).isEqualTo(Verdict.BETTER_NOT_BEST);
        assertThat(result.recommended()).isEqualTo("mtp");
        assertThat(script.recommended.name()).isEqualTo("mtp");
        // clear cases need a second repetition, the fewest that measure run-to-run noise, and no third; a difference
        // below the close-call ratio none
        assertThat(script.repetitionsOf("sglang")).isEqualTo(2);
        assertThat(script.repetitionsOf("mtp")).isEqualTo(2);
        assertThat(script.repetitionsOf("prefixCaching")).isEqualTo(1);
    }

    @Test
    void byAFigureThatIsHigherTheBetterTheHigherWinsAndTheCaveatsSayBetterOrWorseNotFasterOrSlower() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("more", "group-a", false, "", "--a"),
                variant("less", "group-b", false, "", "--b"),
                variant("close", "group-c", false, "", "--c"));
        // latencies all alike: only the goodput tells them apart, and a higher one is the better
        Script script = new Script().set("vllm", 2.0, 0.5).set("more", 2.0, 0.5).set("less", 2.0, 0.5)
                .set("close", 2.0, 0.5);
        script.figureMetric = Metric.GOODPUT;
        script.figure.put("vllm", 6.0);
        script.figure.put("more", 7.5);     // 25% more requests within the SLOs
        script.figure.put("less", 4.0);
        script.figure.put("close", 6.0 * 1.04);   // 4% more: past the close-call ratio, inside three runs' noise of 3%
        TuneParams byGoodput = TuneParams.parse("goodput", "S");
        assertThat(byGoodput.higherIsBetter()).isTrue();
        assertThat(byGoodput.label("req/s")).isEqualTo("Goodput (req/s), higher is better");
        TuningResult result = new Tuner(study, new TuneParams("engine-selection", Metric.GOODPUT, Stat.MEAN, false,
                List.of(1.0, 16.0), 3, 1.02), RATE, script, step -> { }, Optional.empty()).tune();

        assertThat(step(result, "group-a").chosen()).isEqualTo("more");
        assertThat(verdict(step(result, "group-b"), "less")).isEqualTo(Verdict.WORSE);
        assertThat(step(result, "group-c").chosen()).isEqualTo("vllm");
        assertThat(result.recommended()).isEqualTo("more");
        assertThat(result.caveats()).extracting(Caveat::code).contains(Code.NOT_SIGNIFICANT_BETTER)
                .doesNotContain(Code.NOT_SIGNIFICANT_FASTER, Code.NOT_SIGNIFICANT_SLOWER);
        // validation: the script's goodput holds at every rate, so the recommendation is 1.25x better at each
        assertThat(result.validation()).allSatisfy(v -> assertThat(v.speedup()).isCloseTo(1.25, org.assertj.core.data.Offset.offset(0.05)));

        // by a cost, lower is better: the same figures rank the other way round
        script.figureMetric = Metric.ENERGY_PER_OUTPUT_TOKEN;
        script.repetitions.clear();
        TuningResult byEnergy = new Tuner(study, TuneParams.parse("energy_per_output_token", "S"), RATE, script, step -> { },
                Optional.empty()).tune();
        assertThat(step(byEnergy, "group-a").chosen()).isEqualTo("vllm");
        assertThat(step(byEnergy, "group-b").chosen()).isEqualTo("less");
        assertThat(byEnergy.caveats()).extracting(Caveat::code).contains(Code.NOT_SIGNIFICANT_WORSE);
    }

    @Test
    void byOutputThroughputAtARateTheTunerSaysWhatThatRanks() {
        StudyDescriptor study = study(List.of(), variant("vllm", "engine-selection", true, ""));
        Script script = new Script().set("vllm", 2.0, 0.5);
        script.figureMetric = Metric.OUTPUT_THROUGHPUT;
        script.figure.put("vllm", 1000.0);
        TuningResult result = new Tuner(study, TuneParams.parse("output_throughput", "S"), RATE, script, step -> { },
                Optional.empty()).tune();
        assertThat(result.caveats()).extracting(Caveat::code).contains(Code.THROUGHPUT_AT_A_RATE);
    }

    @Test
    void aCloseCallGetsRepetitionsUpToTheBudgetAndOnlyItDoes() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("close", "group-a", false, "", "--a"),
                variant("clear", "group-b", false, "", "--b"));
        // 3% apart with a wide per-request spread and 3% run-to-run noise: not significant on one run of 300 requests,
        // nor on three runs each
        Script script = new Script().set("vllm", 2.0, 2.0).set("close", 1.94, 2.0).set("clear", 1.0, 0.3);
        TuningResult result = tune(study, script);

        assertThat(script.repetitionsOf("close")).isEqualTo(3);
        assertThat(script.repetitionsOf("clear")).isEqualTo(2);
        assertThat(script.repetitionsOf("vllm")).isEqualTo(3);
        assertThat(step(result, "group-a").candidates().get(1).repetitions()).isEqualTo(3);
        assertThat(result.caveats()).singleElement().satisfies(c -> {
            assertThat(c.code()).isEqualTo(Code.NOT_SIGNIFICANT_FASTER);
            assertThat(c.args()).startsWith("close", "vllm").endsWith("3");
            // vllm's 2.0 against close's 1.94 and 2.0: faster by a few percent
            assertThat(Double.parseDouble(c.args().get(2))).isBetween(1.0, 1.05);
        });
    }

    @Test
    void theFurtherRepetitionsOfSeveralCloseCallsAreAskedForTogether() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("closeA", "group-a", false, "", "--a"),
                variant("closeB", "group-a", false, "", "--b"));
        // both as close to the base as the test above's: each needs the whole budget
        Script script = new Script().set("vllm", 2.0, 2.0).set("closeA", 1.94, 2.0).set("closeB", 1.95, 2.0);
        TuningResult result = tune(study, script);

        assertThat(script.repetitionsOf("closeA")).isEqualTo(3);
        assertThat(script.repetitionsOf("closeB")).isEqualTo(3);
        // one call a repetition for both comparisons, so a GPU would start each configuration once a round, not once
        // a comparison
        for (int r = 2; r <= 3; r++) {
            int wanted = r;
            assertThat(script.calls).filteredOn(c -> c.getValue() == wanted).singleElement()
                    .satisfies(c -> assertThat(c.getKey()).containsExactly("vllm", "closeA", "vllm", "closeB"));
        }
        // the caveats in the candidates' order, as one comparison at a time gave them
        assertThat(result.caveats()).filteredOn(c -> c.code() == Code.NOT_SIGNIFICANT_FASTER)
                .extracting(c -> c.args().get(0)).containsExactly("closeA", "closeB");
    }

    @Test
    void aCombinationThatLosesToOneOfItsPartsIsReportedAndThePartRecommended() {
        StudyDescriptor study = study(List.of(new ParamSpec("seqs", "int", List.of("128", "256"))),
                variant("vllm", "engine-selection", true, ""),
                variant("mtp", "speculative-decoding", false, "", "--speculative-config={}"),
                variant("maxNumSeqs", "max-num-seqs", false, "", "--max-num-seqs=${seqs}"));
        Script script = new Script().set("vllm", 3.0, 0.5).set("mtp", 2.0, 0.4)
                .set("maxNumSeqs (seqs=128)", 3.0, 0.5).set("maxNumSeqs (seqs=256)", 2.7, 0.5)
                .set("combination (seqs=256)", 2.5, 0.5);   // better than the baseline, worse than mtp alone
        TuningResult result = tune(study, script, 1, 4, 8, 16);

        assertThat(step(result, "max-num-seqs").chosen()).isEqualTo("maxNumSeqs (seqs=256)");
        TuningResult.Step combination = step(result, "combination");
        assertThat(combination.chosen()).isEqualTo("mtp");
        assertThat(result.recommended()).isEqualTo("mtp");
        assertThat(result.caveats()).anySatisfy(c -> assertThat(c.code()).isEqualTo(Code.COMBINATION_SLOWER))
                .anySatisfy(c -> assertThat(c.args()).last().isEqualTo("mtp"));
        // validated at every rate, faster at each, the gain shrinking as the script makes it
        assertThat(result.validation()).extracting(TuningResult.Validation::rate).containsExactly(1.0, 4.0, 8.0, 16.0);
        assertThat(result.validation()).allSatisfy(v -> assertThat(v.significant()).isTrue());
        assertThat(result.caveats()).extracting(Caveat::code).contains(Code.GAIN_SHRINKS);
    }

    @Test
    void whenAnotherEngineWinsTheOptionsWrittenForTheStudysEngineAreNotTried() {
        StudyDescriptor study = study(List.of(),
                variant("vllm", "engine-selection", true, ""),
                variant("sglang", "engine-selection", false, "sglang"),
                variant("prefixCaching", "prefix-caching", false, "", "--enable-prefix-caching"),
                variant("radixOff", "prefix-caching", false, "sglang", "--disable-radix-cache"));
        Script script = new Script().set("vllm", 4.0, 1.0).set("sglang", 2.0, 0.5).set("radixOff", 2.6, 0.6);
        TuningResult result = tune(study, script);

        assertThat(step(result, "engine-selection").chosen()).isEqualTo("sglang");
        assertThat(verdict(step(result, "prefix-caching"), "prefixCaching")).isEqualTo(Verdict.NOT_TRIED);
        assertThat(verdict(step(result, "prefix-caching"), "radixOff")).isEqualTo(Verdict.WORSE);
        assertThat(result.recommended()).isEqualTo("sglang");
        assertThat(result.caveats()).anySatisfy(c -> assertThat(c.code()).isEqualTo(Code.GROUP_NOT_TRIED))
                .anySatisfy(c -> assertThat(c.args()).contains("prefixCaching"));
    }
}
