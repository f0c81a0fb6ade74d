package io.servebench.tuning;

import io.servebench.results.CapacityResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The capacity search on a scripted configuration whose SLO attainment is known at every rate. */
class CapacitySearchTest {

    /** All 1,000 requests meet the SLOs up to 12 req/s; then the share falls linearly, to half at 24 req/s. */
    private static CapacitySearch.Attained scripted(double rate) {
        double share = rate <= 12 ? 1 : Math.max(0, 1 - 0.5 * (rate - 12) / 12);
        return new CapacitySearch.Attained(Math.round(share * 1000), 1000, share * rate);
    }

    @Test
    void bracketsThenBisectsToTheHighestRateThatMeetsTheTargetWithAnInterval() {
        List<Double> probed = new ArrayList<>();
        CapacityResult r = new CapacitySearch(0.99, 0.1, 12).search("S.v", "e2e=3000", CapacityResult.Axis.RATE, 8, rate -> {
            probed.add(rate);
            return scripted(rate);
        });
        // 8 meets, 16 misses; then sqrt(8*16) = 11.3 meets, 13.4 misses, 12.3 misses (98.75%): within 10%
        assertThat(probed).containsExactly(8.0, 16.0, 11.3, 13.4, 12.3);
        assertThat(r.capacity()).isEqualTo(11.3);
        CapacityResult.Probe above = r.probes().stream().filter(p -> p.load() > r.capacity()).findFirst().orElseThrow();
        assertThat(above.share()).isLessThan(0.99);
        assertThat(r.probes().stream().filter(p -> p.load() == r.capacity()).findFirst().orElseThrow().share())
                .isGreaterThanOrEqualTo(0.99);
        // 12.3 req/s missed by 0.25%, which 1,000 requests cannot tell from noise; 13.4 missed beyond doubt
        assertThat(r.low()).isEqualTo(11.3);
        assertThat(r.high()).isEqualTo(13.4);
        assertThat(r.probes()).extracting(CapacityResult.Probe::load).isSorted();
    }

    @Test
    void aStartAboveTheCapacityHalvesAndOneThatNeverMeetsSaysZero() {
        CapacityResult halving = new CapacitySearch(0.99, 0.1, 12).search("S.v", "e2e=3000", CapacityResult.Axis.RATE, 40, CapacitySearchTest::scripted);
        assertThat(halving.probes().get(0).load()).isLessThan(40);
        assertThat(halving.capacity()).isBetween(11.0, 12.3);

        CapacityResult never = new CapacitySearch(0.99, 0.1, 12).search("S.v", "ttft=1", CapacityResult.Axis.RATE, 1,
                rate -> new CapacitySearch.Attained(0, 100, 0));
        assertThat(never.capacity()).isZero();
        assertThat(never.low()).isZero();
        assertThat(never.probes()).hasSize(CapacitySearch.MAX_BRACKET_STEPS + 1);

        // a server that meets the target at every rate the doubling reaches: its capacity is only a lower bound
        CapacityResult always = new CapacitySearch(0.99, 0.1, 12).search("S.v", "ttft=200", CapacityResult.Axis.RATE, 2,
                rate -> new CapacitySearch.Attained(100, 100, rate));
        assertThat(always.probes()).hasSize(CapacitySearch.MAX_BRACKET_STEPS + 1);
        assertThat(always.unbounded()).isTrue();
        assertThat(always.describe()).isEqualTo("S.v at least 512 req/s: every rate tried met the target, so its capacity"
                + " is above what the search reached (declare a higher rate to search from)");
        assertThat(halving.unbounded()).isFalse();
    }

    @Test
    void aTrialThatFailsBelowEveryRateTriedEndsTheSearchAndOneAboveIsAMiss() {
        // a server that answers every request with an error: halving would only fail more slowly
        List<Double> probed = new ArrayList<>();
        CapacityResult broken = new CapacitySearch(0.99, 0.1, 12).search("S.v", "ttft=500", CapacityResult.Axis.RATE, 2, rate -> {
            probed.add(rate);
            return new CapacitySearch.Attained(0, 10, 0, "every measured request failed (10 of 10): http_500 x10");
        });
        assertThat(probed).containsExactly(2.0);
        assertThat(broken.capacity()).isZero();
        assertThat(broken.stoppedBy()).hasValueSatisfying(p -> assertThat(p.load()).isEqualTo(2.0));
        assertThat(broken.describe()).isEqualTo("S.v none found: the trial at 2.00 req/s failed, so no lower rate was tried");

        // an engine that dies under load above its capacity: the failure brackets it like any miss
        List<Double> bisected = new ArrayList<>();
        CapacityResult crashing = new CapacitySearch(0.99, 0.1, 12).search("S.v", "e2e=3000", CapacityResult.Axis.RATE, 8, rate -> {
            bisected.add(rate);
            return rate > 12 ? new CapacitySearch.Attained(0, 1000, 0, "engine exited with code 1 during the trial")
                    : scripted(rate);
        });
        assertThat(bisected).containsExactly(8.0, 16.0, 11.3, 13.4, 12.3);
        assertThat(crashing.capacity()).isEqualTo(11.3);
        assertThat(crashing.stoppedBy()).isEmpty();
        assertThat(crashing.describe()).isEqualTo("S.v 11.3 req/s");

        // one that never meets the target but never fails halves to the end, and says how far down it went
        CapacityResult never = new CapacitySearch(0.99, 0.1, 12).search("S.v", "ttft=1", CapacityResult.Axis.RATE, 1,
                rate -> new CapacitySearch.Attained(0, 100, 0));
        assertThat(never.stoppedBy()).isEmpty();
        assertThat(never.describe()).isEqualTo("S.v none found: no rate tried, down to 0.00391 req/s, met the target;"
                + " there 0 of 100 requests met ttft=1, where 99% had to: a bound the server misses even with almost no"
                + " load");
        // some met it, too few
        CapacityResult few = new CapacitySearch(0.99, 0.1, 12).search("S.v", "ttft=100", CapacityResult.Axis.RATE, 1,
                rate -> new CapacitySearch.Attained(90, 100, 0));
        assertThat(few.describe()).endsWith("there 90 of 100 requests met ttft=100, where 99% had to");
    }

    @Test
    void aProbeWhoseAttainmentCouldNotBeMeasuredIsAFailureNotAMiss() {
        // 10 requests measured, but the attainment left out (an ITL bound the events could not judge): counting none as
        // met would put the capacity below every rate tried
        io.servebench.results.RepetitionResult judged = new io.servebench.results.RepetitionResult(java.util.Map.of(
                io.servebench.measure.Metric.SUCCESSFUL_REQUESTS.id(), 10.0, io.servebench.measure.Metric.FAILED_REQUESTS.id(),
                0.0), java.util.Map.of(), 30, 0, java.util.Map.of(), java.util.Map.of());
        io.servebench.results.BlockResult block = new io.servebench.results.BlockResult("S.v", "S", "v", "", true,
                java.util.Map.of("rate", "8", "requests", "10"), "t01", "s", List.of(judged), null);
        CapacitySearch.Attained attained = CapacitySearch.attained(block);
        assertThat(attained.failure()).isEqualTo("its SLO attainment could not be measured (the block's notes say why)");
        assertThat(attained.total()).isEqualTo(10);
    }

    /**
     * Over a closed loop's streams every load probed is a whole number of streams, at least one, and the search stops
     * at neighbouring numbers, between which nothing lies.
     */
    @Test
    void overStreamsEveryProbeIsAWholeNumberAndTheSearchEndsAtNeighbours() {
        // a server that keeps 99% of requests within its SLOs up to 23 streams, and 98% at 24
        List<Double> probed = new ArrayList<>();
        CapacityResult r = new CapacitySearch(0.99, 0.01, 12).search("S.v", "ttft=200", CapacityResult.Axis.CONCURRENCY, 10,
                streams -> {
                    probed.add(streams);
                    return new CapacitySearch.Attained(streams <= 23 ? 1000 : 980, 1000, streams);
                });
        // 10, 20 meet, 40 misses; then 28 misses, 24 misses, 22 meets, 23 meets: neighbours of 24
        assertThat(probed).containsExactly(10.0, 20.0, 40.0, 28.0, 24.0, 22.0, 23.0);
        assertThat(r.capacity()).isEqualTo(23);
        assertThat(r.axis()).isEqualTo(CapacityResult.Axis.CONCURRENCY);
        assertThat(r.describe()).isEqualTo("S.v 23 streams");
        // one stream that misses is the least a closed loop sends: no halving below it
        List<Double> low = new ArrayList<>();
        CapacityResult none = new CapacitySearch(0.99, 0.1, 12).search("S.v", "ttft=1", CapacityResult.Axis.CONCURRENCY, 4,
                streams -> {
                    low.add(streams);
                    return new CapacitySearch.Attained(0, 100, 0);
                });
        assertThat(low).containsExactly(4.0, 2.0, 1.0);
        assertThat(none.capacity()).isZero();
        assertThat(none.describe()).startsWith("S.v none found: no concurrency tried, down to 1 stream, met the target");
    }

    @Test
    void wilsonIntervalsMatchPublishedValues() {
        // 95% Wilson interval for 990 of 1000: 0.9817 to 0.9946 (z = 1.96)
        double[] w = CapacitySearch.wilson(990, 1000);
        assertThat(w[0]).isCloseTo(0.98168, within(1e-4));
        assertThat(w[1]).isCloseTo(0.99458, within(1e-4));
        assertThat(CapacitySearch.wilson(10, 10)[1]).isCloseTo(1.0, within(1e-12));
        assertThat(CapacitySearch.wilson(10, 10)[0]).isCloseTo(0.7225, within(1e-4));
    }
}
