package io.servebench.microbenchmarks;

import io.servebench.results.HistogramBucket;
import io.servebench.stats.RatioEstimate;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One comparison's bootstrap ({@link RatioEstimate#bootstrap}, 2,000 resamples) on two per-request histograms of
 * {@code samples} values each, log-normal around 2 s and 2.1 s and kept to 3 significant digits as the results keep
 * them: 1,000 is a block's requests (its latencies), 100,000 its tokens (its ITL). Scores are milliseconds per
 * comparison; a report computes one per metric and variant.
 *
 * <p>{@code java -jar microbenchmarks/target/microbenchmarks.jar Bootstrap -f 1 -wi 2 -i 3}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class BootstrapBenchmark {

    @Param({"1000", "100000"})
    public int samples;

    private List<HistogramBucket> a;
    private List<HistogramBucket> b;

    @Setup(Level.Trial)
    public void setUp() {
        a = histogram(samples, 2.0, 1);
        b = histogram(samples, 2.1, 2);
    }

    private static List<HistogramBucket> histogram(int n, double median, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Map<Double, Long> counts = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            double value = median * Math.exp(0.4 * gaussian(random));
            double unit = Math.pow(10, Math.floor(Math.log10(value)) - 2);
            counts.merge(Math.round(value / unit) * unit, 1L, Long::sum);
        }
        List<HistogramBucket> buckets = new ArrayList<>();
        counts.forEach((v, c) -> buckets.add(new HistogramBucket(v, c)));
        return buckets;
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller: SplittableRandom has no nextGaussian on Java 17
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    @Benchmark
    public RatioEstimate bootstrap() {
        return RatioEstimate.bootstrap(a, 2.0, b, 2.1, RatioEstimate.DEFAULT_RESAMPLES, 42, 0.95);
    }
}
