package io.servebench.stats;

import io.servebench.results.HistogramBucket;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The bootstrap's guide table finds, for every rank, the bucket a binary search on the cumulative counts finds. */
class SamplerBucketTest {

    @Test
    void everyRankLandsInTheBucketABinarySearchFinds() {
        SplittableRandom random = new SplittableRandom(7);
        for (int histogram = 0; histogram < 200; histogram++) {
            List<HistogramBucket> buckets = new ArrayList<>();
            int size = 1 + random.nextInt(60);
            for (int i = 0; i < size; i++) {
                // skewed counts: most buckets small, some holding most of the samples
                long count = random.nextInt(10) == 0 ? 1 + random.nextInt(5000) : 1 + random.nextInt(4);
                buckets.add(new HistogramBucket(i + 1, count));
            }
            RatioEstimate.Sampler sampler = RatioEstimate.Sampler.of(buckets, "A");
            long[] cumulative = new long[size];
            long total = 0;
            for (int i = 0; i < size; i++) {
                total += buckets.get(i).count();
                cumulative[i] = total;
            }
            for (long rank = 1; rank <= total; rank++) {
                int found = Arrays.binarySearch(cumulative, rank);
                assertThat(sampler.bucket(rank)).as("histogram %d, rank %d of %d", histogram, rank, total)
                        .isEqualTo(found >= 0 ? found : -found - 1);
            }
        }
    }
}
