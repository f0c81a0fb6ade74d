package io.servebench.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Gamma, throughput, ramp-up and capped schedules. */
class ArrivalProfileShapesTest {

    private static double[] gapsSeconds(long[] offsets) {
        double[] gaps = new double[offsets.length - 1];
        for (int i = 1; i < offsets.length; i++) {
            gaps[i - 1] = (offsets[i] - offsets[i - 1]) / 1e9;
        }
        return gaps;
    }

    @ParameterizedTest(name = "rate {0}, burstiness {1}")
    @CsvSource({"4, 0.25", "4, 1", "10, 4", "2, 0.7"})
    void gammaGapsHaveMeanOneOverRateAndCoefficientOfVariationOneOverSqrtBurstiness(double rate, double burstiness) {
        long[] offsets = new ArrivalProfile.Gamma(rate, burstiness, 3).offsetsNs(40_001);
        double[] gaps = gapsSeconds(offsets);
        assertThat(Arrays.stream(gaps).min().orElseThrow()).isGreaterThanOrEqualTo(0);
        double mean = Arrays.stream(gaps).average().orElseThrow();
        double sd = Math.sqrt(Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).sum() / (gaps.length - 1));
        double cv = 1 / Math.sqrt(burstiness);
        // standard error of the mean: cv/rate/sqrt(40000) = at most 1% of the mean for cv 2; 4 of them allowed
        assertThat(mean).isCloseTo(1 / rate, within(0.04 / rate));
        assertThat(sd / mean).isCloseTo(cv, within(0.06 * cv));
    }

    @Test
    void gammaIsSeededAndPrefixStable() {
        ArrivalProfile.Gamma g = new ArrivalProfile.Gamma(5, 0.5, 9);
        long[] longer = g.offsetsNs(200);
        assertThat(g.offsetsNs(100)).isEqualTo(Arrays.copyOf(longer, 100));
        assertThat(new ArrivalProfile.Gamma(5, 0.5, 10).offsetsNs(100)).isNotEqualTo(g.offsetsNs(100));
        assertThat(longer[0]).isZero();
    }

    @Test
    void throughputSendsEverythingAtTheStart() {
        assertThat(new ArrivalProfile.Throughput().offsetsNs(50)).containsOnly(0L).hasSize(50);
    }

    @Test
    void rampUpOfAConstantRatePutsRequestIWhereTheIntegratedRateReachesI() {
        double rate = 10;
        double rampSeconds = 4;
        long[] offsets = new ArrivalProfile.RampUp(new ArrivalProfile.Constant(rate), rampSeconds).offsetsNs(100);
        for (int i = 0; i < offsets.length; i++) {
            double t = offsets[i] / 1e9;
            double integrated = t <= rampSeconds ? rate * t * t / (2 * rampSeconds) : rate * (t - rampSeconds / 2);
            assertThat(integrated).as("Λ(t_%d)", i).isCloseTo(i, within(1e-6));
        }
        // after the ramp the gaps are the steady 1/rate
        assertThat(offsets[99] - offsets[98]).isEqualTo(100_000_000L);
        // during it they shrink: the first gap is the longest
        assertThat(offsets[1] - offsets[0]).isGreaterThan(offsets[2] - offsets[1]);
    }

    @Test
    void rampUpOfPoissonKeepsTheSteadyRateAfterTheRamp() {
        long[] offsets = new ArrivalProfile.RampUp(new ArrivalProfile.Poisson(50, 1), 2).offsetsNs(20_000);
        long afterRamp = Arrays.stream(offsets).filter(o -> o >= 2_000_000_000L).count();
        double steadySeconds = (offsets[offsets.length - 1] - 2e9) / 1e9;
        assertThat(afterRamp / steadySeconds).isCloseTo(50, within(2.0));
        // the ramp carries R·T/2 = 50 requests on average
        assertThat(offsets.length - afterRamp).isBetween(25L, 75L);
    }

    @Test
    void aCapKeepsItsScheduleAndSizesTheConnectionPool() {
        ArrivalProfile.Capped capped = new ArrivalProfile.Capped(new ArrivalProfile.Constant(8), 3);
        assertThat(capped.offsetsNs(10)).isEqualTo(new ArrivalProfile.Constant(8).offsetsNs(10));
        assertThat(LoadParams.of(capped).maxInFlight()).isEqualTo(3);
        assertThat(LoadParams.of(new ArrivalProfile.Synchronous()).maxInFlight()).isEqualTo(1);
    }

    @Test
    void invalidShapesAreRejectedWithTheValue() {
        assertThatThrownBy(() -> new ArrivalProfile.Gamma(1, 0, 1)).hasMessageContaining("burstiness").hasMessageContaining("got 0.0");
        assertThatThrownBy(() -> new ArrivalProfile.RampUp(new ArrivalProfile.Constant(1), -2)).hasMessageContaining("got -2.0");
        assertThatThrownBy(() -> new ArrivalProfile.Capped(new ArrivalProfile.Throughput(), 0)).hasMessageContaining("got 0");
        ArrivalProfile.Capped once = new ArrivalProfile.Capped(new ArrivalProfile.Throughput(), 2);
        assertThatThrownBy(() -> new ArrivalProfile.Capped(once, 2)).hasMessageContaining("already capped");
        assertThatThrownBy(() -> LoadParams.of(new ArrivalProfile.Throughput()).withWarmupTime(java.time.Duration.ofSeconds(1)))
                .hasMessageContaining("warm-up time");
    }
}
