package io.servebench.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The simulated engine's writers: a few threads that write every stream's token events at their due times, in
 * due order, instead of one handler thread per stream waking for each step. A step's tokens are all due at once;
 * with a thread per stream, a 2-core machine spends the step's first milliseconds switching between them, and
 * the last stream's write comes late. The events' bytes are laid out before they are due (on the scheduler's
 * thread), so at the due instant only the writes remain.
 */
final class Delivery implements AutoCloseable {

    /** One emission's writes, due at {@code dueNs}. */
    interface Write {
        long dueNs();

        /** Writes it; called on a delivery thread at or after its due time. */
        void write();
    }

    private final Lane[] lanes;

    /** {@code threads} writer threads; a stream's events always go through the same one, so they stay in order. */
    Delivery(int threads) {
        lanes = new Lane[threads];
        for (int i = 0; i < threads; i++) {
            lanes[i] = new Lane("sim-delivery-" + (i + 1));
        }
    }

    /**
     * Queues a write of {@code stream} for its due time; after {@link #close()} it runs at once on the calling
     * thread.
     */
    void offer(Object stream, Write write) {
        lanes[Math.floorMod(System.identityHashCode(stream), lanes.length)].offer(write);
    }

    /** Writes what is queued (late, if it must) and stops the threads; later offers write at once. Idempotent. */
    @Override
    public void close() {
        for (Lane lane : lanes) {
            lane.close();
        }
    }

    private record Queued(Write write, long order) implements Comparable<Queued> {
        @Override
        public int compareTo(Queued o) {
            int byDue = Long.compare(write.dueNs(), o.write.dueNs());
            return byDue != 0 ? byDue : Long.compare(order, o.order);
        }
    }

    /** One writer thread and its queue. */
    private static final class Lane {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private final PriorityQueue<Queued> queue = new PriorityQueue<>();
        private final Thread thread;
        private long offered;
        private boolean closed;

        Lane(String name) {
            thread = new Thread(this::run, name);
            thread.setDaemon(true);
            thread.start();
        }

        void offer(Write write) {
            lock.lock();
            try {
                if (!closed) {
                    queue.add(new Queued(write, offered++));
                    if (queue.peek().write == write) {
                        changed.signal();
                    }
                    return;
                }
            } finally {
                lock.unlock();
            }
            write.write();
        }

        private void run() {
            List<Write> due = new ArrayList<>();
            while (true) {
                lock.lock();
                try {
                    while (queue.isEmpty() && !closed) {
                        changed.awaitUninterruptibly();
                    }
                    if (queue.isEmpty()) {
                        return;
                    }
                    long wait = queue.peek().write.dueNs() - System.nanoTime();
                    if (wait > 0 && !closed) {
                        changed.awaitNanos(wait);
                        continue;
                    }
                    // everything due by now, in due order: one wake-up for a whole step's streams
                    long now = System.nanoTime();
                    while (!queue.isEmpty() && (closed || queue.peek().write.dueNs() - now <= 0)) {
                        due.add(queue.poll().write);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    lock.unlock();
                }
                for (Write w : due) {
                    w.write();
                }
                due.clear();
            }
        }

        void close() {
            lock.lock();
            try {
                closed = true;
                changed.signal();
            } finally {
                lock.unlock();
            }
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
