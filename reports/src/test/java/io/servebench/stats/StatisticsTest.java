package io.servebench.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StatisticsTest {

    @Test
    void studentTQuantilesMatchTables() {
        // scipy.stats.t.ppf
        assertThat(Statistics.studentTQuantile(0.9995, 2)).isCloseTo(31.599054576, within(1e-6));
        assertThat(Statistics.studentTQuantile(0.9995, 9)).isCloseTo(4.780912585, within(1e-6));
        assertThat(Statistics.studentTQuantile(0.975, 30)).isCloseTo(2.042272456, within(1e-6));
        assertThat(Statistics.studentTQuantile(0.025, 30)).isCloseTo(-2.042272456, within(1e-6));
    }

    @Test
    void studentTCdf() {
        assertThat(Statistics.studentTCdf(0, 5)).isCloseTo(0.5, within(1e-12));
        assertThat(Statistics.studentTCdf(1.0, 1)).isCloseTo(0.75, within(1e-12)); // Cauchy
        assertThat(Statistics.studentTCdf(-2.5, 1000)).isCloseTo(0.006290, within(1e-5));
    }

    @Test
    void scoreErrorIsNaNForTwoOrFewerValues() {
        assertThat(Statistics.scoreError(new double[] {1, 2})).isNaN();
        assertThat(Statistics.scoreError(new double[] {1})).isNaN();
        assertThat(Statistics.scoreError(new double[] {1, 2, 3})).isCloseTo(31.599054576 / Math.sqrt(3), within(1e-6));
    }

    @Test
    void welchMatchesScipy() {
        // scipy.stats.ttest_ind_from_stats(2.62, 0.02, 3, 2.69, 0.01, 3, equal_var=False) → t = 5.4222 (sign: 2 − 1), p = 0.0129527
        Statistics.Welch w = Statistics.welch(2.62, 0.02, 3, 2.69, 0.01, 3);
        assertThat(w.t()).isCloseTo(5.4222, within(1e-4));
        assertThat(w.df()).isCloseTo(2.9412, within(1e-4));
        assertThat(w.p()).isCloseTo(0.0129527, within(1e-6));
        assertThat(w.significantAt(0.95)).isTrue();
        assertThat(w.significantAt(0.99)).isFalse();
    }

    @Test
    void welchOnConstantSamples() {
        assertThat(Statistics.welch(1, 0, 5, 1, 0, 5).p()).isEqualTo(1.0);
        assertThat(Statistics.welch(1, 0, 5, 2, 0, 5).p()).isEqualTo(0.0);
    }
}
