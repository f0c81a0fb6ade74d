package io.servebench.load;

import io.servebench.engine.Endpoint;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives a list of requests against an endpoint following an {@link ArrivalProfile} and records each one.
 *
 * <p>Open-loop profiles: all intended send times are computed up front as absolute times from one start
 * instant, and the calling thread parks until each (spinning only for the last few microseconds), so a
 * late send delays nothing after it. Closed loop ({@link ArrivalProfile.Concurrent}): the first
 * {@code streams} requests go out at once; each finished request frees its stream, and the next request's
 * intended send time is the moment that happened.
 *
 * <p>Requests are sent in list order; warm-up requests must come first. They share the schedule with
 * the measured ones and are marked in their records.
 */
public final class LoadGenerator {

    // Parking is accurate to tens of microseconds at best; the last stretch is spun, which costs little.
    private static final long SPIN_NS = 50_000;
    // The first send is scheduled a little after the schedule is computed, so that it is not already late.
    private static final long START_DELAY_NS = 1_000_000;

    /**
     * Sends every request of {@code specs} to {@code endpoint} and returns when each has finished or failed.
     * Failures are recorded, never thrown.
     *
     * @param specs    the requests, warm-up ones first; their indices become the record ids and must be distinct
     * @param listener told about each record as it completes (from I/O threads)
     * @throws IllegalArgumentException when a warm-up request follows a measured one or indices repeat
     * @throws IllegalStateException    when {@code listener} threw; the run still went to the end, and the
     *                                  listener's first exception is the cause
     */
    public LoadResult run(Endpoint endpoint, List<RequestSpec> specs, LoadParams params, LoadListener listener) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(listener, "listener");
        validate(specs);
        AtomicReference<RuntimeException> listenerFailure = new AtomicReference<>();
        LoadListener guarded = record -> {
            // a failing listener must not stop the run (or, closed loop, leave a stream never freed)
            try {
                listener.onComplete(record);
            } catch (RuntimeException e) {
                listenerFailure.compareAndSet(null, e);
            }
        };
        List<CompletableFuture<RequestRecord>> pending = new ArrayList<>(specs.size());
        try (StreamingClient client = new StreamingClient(endpoint, params)) {
            if (params.profile() instanceof ArrivalProfile.Scheduled scheduled) {
                runScheduled(client, specs, scheduled, guarded, pending);
            } else if (params.profile() instanceof ArrivalProfile.Concurrent concurrent) {
                runConcurrent(client, specs, concurrent.streams(), guarded, pending);
            }
            // every request ends: by its response, its failure, or its timeout
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
        }
        if (listenerFailure.get() != null) {
            throw new IllegalStateException("the LoadListener failed; the run completed but its progress reports may be"
                    + " incomplete", listenerFailure.get());
        }
        List<RequestRecord> records = new ArrayList<>(pending.size());
        for (CompletableFuture<RequestRecord> f : pending) {
            records.add(f.join());
        }
        records.sort(Comparator.comparingLong(RequestRecord::id));
        long start = RequestRecord.NONE;
        long end = RequestRecord.NONE;
        for (RequestRecord r : records) {
            if (!r.warmup()) {
                start = start == RequestRecord.NONE ? r.intendedNs() : Math.min(start, r.intendedNs());
                end = end == RequestRecord.NONE ? r.doneNs() : Math.max(end, r.doneNs());
            }
        }
        return new LoadResult(records, start, end);
    }

    private static void runScheduled(StreamingClient client, List<RequestSpec> specs, ArrivalProfile.Scheduled profile,
                                     LoadListener listener, List<CompletableFuture<RequestRecord>> pending) {
        long[] offsets = profile.offsetsNs(specs.size());
        long t0 = System.nanoTime() + START_DELAY_NS;
        for (int i = 0; i < specs.size(); i++) {
            long intendedNs = t0 + offsets[i];
            waitUntil(intendedNs);
            pending.add(client.send(specs.get(i), intendedNs).whenComplete((r, e) -> listener.onComplete(r)));
        }
    }

    private static void runConcurrent(StreamingClient client, List<RequestSpec> specs, int streams,
                                      LoadListener listener, List<CompletableFuture<RequestRecord>> pending) {
        // each element is one free stream, carrying the moment it became free
        LinkedBlockingQueue<Long> freeStreams = new LinkedBlockingQueue<>();
        long t0 = System.nanoTime();
        for (int s = 0; s < Math.min(streams, specs.size()); s++) {
            freeStreams.add(t0);
        }
        for (RequestSpec spec : specs) {
            long freeSinceNs = takeUninterruptibly(freeStreams);
            pending.add(client.send(spec, freeSinceNs).whenComplete((r, e) -> {
                listener.onComplete(r);
                freeStreams.add(r.doneNs());
            }));
        }
    }

    private static long takeUninterruptibly(LinkedBlockingQueue<Long> queue) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return queue.take();
                } catch (InterruptedException e) {
                    // a run must not be abandoned half-sent: keep going and restore the flag afterwards
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void waitUntil(long targetNs) {
        while (true) {
            long remaining = targetNs - System.nanoTime();
            if (remaining <= 0) {
                return;
            }
            if (remaining > SPIN_NS) {
                LockSupport.parkNanos(remaining - SPIN_NS);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private static void validate(List<RequestSpec> specs) {
        Objects.requireNonNull(specs, "specs");
        boolean measuredSeen = false;
        Set<Integer> indices = new HashSet<>();
        for (int i = 0; i < specs.size(); i++) {
            RequestSpec spec = Objects.requireNonNull(specs.get(i), "specs[" + i + "]");
            if (spec.warmup() && measuredSeen) {
                throw new IllegalArgumentException("warm-up requests must come first, but specs[" + i
                        + "] (index " + spec.index() + ") is a warm-up request after a measured one");
            }
            measuredSeen |= !spec.warmup();
            if (!indices.add(spec.index())) {
                throw new IllegalArgumentException("request index " + spec.index() + " appears twice (specs[" + i
                        + "]); indices become record ids and must be distinct");
            }
        }
    }
}
