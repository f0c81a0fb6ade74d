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
        // the second 40 ms task came after another instant: a timer of its own, whose deadline may fall a few
        // hundred nanoseconds before or after the first's (Responder keeps one exchange's tasks in order)
        assertThat(order.subList(0, 2)).containsExactly("passed", "20 ms");
        assertThat(order.subList(2, 4)).containsExactlyInAnyOrder("40 ms", "40 ms again");
    }
}
