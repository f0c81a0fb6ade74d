package io.servebench.metrics;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests' runs of events, merged: every event comes out once, in time order, as a sort of all of them gives. */
class EventRunsTest {

    @Test
    void eachEventTakenIsTheEarliestOfThoseWaitingWhateverOrderTheirRunsWereAddedIn() {
        Random random = new Random(7);
        for (int trial = 0; trial < 50; trial++) {
            EventRuns runs = new EventRuns();
            // the oracle: every waiting event in a plain list, its earliest found by a scan
            List<long[]> waiting = new ArrayList<>();
            int total = 0;
            int takenCount = 0;
            for (int r = 0; r < 1 + random.nextInt(300); r++) {
                int n = random.nextInt(12);
                long[] times = new long[n];
                int[] tokens = new int[n];
                long t = random.nextInt(10_000);
                for (int k = 0; k < n; k++) {
                    // events read together share a time
                    t += random.nextInt(4) == 0 ? 0 : random.nextInt(500);
                    times[k] = t;
                    tokens[k] = 1 + random.nextInt(3);
                    waiting.add(new long[] {t, tokens[k]});
                }
                runs.add(times, tokens);
                total += n;
                // take some between adds, as the watermark lets them go
                long watermark = random.nextInt(10_000);
                while (!runs.isEmpty() && runs.peekTime() < watermark) {
                    takenCount += take(runs, waiting);
                }
                assertThat(runs.size()).isEqualTo(total - takenCount).isEqualTo(waiting.size());
            }
            while (!runs.isEmpty()) {
                takenCount += take(runs, waiting);
            }
            assertThat(waiting).isEmpty();
            assertThat(runs.size()).isZero();
        }
    }

    /** Takes one event, which must be one of the earliest waiting (at its time, any of their tokens). */
    private static int take(EventRuns runs, List<long[]> waiting) {
        long earliest = waiting.stream().mapToLong(e -> e[0]).min().orElseThrow();
        assertThat(runs.peekTime()).isEqualTo(earliest);
        long[] found = waiting.stream().filter(e -> e[0] == earliest && e[1] == runs.peekTokens()).findFirst()
                .orElseThrow(() -> new AssertionError("no waiting event at " + earliest + " with " + runs.peekTokens()
                        + " tokens"));
        waiting.remove(found);
        runs.remove();
        return 1;
    }

    @Test
    void allAddedBeforeAnyIsTakenComeOutInTheOrderOfASort() {
        Random random = new Random(11);
        EventRuns runs = new EventRuns();
        List<Long> all = new ArrayList<>();
        for (int r = 0; r < 1000; r++) {
            int n = 1 + random.nextInt(20);
            long[] times = new long[n];
            long t = random.nextInt(1_000_000);
            for (int k = 0; k < n; k++) {
                t += random.nextInt(1000);
                times[k] = t;
                all.add(t);
            }
            int[] tokens = new int[n];
            Arrays.fill(tokens, 1);
            runs.add(times, tokens);
        }
        List<Long> taken = new ArrayList<>();
        while (!runs.isEmpty()) {
            taken.add(runs.peekTime());
            runs.remove();
        }
        all.sort(Long::compare);
        assertThat(taken).isEqualTo(all);
    }

    @Test
    void aRunWithoutEventsAddsNothing() {
        EventRuns runs = new EventRuns();
        runs.add(new long[0], new int[0]);
        assertThat(runs.isEmpty()).isTrue();
        assertThat(runs.size()).isZero();
    }
}
