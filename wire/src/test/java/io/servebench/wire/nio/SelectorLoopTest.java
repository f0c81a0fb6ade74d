package io.servebench.wire.nio;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The selector loop both NIO transports run on: tasks, timed work, readiness, polling, and how it ends. */
class SelectorLoopTest {

    /** An owner with nothing due: the loop waits in the selector until I/O or a task. */
    private static final class Idle implements SelectorLoop.Owner {
        final AtomicInteger turns = new AtomicInteger();
        final CompletableFuture<Throwable> closed = new CompletableFuture<>();
        volatile long waitNs = Long.MAX_VALUE;
        volatile RuntimeException fail;

        @Override
        public long due(long nowNs) {
            turns.incrementAndGet();
            if (fail != null) {
                throw fail;
            }
            return waitNs;
        }

        @Override
        public void closing(Throwable failure) {
            closed.complete(failure);
        }
    }

    @Test
    void aTaskRunsOnTheLoopsThreadAndStoppingClosesTheOwner() throws Exception {
        Idle owner = new Idle();
        SelectorLoop loop = new SelectorLoop("test-loop", owner);
        loop.start();
        CompletableFuture<Boolean> inLoop = new CompletableFuture<>();
        loop.execute(() -> inLoop.complete(loop.inLoop()));
        assertThat(inLoop.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(loop.inLoop()).isFalse();
        assertThat(loop.stop()).isNull();
        assertThat(owner.closed).isCompletedWithValue(null);
        assertThat(loop.running()).isFalse();
        assertThat(loop.selector().isOpen()).isFalse();
    }

    @Test
    void theOwnersWaitBoundsEachTurnAboveAndBelowAMillisecond() throws Exception {
        for (long waitNs : new long[] {5_000_000, 200_000}) {
            Idle owner = new Idle();
            owner.waitNs = waitNs;
            SelectorLoop loop = new SelectorLoop("test-loop", owner);
            loop.start();
            Thread.sleep(200);
            loop.stop();
            // with no I/O at all, only the owner's wait ends a turn: about one turn per wait (a park may end early)
            assertThat(owner.turns.get()).as("turns in 200 ms at a wait of %d ns", waitNs)
                    .isBetween(10, (int) (2 * 200_000_000L / waitNs) + 2);
        }
    }

    @Test
    void aReadyChannelIsHandedToItsAttachment() throws Exception {
        Idle owner = new Idle();
        SelectorLoop loop = new SelectorLoop("test-loop", owner);
        Pipe pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        CountDownLatch read = new CountDownLatch(1);
        AtomicInteger ops = new AtomicInteger();
        pipe.source().register(loop.selector(), SelectionKey.OP_READ, (SelectorLoop.Ready) readyOps -> {
            ops.set(readyOps);
            try {
                pipe.source().read(ByteBuffer.allocate(16));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            read.countDown();
        });
        loop.start();
        pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        assertThat(read.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ops.get() & SelectionKey.OP_READ).isNotZero();
        loop.stop();
        pipe.sink().close();
        pipe.source().close();
    }

    @Test
    void whilePollingATaskStillRunsPromptly() throws Exception {
        Idle owner = new Idle();
        SelectorLoop loop = new SelectorLoop("test-loop", owner);
        loop.pollEvery(100_000);
        loop.start();
        for (int i = 0; i < 20; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            loop.execute(ran::countDown);
            assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(owner.turns.get()).as("a polling loop turns without I/O").isGreaterThan(1);
        loop.stop();
    }

    @Test
    void aFailingOwnerEndsTheLoopAndStopSaysWhy() throws Exception {
        Idle owner = new Idle();
        owner.waitNs = 1_000_000;
        SelectorLoop loop = new SelectorLoop("test-loop", owner);
        loop.start();
        IllegalStateException boom = new IllegalStateException("boom");
        owner.fail = boom;
        assertThat(owner.closed.get(5, TimeUnit.SECONDS)).as("the owner is told why").isSameAs(boom);
        assertThat(loop.stop()).isSameAs(boom);
    }
}
