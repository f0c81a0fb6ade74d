package io.servebench.results;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SweepStepTest {

    @Test
    void stepsAreNumberedPaddedToTheWidestAndNameTheirProfile() {
        assertThat(SweepStep.name(0, 5)).isEqualTo("s1-synchronous");
        assertThat(SweepStep.name(1, 5)).isEqualTo("s2-throughput");
        assertThat(SweepStep.name(4, 5)).isEqualTo("s5-constant");
        // twelve steps: s01 to s12, so that the names sort as the steps ran
        assertThat(SweepStep.name(0, 12)).isEqualTo("s01-synchronous");
        assertThat(SweepStep.name(11, 12)).isEqualTo("s12-constant");
    }

    @Test
    void aStepsNameGivesBackItsProfileAndAnyOtherNameNone() {
        assertThat(SweepStep.profile("s2-throughput")).contains("throughput");
        assertThat(SweepStep.profile("s01-synchronous")).contains("synchronous");
        assertThat(SweepStep.profile("throughput")).isEmpty();
        assertThat(SweepStep.profile("x-constant")).isEmpty();
    }
}
