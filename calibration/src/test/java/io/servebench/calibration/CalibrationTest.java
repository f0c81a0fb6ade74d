package io.servebench.calibration;

import io.servebench.calibration.Calibration.BlockOutcome;
import io.servebench.calibration.Calibration.Constants;
import io.servebench.calibration.Calibration.Figure;
import io.servebench.calibration.Calibration.Role;
import io.servebench.sim.GpuProfile;
import io.servebench.workload.SimTokenizer;
import io.servebench.workload.Datasets;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

/** {@code sim calibrate} against the bundled reference study: the fit lands on the constants the engine ships. */
class CalibrationTest {

    private static Calibration calibration() {
        return new Calibration(ReferenceBlock.bundled(), "Qwen/Qwen3.5-9B",
                Datasets.resolve(Datasets.SYNTHETIC_SHAREGPT, new SimTokenizer()::count), 42, GpuProfile.named("h100"), 8);
    }

    @Test
    void theBundledReferenceHasItsEighteenBlocksAndTheirFigures() {
        List<ReferenceBlock> blocks = ReferenceBlock.bundled();

        assertThat(blocks).hasSize(18);
        assertThat(blocks).filteredOn(b -> b.rate() == 8).hasSize(12);
        ReferenceBlock sglang = blocks.get(1);
        assertThat(sglang.engine()).isEqualTo("sglang");
        assertThat(sglang.flags()).containsExactly("--reasoning-parser=qwen3", "--context-length=32768");
        assertThat(sglang.metric("Mean Latency(s)")).isEqualTo(8.13);
        assertThatThrownBy(() -> sglang.metric("Mean Nonsense (ms)")).hasMessageContaining("Mean Nonsense (ms)");
    }

    @Test
    void fittingFromOtherConstantsLandsOnTheShippedOnesAndMatchesTheFitBlocks() {
        Constants shipped = Constants.current();
        Constants far = new Constants(shipped.vllm().withFitted(200_000, 5_000_000),
                shipped.sglang().withFitted(50_000, 5_000_000), 0.7);

        Calibration.Outcome outcome = calibration().run(far);

        Constants fitted = outcome.fitted();
        assertThat((double) fitted.vllm().sequenceNanos()).isCloseTo(shipped.vllm().sequenceNanos(), withPercentage(3));
        assertThat((double) fitted.vllm().frontendNanos()).isCloseTo(shipped.vllm().frontendNanos(), withPercentage(3));
        assertThat((double) fitted.sglang().sequenceNanos()).isCloseTo(shipped.sglang().sequenceNanos(), withPercentage(3));
        assertThat((double) fitted.sglang().frontendNanos()).isCloseTo(shipped.sglang().frontendNanos(), withPercentage(3));
        assertThat(fitted.mtpAcceptance()).isCloseTo(shipped.mtpAcceptance(), withPercentage(5));
        List<BlockOutcome> fit = outcome.blocks().stream().filter(b -> b.role() == Role.FIT).toList();
        assertThat(fit).extracting(b -> b.block().variant()).containsExactly("baseline", "baseline", "mtp-1");
        assertThat(fit.subList(0, 2)).allSatisfy(b -> {
            assertThat(Math.abs(b.error(Figure.MEAN_LATENCY))).isLessThan(0.01);
            assertThat(Math.abs(b.error(Figure.MEAN_TTFT))).isLessThan(0.02);
        });
        // the MTP block is fitted on its time after the first token: mean latency (s) less mean TTFT (ms)
        BlockOutcome mtp = fit.get(2);
        double reference = mtp.block().metric(Figure.MEAN_LATENCY.reference)
                - mtp.block().metric(Figure.MEAN_TTFT.reference) / 1000;
        double twin = mtp.twin().get(Figure.MEAN_LATENCY) - mtp.twin().get(Figure.MEAN_TTFT) / 1000;
        assertThat(twin / reference - 1).isCloseTo(0, within(0.01));
    }

    @Test
    void heldOutBlocksArePredictedWithoutRefittingAndTheTablePrintsEveryBlock() {
        List<BlockOutcome> predicted = calibration().predict(Constants.current());

        List<BlockOutcome> heldOut = predicted.stream().filter(b -> b.role() == Role.HELD_OUT).toList();
        assertThat(heldOut).hasSize(6).allSatisfy(b -> assertThat(b.block().rate()).isNotEqualTo(8));
        // docs/simulated-engine.md's figures: every held-out mean latency within the target of 15% (the recommended
        // configuration at 1 req/s, the largest, +14.9%)
        assertThat(heldOut).allSatisfy(b -> assertThat(Math.abs(b.error(Figure.MEAN_LATENCY))).as(b.block().label())
                .isLessThan(0.15));
        StringWriter text = new StringWriter();
        CalibrationReport.write(new PrintWriter(text), Constants.current(), Constants.current(), predicted);
        assertThat(text.toString()).contains("| rate-16/baseline vllm | 16.0 | held out | 4.37 / ")
                .contains("## Errors against the fidelity targets");
    }

    @Test
    void aReferenceFileWithoutTrialsIsRejectedNamingTheFile(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve("results.json");
        Files.writeString(file, "{\"blocks\": []}");

        assertThatThrownBy(() -> ReferenceBlock.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("\"trials\"");
    }
}
