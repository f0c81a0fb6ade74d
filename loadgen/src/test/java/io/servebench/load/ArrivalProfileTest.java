package io.servebench.load;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ArrivalProfileTest {

    @Test
    void constantRateTimesAreExactlyEvenlySpacedFromZero() {
        long[] offsets = new ArrivalProfile.Constant(8).offsetsNs(1000);
        assertThat(offsets[0]).isZero();
        for (int i = 1; i < offsets.length; i++) {
            assertThat(offsets[i] - offsets[i - 1]).isEqualTo(125_000_000L);
        }
    }

    @Test
    void constantRateDoesNotDriftWhenTheGapIsNotAWholeNanosecond() {
        long[] offsets = new ArrivalProfile.Constant(3).offsetsNs(3001);
        assertThat(offsets[3000]).isEqualTo(1_000_000_000_000L);
        for (int i = 1; i < offsets.length; i++) {
            assertThat(offsets[i] - offsets[i - 1]).isBetween(333_333_333L, 333_333_334L);
        }
    }

    @Test
    void poissonIsDeterministicForASeedAndDiffersAcrossSeeds() {
        long[] a = new ArrivalProfile.Poisson(10, 42).offsetsNs(500);
        long[] b = new ArrivalProfile.Poisson(10, 42).offsetsNs(500);
        long[] c = new ArrivalProfile.Poisson(10, 43).offsetsNs(500);
        assertThat(a).isEqualTo(b);
        assertThat(Arrays.equals(a, c)).isFalse();
        assertThat(a[0]).isZero();
    }

    @Test
    void poissonGapsAreExponentialWithTheRequestedMean() {
        int n = 20_001;
        long[] offsets = new ArrivalProfile.Poisson(4, 7).offsetsNs(n);
        double[] gaps = new double[n - 1];
        for (int i = 1; i < n; i++) {
            gaps[i - 1] = (offsets[i] - offsets[i - 1]) / 1e9;
            assertThat(gaps[i - 1]).isGreaterThanOrEqualTo(0);
        }
        double mean = Arrays.stream(gaps).average().orElseThrow();
        double sd = Math.sqrt(Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).sum() / (gaps.length - 1));
        // exponential: sd equals the mean; the standard error of the mean is 0.25/sqrt(20000) ≈ 0.0018
        assertThat(mean).isCloseTo(0.25, within(0.01));
        assertThat(sd).isCloseTo(0.25, within(0.02));
    }

    @Test
    void invalidParametersAreRejectedWithTheValue() {
        assertThatThrownBy(() -> new ArrivalProfile.Constant(0)).hasMessageContaining("got 0.0");
        assertThatThrownBy(() -> new ArrivalProfile.Poisson(Double.NaN, 1)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> new ArrivalProfile.Constant(Double.POSITIVE_INFINITY)).hasMessageContaining("Infinity");
        assertThatThrownBy(() -> new ArrivalProfile.Concurrent(0)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> new ArrivalProfile.Constant(1).offsetsNs(-1)).hasMessageContaining("-1");
    }

    @Test
    void eachProfileSaysHowManyRequestsItKeepsInFlightItself() {
        ArrivalProfile.Constant rate = new ArrivalProfile.Constant(10);
        assertThat(new ArrivalProfile.Concurrent(5).maxInFlight()).isEqualTo(5);
        assertThat(new ArrivalProfile.Synchronous().maxInFlight()).isEqualTo(1);
        assertThat(rate.maxInFlight()).as("an open loop leaves it to the schedule").isZero();
        assertThat(new ArrivalProfile.Throughput().maxInFlight()).isZero();
        ArrivalProfile.Capped capped = new ArrivalProfile.Capped(rate, 3);
        assertThat(capped.maxInFlight()).isEqualTo(3);
        assertThat(capped.uncapped()).isSameAs(rate);
        assertThat(rate.uncapped()).isSameAs(rate);
    }
}
