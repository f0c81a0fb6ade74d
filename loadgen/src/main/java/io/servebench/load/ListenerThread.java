package io.servebench.load;

import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A load's listeners on a thread of their own: the sending thread and the client's I/O threads only put each send and
 * each record on a queue, and this thread tells the listeners, in that order. Aggregating a finished request (its
 * every event into the histograms) took the I/O thread that read it away from reading, and the aggregation's lock,
 * which a send takes too, made the sender wait for it: schedule lag. A send is passed on with the moment it was handed
 * over ({@link LoadListener#onSend(long, long)}), not the moment this thread got to it.
 *
 * <p>{@link #drain()} returns once everything queued so far has been told, and rethrows the first failure of a
 * listener; {@link #close()} drains and ends the thread.
 */
public final class ListenerThread implements LoadListener, AutoCloseable {

    /** A send: its id and when it was handed over; a completion is its record. */
    private record Sent(long id, long handedOverNs) {
    }

    private final LoadListener listener;
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong told = new AtomicLong();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean closing;
    private volatile Thread waiting;

    /** Starts the thread that tells {@code listener}. */
    public ListenerThread(LoadListener listener) {
        this.listener = listener;
        this.thread = new Thread(this::run, "servebench-listeners");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void onSend(long id) {
        onSend(id, System.nanoTime());
    }

    @Override
    public void onSend(long id, long handedOverNs) {
        put(new Sent(id, handedOverNs));
    }

    @Override
    public void onComplete(RequestRecord record) {
        put(record);
    }

    /** Asked of the listeners at once: a stop must not wait for the queue. */
    @Override
    public Optional<String> stopReason() {
        return listener.stopReason();
    }

    private void put(Object item) {
        queue.add(item);
        queued.incrementAndGet();
        LockSupport.unpark(thread);
    }

    private void run() {
        while (true) {
            Object item = queue.poll();
            if (item == null) {
                Thread w = waiting;
                if (w != null) {
                    LockSupport.unpark(w);
                }
                if (closing && queue.isEmpty()) {
                    return;
                }
                LockSupport.parkNanos(this, 1_000_000);
                continue;
            }
            try {
                if (item instanceof Sent s) {
                    listener.onSend(s.id(), s.handedOverNs());
                } else {
                    listener.onComplete((RequestRecord) item);
                }
            } catch (RuntimeException e) {
                // a failing listener must not stop the others: the first failure is kept for drain()
                failure.compareAndSet(null, e);
            }
            told.incrementAndGet();
        }
    }

    /** Sends and records queued and not yet told: how far behind the listeners are. */
    public long backlog() {
        return queued.get() - told.get();
    }

    /**
     * Returns once every send and record queued before this call has been told to the listeners.
     *
     * @throws IllegalStateException when a listener failed; its first exception is the cause
     */
    public void drain() {
        long target = queued.get();
        waiting = Thread.currentThread();
        try {
            while (told.get() < target) {
                LockSupport.unpark(thread);
                LockSupport.parkNanos(this, 1_000_000);
            }
        } finally {
            waiting = null;
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a LoadListener failed; the load ran to its end but its figures may be"
                    + " incomplete", failure.get());
        }
    }

    /** Drains and ends the thread. */
    @Override
    public void close() {
        try {
            drain();
        } finally {
            closing = true;
            LockSupport.unpark(thread);
        }
    }
}
