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

        // the statement of that kind says so beside its published bar, and only that kind's
        assertThat(TwinEvidence.statement("vllm", "h100", "hybrid", false, false)).contains("at a request rate:"
                + " unvalidated, no published vLLM hybrid H100 case on one GPU, but calibrated on this kind: the reference"
                + " study (Qwen/Qwen3.5-9B) fitted at 8 req/s, its 6 blocks at other rates held out and within ±");
        assertThat(TwinEvidence.statement("sglang", "h100", "hybrid", false, false)).doesNotContain("calibrated");
        assertThat(TwinEvidence.statement("vllm", "h100", "hybrid", true, false)).doesNotContain("calibrated");
        assertThat(TwinEvidence.statement("vllm", "h200", "hybrid", false, false)).doesNotContain("calibrated");
    }

    @Test
    void aSetUpWithoutPublishedCasesIsUnvalidatedAndOneWithThemCarriesABarPerLoadRegime() {
        assertThat(TwinEvidence.statement("vllm", "l40s", "dense", false, false))
                .isEqualTo("unvalidated: no published vLLM dense L40S case on one GPU");
        // SGLang's --ep-size 4 on four A100s (GPUStack's GLM-4.5-Air) is evidence for expert parallelism alone
        assertThat(TwinEvidence.statement("sglang", "a100", "moe", true, true))
                .contains("on 1 published SGLang moe A100 case on several GPUs with expert parallelism (4 figures)");
        assertThat(TwinEvidence.statement("sglang", "a100", "moe", true, false))
                .doesNotContain("expert parallelism");
        // one GPU and several are apart: Scicom's eight H100s at tensor parallelism 8 do not vouch for one H100
        assertThat(TwinEvidence.statement("vllm", "h100", "dense", false, false))
                .contains("on 8 published vLLM dense H100 cases on one GPU");
        assertThat(TwinEvidence.statement("vllm", "h100", "dense", true, false))
                .contains("on 20 published vLLM dense H100 cases on several GPUs");
        // IOG's runs on one H100 PCIe are evidence for that GPU, not for the SXM part (the fifth, 200 requests at 32 req/s,
        // arrives in 6 s: not paced)
        assertThat(TwinEvidence.statement("vllm", "h100-pcie", "dense", false, false))
                .contains("at a request rate: within").contains("on 4 published vLLM dense H100 PCIe cases on one GPU (16 figures)");
        for (TwinEvidence e : TwinEvidence.bundled()) {
            String kind = (e.engine().equals("sglang") ? "SGLang" : "vLLM") + " " + e.architecture() + " "
                    + (e.gpu().equals("h100-pcie") ? "H100 PCIe" : e.gpu().toUpperCase(java.util.Locale.ROOT));
            String clause = String.format(java.util.Locale.ROOT, "%s: within ±%.0f%% (mean %.0f%%) on %d published %s case%s"
                    + " on %s (%d figures)", e.regime() == TwinEvidence.Regime.PACED ? "at a request rate"
                    : "all at once or in a closed loop", 100 * e.maxError(), 100 * e.meanError(), e.cases(), kind,
                    e.cases() == 1 ? "" : "s", !e.severalGpus() ? "one GPU" : e.expertParallel()
                            ? "several GPUs with expert parallelism" : "several GPUs", e.figures());
            assertThat(TwinEvidence.statement(e.engine(), e.gpu(), e.architecture(), e.severalGpus(), e.expertParallel()))
                    .contains(clause);
        }
        // a kind with published cases of one regime only says the other is unvalidated
        TwinEvidence single = TwinEvidence.bundled().stream().filter(e -> TwinEvidence.bundled().stream()
                .filter(x -> x.engine().equals(e.engine()) && x.gpu().equals(e.gpu())
                        && x.architecture().equals(e.architecture()) && x.severalGpus() == e.severalGpus()
                        && x.expertParallel() == e.expertParallel()).count() == 1 && !e.expertParallel())
                .findFirst().orElseThrow();
        String other = single.regime() == TwinEvidence.Regime.PACED ? "all at once or in a closed loop" : "at a request rate";
        assertThat(TwinEvidence.statement(single.engine(), single.gpu(), single.architecture(), single.severalGpus(), false))
                .contains(other + ": unvalidated, no published " + (single.engine().equals("sglang") ? "SGLang" : "vLLM")
                        + " " + single.architecture() + " " + single.gpu().toUpperCase(java.util.Locale.ROOT) + " case on "
                        + (single.severalGpus() ? "several GPUs" : "one GPU"));
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
