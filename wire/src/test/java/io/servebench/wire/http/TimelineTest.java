package io.servebench.wire.http;

import io.netty.channel.EventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTest {

    private final EventLoops loops = new EventLoops("timeline-test", 1);
    private final EventLoop loop = loops.group().next();

    @AfterEach
    void stop() {
        loops.shutdown(1000);
    }

    @Test
    void tasksDueAtOneInstantRunTogetherInTheOrderScheduledOnTheLoopAndNotBeforeTheirInstant() throws Exception {
        Timeline timeline = new Timeline(loop);
        long at = System.nanoTime() + 30_000_000L;
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Long> ranAt = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(200);
        for (int i = 0; i < 200; i++) {
            int n = i;
            timeline.schedule(at, () -> {
                assertThat(loop.inEventLoop()).isTrue();
                order.add(n);
                ranAt.add(System.nanoTime());
                all.countDown();
            });
        }
        assertThat(all.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(order).isSorted().hasSize(200);
        assertThat(ranAt).allSatisfy(t -> assertThat(t - at).isNotNegative());
    }

    @Test
    void laterInstantsRunLaterAndAnInstantPassedAlreadyRunsAtOnce() throws Exception {
        Timeline timeline = new Timeline(loop);
        long now = System.nanoTime();
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(4);
        timeline.schedule(now + 40_000_000L, () -> { order.add("40 ms"); all.countDown(); });
        timeline.schedule(now + 20_000_000L, () -> { order.add("20 ms"); all.countDown(); });
        timeline.schedule(now - 5_000_000L, () -> { order.add("passed"); all.countDown(); });
        timeline.schedule(now + 40_000_000L, () -> { order.add("40 ms again"); all.countDown(); });
        assertThat(all.await(5, TimeUnit.SECONDS)).isTrue();
        // the second 40 ms task came after another instant: a batch of its own, after the first of its instant
        assertThat(order).containsExactly("passed", "20 ms", "40 ms", "40 ms again");
    }

    @Test
    void instantsScheduledInAnyOrderRunInDueOrderEachAtOrAfterItsInstant() throws Exception {
        Timeline timeline = new Timeline(loop);
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        long start = System.nanoTime();
        List<long[]> ran = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(300);
        for (int i = 0; i < 300; i++) {
            // 60 instants 200 to 260 ms ahead, most of them taken several times, in no order
            long at = start + (200 + random.nextLong(0, 60)) * 1_000_000L;
            int n = i;
            timeline.schedule(at, () -> {
                ran.add(new long[] {at, n, System.nanoTime()});
                all.countDown();
            });
        }
        assertThat(System.nanoTime() - start).as("all scheduled before the first was due").isLessThan(200_000_000L);
        assertThat(all.await(5, TimeUnit.SECONDS)).isTrue();
        for (int k = 1; k < ran.size(); k++) {
            long[] before = ran.get(k - 1);
            long[] after = ran.get(k);
            assertThat(after[0]).as("task %d after %d", after[1], before[1]).isGreaterThanOrEqualTo(before[0]);
        }
        assertThat(ran).allSatisfy(r -> assertThat(r[2]).isGreaterThanOrEqualTo(r[0]));
    }
}
