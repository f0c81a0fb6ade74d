package io.servebench.sim;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The simulated engine's scheduler in real time: one thread runs {@link BatchScheduler}'s steps on the
 * model's own clock, tied to {@link System#nanoTime()}.
 *
 * <p>Time is the model's, never the thread's: a step starts when the previous one ends in the model (or,
 * when the engine was idle, at the arrival of the request that wakes it), lasts what {@link StepCostModel}
 * gives it, and its tokens are due at its end. A request takes part in a step only if it arrived (by the
 * engine's receive stamp) before the step began. The thread makes each step's decisions
 * {@value #ADMISSION_GRACE_NS} ns after the step's start (so a request received just before it has been
 * handed over) and hands the tokens over with their due time; the handlers write them then. A busy CPU
 * that makes a write late delays that write only, which the handler records as delivery lateness; it
 * never makes the simulated GPU slower.
 */
final class Scheduler implements AutoCloseable {

    /**
     * How long after a step's start (in the model's time) its decisions are made: a request received just
     * before the step began has this long to reach the scheduler. Shorter than the smallest step, so the
     * tokens are handed over before they are due.
     */
    static final long ADMISSION_GRACE_NS = 500_000;

    private final SimMetrics metrics;
    private final BatchScheduler.Sink sink;
    private final BatchScheduler batch;
    private final BlockingQueue<SimRequest> arrivals = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean resetRequested;
    /** The model's time at which the next step starts ({@link System#nanoTime()} scale). */
    private long clockNs;

    Scheduler(SimParams settings) {
        this(settings, new SimMetrics());
    }

    /** A scheduler that counts what it does into {@code metrics} (the engine's {@code /metrics}). */
    Scheduler(SimParams settings, SimMetrics metrics) {
        this(settings, metrics, (request, emission) -> request.emissions.add(emission));
    }

    /**
     * A scheduler that hands every emission, failures at shutdown included, to {@code sink}, on its own thread
     * (or the closing one).
     */
    Scheduler(SimParams settings, SimMetrics metrics, BatchScheduler.Sink sink) {
        this.metrics = metrics;
        this.sink = sink;
        this.batch = new BatchScheduler(settings, metrics, sink);
        this.clockNs = System.nanoTime();
        this.thread = new Thread(this::loop, "sim-scheduler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues a request; its tokens go to the sink (by default, {@link SimRequest#emissions}). */
    void submit(SimRequest request) {
        if (closed) {
            sink.emit(request, SimRequest.Emission.failed("engine is shut down"));
            return;
        }
        arrivals.add(request);
    }

    /**
     * Empties the prefix cache before the next request is admitted, as vLLM's {@code /reset_prefix_cache}
     * and SGLang's {@code /flush_cache} do between benchmark runs. The scheduler thread owns the cache, so
     * it clears it itself.
     */
    void resetPrefixCache() {
        resetRequested = true;
    }

    /** What the simulated GPUs drew, on the {@link System#nanoTime()} clock. */
    PowerMeter power() {
        return batch.power();
    }

    /** Stops the scheduler thread and fails every request not finished. Idempotent. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<SimRequest> left = batch.drain();
        arrivals.drainTo(left);
        for (SimRequest r : left) {
            sink.emit(r, SimRequest.Emission.failed("engine is shut down"));
        }
    }

    private void loop() {
        try {
            while (!closed) {
                if (batch.idle()) {
                    SimRequest first = arrivals.take();
                    batch.add(first);
                    // idle until this arrival: the next step starts when it came in, not when this thread woke
                    if (first.arrivalNs - clockNs > 0) {
                        clockNs = first.arrivalNs;
                    }
                }
                sleepUntil(clockNs + ADMISSION_GRACE_NS);
                SimRequest r;
                while ((r = arrivals.poll()) != null) {
                    batch.add(r);
                }
                if (resetRequested) {
                    resetRequested = false;
                    batch.clearPrefixCache();
                }
                batch.dropCancelled();
                metrics.held(batch);
                clockNs = batch.step(clockNs);
                // the gauges say what is left after the step: 0 once the last request has ended
                metrics.held(batch);
            }
        } catch (InterruptedException e) {
            // close() interrupts to stop the loop; it fails whatever is left
        }
    }

    private static void sleepUntil(long wallNs) throws InterruptedException {
        for (long now = System.nanoTime(); wallNs - now > 0; now = System.nanoTime()) {
            LockSupport.parkNanos(wallNs - now);
            if (Thread.interrupted()) {
                throw new InterruptedException("closed while waiting for a step");
            }
        }
    }
}
