package io.servebench.wire.http;

import io.netty.channel.EventLoop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The timed tasks of one event loop, gathered by due time: tasks scheduled one after another for the same
 * instant (a step's writes to all of its streams) become one timer and one wake-up of the loop, not one each.
 * Scheduling from another thread wakes the loop to add its timer; with a thousand streams a step, a timer per
 * stream cost more than the writes.
 */
final class Timeline {

    private final EventLoop loop;
    /** The batch that tasks due at its instant still join; {@code null} once it fired. Guarded by {@code this}. */
    private Batch open;

    Timeline(EventLoop loop) {
        this.loop = loop;
    }

    /** Runs {@code task} on the loop at {@code atNs} ({@link System#nanoTime()}), at once when that has passed. */
    void schedule(long atNs, Runnable task) {
        Batch batch;
        synchronized (this) {
            if (open != null && open.atNs == atNs) {
                open.tasks.add(task);
                return;
            }
            batch = new Batch(atNs);
            batch.tasks.add(task);
            open = batch;
        }
        loop.schedule(batch, Math.max(0, atNs - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private final class Batch implements Runnable {
        final long atNs;
        /** In the order scheduled; no longer added to once the batch left {@code open}. */
        final List<Runnable> tasks = new ArrayList<>(4);

        Batch(long atNs) {
            this.atNs = atNs;
        }

        @Override
        public void run() {
            synchronized (Timeline.this) {
                if (open == this) {
                    open = null;
                }
            }
            for (Runnable task : tasks) {
                task.run();
            }
        }
    }
}
