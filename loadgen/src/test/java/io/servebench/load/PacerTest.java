package io.servebench.load;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pacer on a simulated clock: each read of it takes 1 us (so a learned overshoot is 1 us over the
 * park's), each park overshoots as told.
 */
class PacerTest {

    private static final long US = 1_000;
    private static final long GAP_NS = 2_000 * US;

    private static final class FakeTime {
        long now;
        long overshootNs;
        /** Every this many parks, one overshoots by {@link #longOvershootNs} instead; 0 for never. */
        int longEvery;
        long longOvershootNs;
        long parks;
        long parkedNs;

        long read() {
            now += US;
            return now;
        }

        void park(long ns) {
            parks++;
            long over = longEvery > 0 && parks % longEvery == 0 ? longOvershootNs : overshootNs;
            now += ns + over;
            parkedNs += ns + over;
        }
    }

    /** What pacing some sends looked like. */
    private record Paced(long worstLateNs, double spinShare) {
    }

    private static Paced pace(FakeTime t, Pacer pacer, int sends) {
        long start = t.now;
        long parkedBefore = t.parkedNs;
        long target = t.now;
        long worstLate = 0;
        for (int i = 0; i < sends; i++) {
            target += GAP_NS;
            pacer.waitUntil(target);
            worstLate = Math.max(worstLate, t.now - target);
        }
        long elapsed = t.now - start;
        return new Paced(worstLate, (double) (elapsed - (t.parkedNs - parkedBefore)) / elapsed);
    }

    @Test
    void withParksThatOvershootLittleTheSendsAreOnTimeToAMicrosecondAndTheSpinIsShort() {
        FakeTime t = new FakeTime();
        t.overshootNs = 80 * US;
        Pacer pacer = new Pacer(t::read, t::park);

        Paced first = pace(t, pacer, 64);
        Paced later = pace(t, pacer, 1000);

        assertThat(first.worstLateNs()).isLessThanOrEqualTo(US);
        assertThat(later.worstLateNs()).isLessThanOrEqualTo(US);
        assertThat(pacer.spinNs()).isEqualTo(101 * US);
        // woken 20 us (the margin) ahead, it spins 1% of the time
        assertThat(later.spinShare()).isLessThan(0.02);
    }

    @Test
    void oneLongDescheduledParkDoesNotWidenTheSpin() {
        FakeTime t = new FakeTime();
        t.overshootNs = 80 * US;
        Pacer pacer = new Pacer(t::read, t::park);
        pace(t, pacer, 64);

        t.overshootNs = 1_500 * US;
        pace(t, pacer, 1);
        t.overshootNs = 80 * US;
        Paced after = pace(t, pacer, 1);

        assertThat(pacer.spinNs()).isEqualTo(101 * US);
        assertThat(after.worstLateNs()).isLessThanOrEqualTo(US);
    }

    @Test
    void whenManyParksOvershootByMostOfTheGapTheSenderSpinsAQuarterOfTheTimeAtMost() {
        FakeTime t = new FakeTime();
        t.overshootNs = 80 * US;
        t.longEvery = 5;
        t.longOvershootNs = 1_500 * US;
        Pacer pacer = new Pacer(t::read, t::park);
        pace(t, pacer, 64);

        Paced loaded = pace(t, pacer, 1000);

        // the window covers the long overshoots; spinning all of it ahead of each send would take 70% of a
        // core, as the pacer did before it was bounded
        assertThat(pacer.spinNs()).isEqualTo(1_521 * US);
        assertThat(loaded.spinShare()).isBetween(0.10, 0.25);
        assertThat(loaded.worstLateNs()).isGreaterThan(1_000 * US);
    }
}
