package io.servebench.calibration;

import io.servebench.sim.TwinEvidence;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The error bar every simulated block states comes from {@code sim validate}'s own cases, recomputed here: the bundled
 * {@code twin-evidence.json} must be what the twin gives today, so it cannot fall behind a change of its physics
 * (regenerate with {@code java -jar benchmarks.jar sim validate --write-evidence
 * simulator/src/main/resources/io/servebench/sim/twin-evidence.json}).
 */
class TwinEvidenceTest {

    @Test
    void theBundledEvidenceIsWhatSimValidateGivesToday() {
        List<Validation.Outcome> outcomes = new Validation(42).run(PublicResult.bundled());
        List<TwinEvidence> now = Validation.evidence(outcomes);
        List<TwinEvidence> bundled = TwinEvidence.bundled();
        assertThat(bundled).hasSameSizeAs(now);
        for (int i = 0; i < now.size(); i++) {
            TwinEvidence n = now.get(i);
            TwinEvidence b = bundled.get(i);
            assertThat(List.of(b.engine(), b.gpu(), b.architecture(), b.severalGpus(), b.expertParallel(), b.regime(),
                    b.cases(), b.figures())).containsExactly(n.engine(), n.gpu(), n.architecture(), n.severalGpus(),
                    n.expertParallel(), n.regime(), n.cases(), n.figures());
            // a JVM may round a libm function differently in the last place: the bar is stated to the percent
            assertThat(b.maxError()).isCloseTo(n.maxError(), within(1e-6));
            assertThat(b.meanError()).isCloseTo(n.meanError(), within(1e-6));
            assertThat(b.fasterFigures()).isEqualTo(n.fasterFigures());
            assertThat(b.medianSpeedRatio()).isCloseTo(n.medianSpeedRatio(), within(1e-6));
        }
        // every figure of every case the twin ran is in one kind's bar
        long figures = outcomes.stream().filter(o -> o.skipped().isEmpty())
                .mapToLong(o -> o.result().published().keySet().stream().filter(f -> o.error(f).isPresent()).count()).sum();
        assertThat(now.stream().mapToInt(TwinEvidence::figures).sum()).isEqualTo((int) figures);
    }

    /**
     * The calibration's own set-up states what its held-out blocks showed, recomputed here from the twin as it ships
     * (regenerate with {@code java -jar benchmarks.jar sim calibrate --no-fit --write-evidence
     * simulator/src/main/resources/io/servebench/sim/twin-calibration.json}); the largest error is the reference's
     * own figure against the twin's: the MTP configuration's mean TTFT at 16 req/s, 81.9 ms in seed-study's results.
     */
    @Test
    void theBundledCalibrationEvidenceIsWhatTheHeldOutBlocksGiveToday() {
        Calibration calibration = new Calibration(ReferenceBlock.bundled(), "Qwen/Qwen3.5-9B",
                io.servebench.workload.Datasets.resolve(io.servebench.workload.Datasets.SYNTHETIC_SHAREGPT,
                        new io.servebench.workload.SimTokenizer()::count), 42, io.servebench.sim.GpuProfile.named("h100"), 8);
        List<Calibration.BlockOutcome> predicted = calibration.predict(Calibration.Constants.current());
        List<io.servebench.sim.TwinCalibration> now = calibration.evidence(predicted);
        assertThat(io.servebench.sim.TwinCalibration.bundled()).hasSameSizeAs(now).singleElement().satisfies(b -> {
            io.servebench.sim.TwinCalibration n = now.get(0);
            assertThat(List.of(b.model(), b.engine(), b.gpu(), b.architecture(), b.severalGpus(), b.regime(), b.blocks(),
                    b.figures())).containsExactly("Qwen/Qwen3.5-9B", "vllm", "h100", "hybrid", false,
                    TwinEvidence.Regime.PACED, 6, 12);
            assertThat(List.of(n.model(), n.engine(), n.blocks(), n.figures())).containsExactly(b.model(), b.engine(),
                    b.blocks(), b.figures());
            assertThat(b.maxError()).isCloseTo(n.maxError(), within(1e-6));
            assertThat(b.meanError()).isCloseTo(n.meanError(), within(1e-6));
        });
        Calibration.BlockOutcome mtpAt16 = predicted.stream().filter(b -> b.block().rate() == 16
                && b.block().variant().equals("optimized")).findFirst().orElseThrow();
        assertThat(mtpAt16.block().metric("Mean TTFT (ms)")).isCloseTo(81.9, within(0.05));
        assertThat(now.get(0).maxError()).isCloseTo(Math.abs(mtpAt16.twin().get(Calibration.Figure.MEAN_TTFT) / 81.9 - 1),
                within(0.002));

        // that kind's bar at a request rate carries it beside its published evidence, and only that kind's
        assertThat(TwinEvidence.bars("vllm", "h100", "hybrid", false, false)).satisfiesExactly(
                paced -> assertThat(paced.calibration()).hasValue(now.get(0)),
                unpaced -> assertThat(unpaced.calibration()).isEmpty());
        assertThat(TwinEvidence.bars("sglang", "h100", "hybrid", false, false)).allSatisfy(b -> assertThat(b.calibration()).isEmpty());
        assertThat(TwinEvidence.bars("vllm", "h100", "hybrid", true, false)).allSatisfy(b -> assertThat(b.calibration()).isEmpty());
        assertThat(TwinEvidence.bars("vllm", "h200", "hybrid", false, false)).allSatisfy(b -> assertThat(b.calibration()).isEmpty());
    }

    @Test
    void aSetUpWithoutPublishedCasesIsUnvalidatedAndOneWithThemCarriesABarPerLoadRegime() {
        assertThat(TwinEvidence.bars("vllm", "l40s", "dense", false, false)).extracting(TwinEvidence.Bar::regime)
                .containsExactly(TwinEvidence.Regime.PACED, TwinEvidence.Regime.UNPACED);
        assertThat(TwinEvidence.bars("vllm", "l40s", "dense", false, false))
                .allSatisfy(b -> assertThat(b.published()).isEmpty());
        // SGLang's --ep-size 4 on four A100s (GPUStack's GLM-4.5-Air) is evidence for expert parallelism alone
        assertThat(TwinEvidence.bars("sglang", "a100", "moe", true, true)).flatMap(b -> b.published().stream().toList())
                .singleElement().satisfies(e -> assertThat(List.of(e.cases(), e.figures())).containsExactly(1, 4));
        assertThat(TwinEvidence.bars("sglang", "a100", "moe", true, false)).flatMap(b -> b.published().stream().toList())
                .isNotEmpty().noneMatch(TwinEvidence::expertParallel);
        // one GPU and several are apart: Scicom's eight H100s at tensor parallelism 8 do not vouch for one H100
        assertThat(cases("vllm", "h100", "dense", false)).contains(9);
        assertThat(cases("vllm", "h100", "dense", true)).contains(20);
        // IOG's runs on one H100 PCIe are evidence for that GPU, not for the SXM part (the fifth, 200 requests at 32 req/s,
        // arrives in 6 s: not paced)
        assertThat(TwinEvidence.bars("vllm", "h100-pcie", "dense", false, false).get(0).published())
                .hasValueSatisfying(e -> assertThat(List.of(e.cases(), e.figures())).containsExactly(4, 16));
        // every bundled entry is the bar of its own kind and regime
        for (TwinEvidence e : TwinEvidence.bundled()) {
            assertThat(TwinEvidence.bars(e.engine(), e.gpu(), e.architecture(), e.severalGpus(), e.expertParallel()))
                    .filteredOn(b -> b.regime() == e.regime()).singleElement()
                    .satisfies(b -> assertThat(b.published()).hasValue(e));
        }
        // a kind with published cases of one regime only has none in the other
        TwinEvidence single = TwinEvidence.bundled().stream().filter(e -> TwinEvidence.bundled().stream()
                .filter(x -> x.engine().equals(e.engine()) && x.gpu().equals(e.gpu())
                        && x.architecture().equals(e.architecture()) && x.severalGpus() == e.severalGpus()
                        && x.expertParallel() == e.expertParallel()).count() == 1 && !e.expertParallel())
                .findFirst().orElseThrow();
        assertThat(TwinEvidence.bars(single.engine(), single.gpu(), single.architecture(), single.severalGpus(), false))
                .filteredOn(b -> b.regime() != single.regime()).singleElement()
                .satisfies(b -> assertThat(b.published()).isEmpty());
    }

    /**
     * Which way a kind's figures leaned, worked by hand: two GPUStack cases of one kind, the twin's figures set at
     * chosen multiples of the published ones. A time at half the published is twice as fast, a throughput 1.3 times
     * the published 1.3 times as fast; the eight speed ratios 0.5, 0.7, 0.8, 1.05, 1.1, 1/0.9, 1.3 and 2 have five
     * above 1 and the median (1.05 + 1.1) / 2.
     */
    @Test
    void aKindStatesOnHowManyFiguresTheTwinWasFasterAndItsMedianSpeedRatio() {
        Map<PublicResult.Figure, Double> first = Map.of(PublicResult.Figure.MEAN_TTFT, 0.5,
                PublicResult.Figure.MEAN_TPOT, 1.25, PublicResult.Figure.OUTPUT_THROUGHPUT, 1.1,
                PublicResult.Figure.TOTAL_THROUGHPUT, 1.3);
        Map<PublicResult.Figure, Double> second = Map.of(PublicResult.Figure.MEAN_TTFT, 2.0,
                PublicResult.Figure.MEAN_TPOT, 0.9, PublicResult.Figure.OUTPUT_THROUGHPUT, 0.7,
                PublicResult.Figure.TOTAL_THROUGHPUT, 1.05);
        List<Validation.Outcome> outcomes = List.of(scaled("vllm-qwen3-14b-h100-sharegpt-burst", first),
                scaled("vllm-qwen3-14b-h100-random-2000-100-burst", second));
        assertThat(Validation.evidence(outcomes)).singleElement().satisfies(e -> {
            assertThat(List.of(e.cases(), e.figures(), e.fasterFigures())).containsExactly(2, 8, 5);
            assertThat(e.medianSpeedRatio()).isCloseTo(1.075, within(1e-9));
            assertThat(e.maxError()).isCloseTo(1.0, within(1e-9));
            assertThat(e.meanError()).isCloseTo(2.6 / 8, within(1e-9));
        });
    }

    /** A bundled case's outcome with the twin's figures at these multiples of its published ones. */
    private static Validation.Outcome scaled(String id, Map<PublicResult.Figure, Double> multiples) {
        PublicResult c = PublicResult.bundled().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
        assertThat(c.published().keySet()).containsExactlyInAnyOrderElementsOf(multiples.keySet());
        Map<PublicResult.Figure, Double> twin = new java.util.EnumMap<>(PublicResult.Figure.class);
        multiples.forEach((f, m) -> twin.put(f, c.published().get(f) * m));
        return new Validation.Outcome(c, java.util.Optional.empty(), twin, false);
    }

    /** The published cases behind each regime's bar of a set-up on one GPU or several (no expert parallelism). */
    private static List<Integer> cases(String engine, String gpu, String architecture, boolean severalGpus) {
        return TwinEvidence.bars(engine, gpu, architecture, severalGpus, false).stream()
                .flatMap(b -> b.published().stream()).map(TwinEvidence::cases).toList();
    }

    @Test
    void eachPublishedCaseCountsInTheRegimeItsSourceDescribes() {
        Map<String, TwinEvidence.Regime> described = Map.of(
                // the reference study's rate sweep: 1,000 requests at 16 req/s
                "vllm-qwen3.5-9b-h100-sharegpt-rate16", TwinEvidence.Regime.PACED,
                "sglang-qwen3.5-35b-a3b-h200-sharegpt-rate8", TwinEvidence.Regime.PACED,
                // its burst: 1,000 requests at 1,000 req/s, 512 in flight at most
                "vllm-qwen3.5-9b-h100-sharegpt-burst", TwinEvidence.Regime.UNPACED,
                // GPUStack's runs: request rate inf
                "vllm-qwen3-14b-h100-sharegpt-burst", TwinEvidence.Regime.UNPACED,
                "vllm-qwen3-8b-h100-sharegpt-c4", TwinEvidence.Regime.UNPACED,
                // one request at a time, no rate
                "vllm-qwen2.5-7b-a100-bs1-in1-out2048", TwinEvidence.Regime.UNPACED);
        described.forEach((id, regime) -> assertThat(Validation.regime(PublicResult.bundled().stream()
                .filter(c -> c.id().equals(id)).findFirst().orElseThrow())).as(id).isEqualTo(regime));
    }
}
