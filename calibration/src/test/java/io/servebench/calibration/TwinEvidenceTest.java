package io.servebench.calibration;

import io.servebench.sim.TwinEvidence;
import org.junit.jupiter.api.Test;

import java.util.List;

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
            assertThat(List.of(b.engine(), b.gpu(), b.architecture(), b.cases(), b.figures()))
                    .containsExactly(n.engine(), n.gpu(), n.architecture(), n.cases(), n.figures());
            // a JVM may round a libm function differently in the last place: the bar is stated to the percent
            assertThat(b.maxError()).isCloseTo(n.maxError(), within(1e-6));
            assertThat(b.meanError()).isCloseTo(n.meanError(), within(1e-6));
        }
        // every figure of every case the twin ran is in one kind's bar
        long figures = outcomes.stream().filter(o -> o.skipped().isEmpty())
                .mapToLong(o -> o.result().published().keySet().stream().filter(f -> o.error(f).isPresent()).count()).sum();
        assertThat(now.stream().mapToInt(TwinEvidence::figures).sum()).isEqualTo((int) figures);
    }

    @Test
    void aSetUpWithoutPublishedCasesIsUnvalidatedAndOneWithThemCarriesItsBar() {
        assertThat(TwinEvidence.statement("vllm", "l40s", "dense")).isEqualTo("unvalidated: no published vLLM dense L40S case");
        TwinEvidence e = TwinEvidence.bundled().stream().filter(x -> x.engine().equals("vllm") && x.gpu().equals("h100")
                && x.architecture().equals("dense")).findFirst().orElseThrow();
        assertThat(TwinEvidence.statement("vllm", "h100", "dense")).isEqualTo(String.format(java.util.Locale.ROOT,
                "within ±%.0f%% (mean %.0f%%) on %d published vLLM dense H100 cases (%d figures)", 100 * e.maxError(),
                100 * e.meanError(), e.cases(), e.figures()));
    }
}
