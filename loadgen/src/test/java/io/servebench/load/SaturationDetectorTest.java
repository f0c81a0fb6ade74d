package io.servebench.load;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The over-saturation rule on made-up servers whose queues are known: one that keeps up, one whose queue grows by a
 * request every second, one that drifts slightly.
 */
class SaturationDetectorTest {

    private static final long S = 1_000_000_000L;

    private static RequestRecord done(long id, long sentNs, long ttftNs, long doneNs) {
        return new RequestRecord(id, false, sentNs, sentNs, sentNs + ttftNs, sentNs + ttftNs, doneNs, doneNs, 100, 10,
                TokenSource.USAGE, new long[] {sentNs + ttftNs}, new int[] {10}, TokenSource.USAGE, 1, 0, 200, null);
    }

    /**
     * A load of {@code seconds} at 10 requests a second, each taking 2 s plus its wait in a queue that grows by
     * {@code growth} requests a second (TTFT = queue / 10 req/s), with noise of ±20 ms.
     *
     * @return the second at which the detector first said so, or -1
     */
    private static double run(SaturationDetector d, int seconds, double growth) {
        Random noise = new Random(7);
        java.util.PriorityQueue<long[]> inFlight = new java.util.PriorityQueue<>(java.util.Comparator.comparingLong(r -> r[0]));
        long id = 0;
        for (long t = 0; t < seconds * S; t += S / 10) {
            while (!inFlight.isEmpty() && inFlight.peek()[0] <= t) {
                long[] r = inFlight.poll();
                d.onComplete(done(r[1], r[2], r[3], r[0]));
                if (d.verdict().isPresent()) {
                    return r[0] / 1e9;
                }
            }
            long wait = Math.round(growth * (t / 1e9) / 10 * S) + (long) (noise.nextGaussian() * 0.02 * S);
            long ttft = Math.max(S / 20, S / 10 + wait);
            d.onSend(id);
            inFlight.add(new long[] {t + ttft + 2 * S, id++, t, ttft});
        }
        return -1;
    }

    @Test
    void aServerThatKeepsUpIsNeverOverSaturated() {
        SaturationDetector d = new SaturationDetector(20 * S);
        assertThat(run(d, 300, 0)).isEqualTo(-1);
        assertThat(d.verdict()).isEmpty();
    }

    @Test
    void aQueueThatKeepsGrowingStopsTheLoadAboutAWindowIn() {
        SaturationDetector d = new SaturationDetector(20 * S);
        double at = run(d, 300, 1.0);
        // the first completions come after 2 s; a window of them must have been seen
        assertThat(at).isBetween(22.0, 30.0);
        assertThat(d.verdict().orElseThrow()).startsWith("over-saturated: over the last 20.0 s, TTFT rose")
                .contains("both slopes above 0 at 95% and by a quarter of their mean or more");
    }

    @Test
    void aSlightSignificantDriftIsNotSaturation() {
        // a queue growing by 0.025 requests a second: TTFT rises 0.05 s across a 20 s window, less than a quarter of
        // its mean there (0.25 s and more): a drift, not a server falling behind
        SaturationDetector d = new SaturationDetector(20 * S);
        assertThat(run(d, 120, 0.025)).isEqualTo(-1);
    }
}
