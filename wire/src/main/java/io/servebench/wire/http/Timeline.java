package io.servebench.wire.http;

import io.netty.channel.EventLoop;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * The timed tasks of one event loop, gathered by due time and run in due order: tasks scheduled one after another
 * for the same instant (a step's writes to all of its streams) become one batch and one wake-up of the loop, not a
 * timer each. Scheduling from another thread wakes the loop to add its timer; with a thousand streams a step, a
 * timer per stream cost more than the writes. Batches run in the order of their instants, those of one instant in
 * the order they were scheduled, whatever order the loop's timers fire in (each timer's deadline is read off the
 * clock again when it is queued, so two close ones may swap).
 */
final class Timeline {

    private static final Comparator<Batch> DUE_ORDER = Comparator.<Batch>comparingLong(b -> b.atNs)
            .thenComparingLong(b -> b.order);

    private final EventLoop loop;
    // guarded by this
    private final PriorityQueue<Batch> waiting = new PriorityQueue<>(DUE_ORDER);
    /** The batch that tasks due at its instant still join; {@code null} once it ran. */
    private Batch open;
    private long batches;
    /**
     * The instant of the timer that sets the next one, never after the earliest waiting batch's;
     * {@link Long#MAX_VALUE} when nothing waits. Timers set for other instants run what is due and end there.
     */
    private long armedNs = Long.MAX_VALUE;

    Timeline(EventLoop loop) {
        this.loop = loop;
    }

    /** Runs {@code task} on the loop at {@code atNs} ({@link System#nanoTime()}), at once when that has passed. */
    void schedule(long atNs, Runnable task) {
        synchronized (this) {
            if (open != null && open.atNs == atNs) {
                open.tasks.add(task);
                return;
            }
            open = new Batch(atNs, batches++);
            open.tasks.add(task);
            waiting.add(open);
            if (atNs - armedNs >= 0) {
                return;
            }
            armedNs = atNs;
        }
        arm(atNs);
    }

    private void arm(long atNs) {
        loop.schedule(() -> runDue(atNs), Math.max(0, atNs - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /**
     * On the loop, when the timer set for {@code firedForNs} fires: runs every batch due by now, in due order, and
     * sets the next timer if it is the current one.
     */
    private void runDue(long firedForNs) {
        List<Batch> due = new ArrayList<>();
        long next = Long.MAX_VALUE;
        synchronized (this) {
            long now = System.nanoTime();
            while (!waiting.isEmpty() && waiting.peek().atNs - now <= 0) {
                Batch b = waiting.poll();
                if (open == b) {
                    open = null;
                }
                due.add(b);
            }
            if (firedForNs == armedNs) {
                // an earlier batch scheduled since would have set an earlier timer: this one sets the next
                next = waiting.isEmpty() ? Long.MAX_VALUE : waiting.peek().atNs;
                armedNs = next;
            }
        }
        for (Batch b : due) {
            for (Runnable task : b.tasks) {
                task.run();
            }
        }
        if (next != Long.MAX_VALUE) {
            arm(next);
        }
    }

    /** Tasks due at one instant, in the order scheduled; added to only while {@code open}. */
    private static final class Batch {
        final long atNs;
        final long order;
        final List<Runnable> tasks = new ArrayList<>(4);

        Batch(long atNs, long order) {
            this.atNs = atNs;
            this.order = order;
        }
    }
}
