package io.servebench.compare;

import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.Fixtures;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** A figure of each repetition (energy per token) is compared over the repetitions alone. */
class ComparisonOfFiguresTest {

    private static BlockResult block(String variant, double... joulesPerToken) {
        List<RepetitionResult> reps = Arrays.stream(joulesPerToken)
                .mapToObj(j -> Fixtures.repetition(2.6, 1.8).withScalar(Metric.ENERGY_PER_OUTPUT_TOKEN, j)).toList();
        return Fixtures.trial(variant, "g", "baseline".equals(variant), Fixtures.BASE_FLAGS, "8", reps);
    }

    @Test
    void repetitionsThatVaryAreTestedByTheirMeans() {
        Comparison c = Comparison.of(block("baseline", 0.70, 0.71, 0.69), block("small", 2.05, 2.07, 2.06),
                Metric.ENERGY_PER_OUTPUT_TOKEN);
        assertThat(c.method()).isEqualTo(Comparison.Method.REPETITION_MEANS);
        assertThat(c.ratio()).isCloseTo(2.06 / 0.70, within(1e-9));
        assertThat(c.slower()).isTrue();
        assertThat(c.significant()).isTrue();
        Comparison close = Comparison.of(block("baseline", 0.70, 0.75, 0.65), block("other", 0.71, 0.66, 0.76),
                Metric.ENERGY_PER_OUTPUT_TOKEN);
        assertThat(close.significant()).isFalse();
    }

    @Test
    void oneRepetitionOrNoSpreadGivesNoTestAndAMissingFigureIsNamed() {
        assertThat(Comparison.of(block("baseline", 0.70), block("small", 2.06), Metric.ENERGY_PER_OUTPUT_TOKEN).method())
                .isEqualTo(Comparison.Method.NONE);
        Comparison same = Comparison.of(block("baseline", 0.70, 0.70), block("small", 2.06, 2.06),
                Metric.ENERGY_PER_OUTPUT_TOKEN);
        assertThat(same.method()).isEqualTo(Comparison.Method.NONE);
        assertThat(same.significant()).isFalse();
        BlockResult none = Fixtures.trial("dark", "g", false, Fixtures.BASE_FLAGS, "8",
                List.of(Fixtures.repetition(2.6, 1.8)));
        assertThatThrownBy(() -> Comparison.of(block("baseline", 0.7), none, Metric.ENERGY_PER_OUTPUT_TOKEN))
                .hasMessageEndingWith("has no " + Metric.ENERGY_PER_OUTPUT_TOKEN.label() + " in any repetition");
    }
}
