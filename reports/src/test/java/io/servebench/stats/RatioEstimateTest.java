package io.servebench.stats;

import io.servebench.results.HistogramBucket;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RatioEstimateTest {

    @Test
    void repetitionIntervalMatchesScipy() {
        // ua = ub = 1/12, se = sqrt(1/6), df = 4, t(0.975, 4) = 2.776445 (scipy.stats.t.ppf); 2·exp(∓t·se)
        RatioEstimate r = RatioEstimate.ofRepetitions(new double[] {1, 2, 3}, new double[] {2, 4, 6}, 0.95);
        assertThat(r.ratio()).isEqualTo(2.0);
        assertThat(r.low()).isCloseTo(0.643823, within(1e-5));
        assertThat(r.high()).isCloseTo(6.212890, within(1e-5));
        assertThat(r.p()).isCloseTo(0.164768, within(1e-5));
        assertThat(r.significant()).isFalse();
    }

    @Test
    void referenceLikeRepetitionsAreSignificant() {
        RatioEstimate r = RatioEstimate.ofRepetitions(new double[] {2.60, 2.62, 2.64}, new double[] {2.68, 2.69, 2.70}, 0.95);
        assertThat(r.ratio()).isCloseTo(1.026718, within(1e-6));
        assertThat(r.low()).isCloseTo(1.010506, within(1e-5));
        assertThat(r.high()).isCloseTo(1.043189, within(1e-5));
        assertThat(r.p()).isCloseTo(0.013746, within(1e-5));
        assertThat(r.significant()).isTrue();
        RatioEstimate inverse = r.inverted();
        assertThat(inverse.low()).isCloseTo(1 / 1.043189, within(1e-5));
        assertThat(inverse.high()).isCloseTo(1 / 1.010506, within(1e-5));
    }

    @Test
    void repetitionsWithoutSpreadMeasureNoNoiseAndGiveNoInterval() {
        assertThat(RatioEstimate.varies(new double[] {2, 2}, new double[] {3, 3})).isFalse();
        assertThat(RatioEstimate.varies(new double[] {2, 2}, new double[] {3, 3.1})).isTrue();
        assertThatThrownBy(() -> RatioEstimate.ofRepetitions(new double[] {2, 2}, new double[] {3, 3}, 0.95))
                .hasMessageContaining("neither side's values vary");
    }

    @Test
    void repetitionIntervalNeedsTwoValuesAndPositiveMeans() {
        assertThatThrownBy(() -> RatioEstimate.ofRepetitions(new double[] {1}, new double[] {1, 2}, 0.95))
                .hasMessageContaining("at least 2 values per side, got 1 and 2");
        assertThatThrownBy(() -> RatioEstimate.ofRepetitions(new double[] {-1, 0}, new double[] {1, 2}, 0.95))
                .hasMessageContaining("side A has mean -0.5");
    }

    /** 1000 samples in 100 equal buckets at the normal quantiles of mean {@code mean} and stdev {@code cv·mean}. */
    private static List<HistogramBucket> normalHistogram(double mean, double cv) {
        List<HistogramBucket> buckets = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            buckets.add(new HistogramBucket(mean * (1 + cv * inverseNormal((i + 0.5) / 100)), 10));
        }
        return buckets;
    }

    /** Φ⁻¹ by bisection on erf's series-free approximation through Statistics' t with huge df. */
    private static double inverseNormal(double p) {
        return Statistics.studentTQuantile(p, 1e7);
    }

    private static double relativeStdev(List<HistogramBucket> buckets) {
        double[] values = buckets.stream().flatMapToDouble(b -> java.util.stream.DoubleStream.generate(b::value)
                .limit(b.count())).toArray();
        return Statistics.stdev(values) / Statistics.mean(values);
    }

    @Test
    void bootstrapIntervalMatchesTheNormalApproximation() {
        List<HistogramBucket> a = normalHistogram(1.0, 0.3);
        List<HistogramBucket> b = normalHistogram(1.05, 0.3);
        RatioEstimate r = RatioEstimate.bootstrap(a, 1.0, b, 1.05, 2000, 7, 0.95);
        // large-sample half-width: 1.96 · ratio · sqrt(2 · cv² / 1000)
        double half = 1.959964 * 1.05 * Math.sqrt(2 * Math.pow(relativeStdev(a), 2) / 1000);
        assertThat(r.ratio()).isCloseTo(1.05, within(1e-12));
        assertThat(r.low()).isCloseTo(1.05 - half, within(0.15 * half));
        assertThat(r.high()).isCloseTo(1.05 + half, within(0.15 * half));
        assertThat(r.significant()).isTrue();
        assertThat(r.p()).isLessThan(0.01);
    }

    @Test
    void bootstrapOnIdenticalSidesFindsNoDifferenceAndIsSeeded() {
        List<HistogramBucket> a = normalHistogram(2.0, 0.5);
        RatioEstimate r = RatioEstimate.bootstrap(a, 2.0, a, 2.0, 1000, 3, 0.95);
        assertThat(r.low()).isLessThan(1);
        assertThat(r.high()).isGreaterThan(1);
        assertThat(r.significant()).isFalse();
        assertThat(r.p()).isGreaterThan(0.2);
        assertThat(RatioEstimate.bootstrap(a, 2.0, a, 2.0, 1000, 3, 0.95)).isEqualTo(r);
    }

    @Test
    void bootstrapRescalesBucketRoundingToTheExactMeans() {
        // buckets are the same, exact means differ by 1%: the interval is centred on the exact ratio
        List<HistogramBucket> a = normalHistogram(1.0, 0.01);
        RatioEstimate r = RatioEstimate.bootstrap(a, 1.0, a, 1.01, 1000, 3, 0.95);
        assertThat(r.ratio()).isCloseTo(1.01, within(1e-12));
        assertThat((r.low() + r.high()) / 2).isCloseTo(1.01, within(1e-3));
    }

    @Test
    void bootstrapRejectsEmptySides() {
        assertThatThrownBy(() -> RatioEstimate.bootstrap(List.of(), 1, normalHistogram(1, 0.1), 1, 1000, 1, 0.95))
                .hasMessageContaining("side A has no samples");
        assertThatThrownBy(() -> RatioEstimate.bootstrap(normalHistogram(1, 0.1), 1, normalHistogram(1, 0.1), 1, 10, 1, 0.95))
                .hasMessageContaining("at least 100 resamples, got 10");
    }

    /** Values 1, 2, ..., n times {@code scale}, one sample each. */
    private static List<HistogramBucket> ramp(int n, double scale) {
        List<HistogramBucket> buckets = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            buckets.add(new HistogramBucket(i * scale, 1));
        }
        return buckets;
    }

    @Test
    void aQuantileRatioIsTheRatioOfTheQuantilesWithAnIntervalAroundIt() {
        // P99 of 1..1000 is the 990th value, 990; of the same times 1.5 it is 1485
        RatioEstimate slower = RatioEstimate.bootstrapQuantile(ramp(1000, 1), ramp(1000, 1.5), 0.99, 500, 1, 0.95);
        assertThat(slower.ratio()).isCloseTo(1.5, within(1e-12));
        assertThat(slower.low()).isLessThan(1.5).isGreaterThan(1.0);
        assertThat(slower.high()).isGreaterThan(1.5);
        assertThat(slower.significant()).isTrue();

        RatioEstimate same = RatioEstimate.bootstrapQuantile(ramp(1000, 1), ramp(1000, 1), 0.9, 500, 1, 0.95);
        assertThat(same.ratio()).isEqualTo(1.0);
        assertThat(same.low()).isLessThan(1.0);
        assertThat(same.high()).isGreaterThan(1.0);
        assertThat(same.significant()).isFalse();
        assertThatThrownBy(() -> RatioEstimate.bootstrapQuantile(ramp(10, 1), ramp(10, 1), 1.0, 500, 1, 0.95))
                .hasMessageContaining("quantile 1.0");
    }
}
