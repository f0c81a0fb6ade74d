package io.servebench.load;

import io.servebench.http.CpuTime;
import io.servebench.http.PoolStats;
import io.servebench.workload.RequestSpec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives requests against a {@link Target} following an {@link ArrivalProfile} and records each one.
 *
 * <p>Open-loop profiles: all intended send times are computed up front as absolute times from one start
 * instant, and the calling thread parks until each (spinning only for the last few microseconds), so a
 * late send delays nothing after it. Under a concurrency cap ({@link ArrivalProfile.Capped}) a request
 * whose time has come waits, in schedule order, for a free slot; the moment it gets one is recorded as
 * {@link RequestRecord#slotNs()}. Closed loop ({@link ArrivalProfile.Concurrent},
 * {@link ArrivalProfile.Synchronous}): the first {@code streams} requests go out at once; each finished
 * request frees its stream, and the next request's intended send time is the moment that happened.
 *
 * <p>Warm-up requests are the first {@code warmupRequests} and, with {@link LoadParams#warmupTime()}, those
 * whose intended send time falls within it; they share the schedule with the measured ones and are marked
 * in their records. Sending ends when the measured requests have gone out, the requests run out, or a
 * {@link StopConditions stop condition} holds; requests in flight then still finish.
 */
public final class LoadGenerator {

    /**
     * Connections opened before the first send: as many as requests arrive in this span (the pool's size
     * at most), enough for the first responses to take this long; later ones open ahead as spares. More
     * would sit idle until they retire: at 5,000 requests/s two seconds' worth filled a pool of 10,000.
     */
    private static final long WARM_SPAN_NS = 1_000_000_000L;
    /**
     * Idle connections kept on hand beyond that, opened as sends take them: as many as arrive in this
     * span, so a growing load finds a connection ready while the next ones connect.
     */
    private static final long SPARE_SPAN_NS = 200_000_000L;
    private static final int MIN_SPARE = 2;
    // The first send is scheduled a little after the schedule is computed, so that it is not already late.
    private static final long START_DELAY_NS = 1_000_000;

    private final DeltaTokenCounter counter;
    /** The schedule's start instant ({@link System#nanoTime()}), 0 for a moment after the run begins. */
    private final long startNs;

    /** A generator that counts each token event without continuous usage as one token. */
    public LoadGenerator() {
        this(DeltaTokenCounter.ONE_PER_EVENT);
    }

    /** @param counter counts the tokens of a token event when the server sends no continuous usage */
    public LoadGenerator(DeltaTokenCounter counter) {
        this(counter, 0);
    }

    private LoadGenerator(DeltaTokenCounter counter, long startNs) {
        this.counter = counter;
        this.startNs = startNs;
    }

    /**
     * This generator with a scheduled profile's offsets counted from {@code t0} ({@link System#nanoTime()}, which on
     * Linux is CLOCK_MONOTONIC, one clock for every process of a host) instead of from the moment it begins: several
     * processes then send their shares of one schedule ({@link LoadWorkers}).
     */
    LoadGenerator startingAt(long t0) {
        return new LoadGenerator(counter, t0);
    }

    /**
     * Sends every request of {@code specs} to {@code target} and returns when each has finished or failed.
     * Failures are recorded, never thrown. The specs' own warm-up flags say which are warm-up requests
     * (and a warm-up time may add more, taken from the measured ones).
     *
     * @param specs    the requests, warm-up ones first; their indices become the record ids and must be distinct
     * @param listener told about each record as it completes (from I/O threads)
     * @throws IllegalArgumentException when a warm-up request follows a measured one or indices repeat
     * @throws IllegalStateException    when {@code listener} threw; the run still went to the end, and the
     *                                  listener's first exception is the cause
     */
    public LoadResult run(Target target, List<RequestSpec> specs, LoadParams params, LoadListener listener) {
        validate(specs);
        int warmups = (int) specs.stream().filter(RequestSpec::warmup).count();
        return run(target, specs.iterator(), warmups, specs.size() - warmups, params, listener);
    }

    /**
     * Sends {@code warmupRequests} warm-up requests and then {@code measuredRequests} measured ones, drawn
     * in order from {@code supply}, plus, with a {@link LoadParams#warmupTime() warm-up time}, the requests
     * due within it, which are warm-up requests on top. Returns when each sent request has finished or failed.
     *
     * @param supply           the requests in sending order; each spec's index becomes its record id (indices
     *                         must be distinct) and its warm-up flag is replaced by the generator's decision.
     *                         Sending also ends when it runs out
     * @param warmupRequests   how many requests, from the first, are warm-up requests, {@code >= 0}
     * @param measuredRequests how many measured requests to send, {@code >= 0}
     * @param listener         told about each record as it completes (from I/O threads)
     * @throws IllegalStateException when {@code listener} threw; the run still went to the end, and the
     *                               listener's first exception is the cause
     */
    public LoadResult run(Target target, Iterator<RequestSpec> supply, int warmupRequests, int measuredRequests,
                          LoadParams params, LoadListener listener) {
        return run(List.of(target), Spread.roundRobin(1), supply, warmupRequests, measuredRequests, params, listener);
    }

    /**
     * As {@link #run(Target, Iterator, int, int, LoadParams, LoadListener)}, spreading the requests over the replicas of
     * one engine ({@code targets}) by {@code spread}.
     */
    public LoadResult run(List<Target> targets, Spread spread, Iterator<RequestSpec> supply, int warmupRequests,
                          int measuredRequests, LoadParams params, LoadListener listener) {
        return run(targets, spread, supply, warmupRequests, measuredRequests, params, listener, new Interruption());
    }

    /**
     * As {@link #run(List, Spread, Iterator, int, int, LoadParams, LoadListener)}, stopped by {@code interruption}: once
     * it is set, nothing more is sent and the requests in flight are called off at once (cancelled, as a client that
     * goes away closes its connection), so that the run returns in moments with what it measured
     * ({@link LoadResult.StopReason#INTERRUPTED}).
     */
    public LoadResult run(List<Target> targets, Spread spread, Iterator<RequestSpec> supply, int warmupRequests,
                          int measuredRequests, LoadParams params, LoadListener listener, Interruption interruption) {
        Objects.requireNonNull(interruption, "interruption");
        Target target = targets.get(0);
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(supply, "supply");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(listener, "listener");
        requireCounts(warmupRequests, measuredRequests);
        AtomicReference<RuntimeException> listenerFailure = new AtomicReference<>();
        Sending sending;
        PoolStats connections;
        CpuTime cpu;
        CpuTime senderStart = CpuTime.ofCurrentThread();
        try (StreamingClient client = new StreamingClient(targets, spread, params, counter)) {
            // a failing listener must not stop the run (or, closed loop, leave a stream never freed)
            sending = new Sending(client, supply, warmupRequests, measuredRequests, params, new LoadListener() {
                @Override
                public void onSend(long id) {
                    guarded(() -> listener.onSend(id));
                }

                @Override
                public void onComplete(RequestRecord record) {
                    guarded(() -> listener.onComplete(record));
                }

                /** Runs a call of the listener; its first failure is kept for the end of the run. */
                private void guarded(Runnable call) {
                    try {
                        call.run();
                    } catch (RuntimeException e) {
                        listenerFailure.compareAndSet(null, e);
                    }
                }

                @Override
                public java.util.Optional<String> stopReason() {
                    return listener.stopReason();
                }
            });
            sending.interruption = interruption;
            sending.startNs = startNs;
            try (Interruption.Registration wake = interruption.onInterrupt(sending::wake)) {
                if (params.profile() instanceof ArrivalProfile.Scheduled scheduled) {
                    sending.scheduled(scheduled);
                } else {
                    // a closed loop: as many streams as it keeps in flight
                    sending.closedLoop(params.profile().maxInFlight());
                }
                // a request sent as the interruption came in is called off too, now that no more go out
                interruption.cause().ifPresent(client::abortAll);
                // every request ends: by its response, its failure, its timeout, or the interruption's call-off; a
                // conversation with its last turn
                sending.awaitConversations();
            }
            // interrupted after the last send, while requests were in flight: the load is cut short all the same
            if (sending.woken) {
                sending.stopsBefore(System.nanoTime());
            }
            sending.close();
            connections = client.poolStats();
            cpu = CpuTime.ofCurrentThread().minus(senderStart).plus(client.ioCpu());
        }
        if (listenerFailure.get() != null) {
            throw new IllegalStateException("the LoadListener failed; the run completed but its progress reports may be"
                    + " incomplete", listenerFailure.get());
        }
        return sending.window.result(sending.stop(), connections, cpu);
    }

    /**
     * The state of one run's sending loop; used by the calling thread, except for the completion hooks and the
     * thread that sends the later turns of conversations.
     */
    private static final class Sending {
        /** The measured requests' window; the records themselves go to the listener and are not kept. */
        final MeasuredWindow window = new MeasuredWindow();
        /** Conversations sent whose last turn has not ended yet. */
        private int conversations;
        private final StreamingClient client;
        private final Conversations supply;
        private final int warmupRequests;
        private final int measuredRequests;
        private final long warmupNs;
        private final StopConditions conditions;
        /** Watches the requests for over-saturation; null without that stop. */
        private final SaturationDetector saturation;
        private final LoadListener listener;
        private final AtomicInteger failures = new AtomicInteger();
        private final Pacer pacer = new Pacer();
        /** The run's stop request; set before sending starts. */
        private Interruption interruption;
        /** A scheduled profile's start instant, 0 for a moment after sending begins; set before sending starts. */
        private long startNs;
        /** Whether the run was interrupted while this load ran: its sending or its requests in flight were cut short. */
        private volatile boolean woken;
        /** The thread that sends (the caller's), woken from its waits when the run is interrupted. */
        private final Thread sender = Thread.currentThread();
        /** A closed loop's free streams, each carrying the moment it became free; {@link #WAKE} wakes its sender. */
        private final LinkedBlockingQueue<Long> freeStreams = new LinkedBlockingQueue<>();
        /** Sends the later turns of conversations, each when the turn before it has ended; started on first use. */
        private java.util.concurrent.ExecutorService laterTurns;
        private long t0;
        private int drawn;
        private int measuredDrawn;
        private int sent;
        private int planned;
        private StopTracker stopping;

        Sending(StreamingClient client, Iterator<RequestSpec> supply, int warmupRequests, int measuredRequests,
                LoadParams params, LoadListener listener) {
            this.client = client;
            this.supply = new Conversations(supply);
            this.warmupRequests = warmupRequests;
            this.measuredRequests = measuredRequests;
            this.warmupNs = params.warmupTime().toNanos();
            this.conditions = params.stop();
            this.saturation = conditions.saturationWindow() == null ? null
                    : new SaturationDetector(conditions.saturationWindow().toNanos());
            this.listener = saturation == null ? listener : LoadListener.all(saturation, listener);
            this.planned = warmupRequests + measuredRequests;
        }

        void scheduled(ArrivalProfile.Scheduled profile) {
            long[] offsets = offsets(profile, warmupRequests, measuredRequests, warmupNs);
            planned = offsets.length;
            Semaphore slots = profile.maxInFlight() > 0 ? new Semaphore(profile.maxInFlight(), true) : null;
            client.warm(arrivalsWithin(offsets, WARM_SPAN_NS), Math.max(MIN_SPARE, arrivalsWithin(offsets, SPARE_SPAN_NS)));
            t0 = startNs != 0 ? startNs : System.nanoTime() + START_DELAY_NS;
            stopping = new StopTracker(conditions, t0);
            // the schedule paces conversations: their first turns take its times, later turns follow their answers
            for (int i = 0; i < offsets.length && drawn < planned && supply.hasNext(); i++) {
                long intendedNs = t0 + offsets[i];
                if (stopsBefore(intendedNs)) {
                    return;
                }
                List<Next> turns = prepareNext(offsets[i] < warmupNs, planned - drawn);
                pacer.waitUntil(intendedNs, interruption::interrupted);
                if (stopsBefore(System.nanoTime())) {
                    return;
                }
                long slotNs = slot(slots);
                if (slotNs == STOPPED) {
                    return;
                }
                conversation(turns, intendedNs, slotNs, slots);
            }
            stopping.completedAt(System.nanoTime());
        }

        void closedLoop(int streams) {
            client.warm(streams, 0);
            t0 = System.nanoTime();
            stopping = new StopTracker(conditions, t0);
            for (int s = 0; s < streams; s++) {
                freeStreams.add(t0);
            }
            while (measuredDrawn < measuredRequests || drawn < warmupRequests) {
                if (!supply.hasNext()) {
                    break;
                }
                long freeSinceNs = takeUninterruptibly(freeStreams);
                if (freeSinceNs == WAKE || stopsBefore(System.nanoTime())) {
                    return;
                }
                boolean inWarmupTime = freeSinceNs - t0 < warmupNs;
                if (inWarmupTime && drawn >= warmupRequests) {
                    // a warm-up request on top of the planned ones
                    planned++;
                }
                // a stream carries a whole conversation: it is free again when the last turn has ended
                conversation(prepareNext(inWarmupTime, measuredRequests - measuredDrawn + Math.max(0,
                        warmupRequests - drawn)), freeSinceNs, RequestRecord.NONE, null)
                        .whenComplete((r, e) -> freeStreams.add(r.doneNs()));
            }
            stopping.completedAt(System.nanoTime());
        }

        private static int arrivalsWithin(long[] offsets, long spanNs) {
            int n = 0;
            while (n < offsets.length && offsets[n] < spanNs) {
                n++;
            }
            return Math.max(1, n);
        }

        /** A request built before its send time; whether it is a warm-up one is decided when it is drawn. */
        private record Next(StreamingClient.Prepared request, RequestSpec spec, boolean warmup) {
        }

        /**
         * The next conversation, at most {@code limit} turns: its first turn built now, the later ones when they are
         * due (each after its turn before).
         */
        private List<Next> prepareNext(boolean inWarmupTime, int limit) {
            List<RequestSpec> turns = supply.next(drawn, Math.max(1, limit), at -> at < warmupRequests || inWarmupTime);
            drawn += turns.size();
            measuredDrawn += (int) turns.stream().filter(t -> !t.warmup()).count();
            List<Next> next = new ArrayList<>(turns.size());
            for (RequestSpec turn : turns) {
                next.add(new Next(next.isEmpty() ? client.prepare(turn) : null, turn, turn.warmup()));
            }
            return next;
        }

        /**
         * Sends a conversation's first turn at {@code intendedNs} and each later turn when the one before it has
         * ended (its intended send time); completes with the last record, that of the last turn sent.
         */
        private CompletableFuture<RequestRecord> conversation(List<Next> turns, long intendedNs, long slotNs,
                                                              Semaphore slots) {
            synchronized (this) {
                conversations++;
            }
            CompletableFuture<RequestRecord> done = new CompletableFuture<>();
            dispatch(turns.get(0), intendedNs, slotNs, slots).whenComplete((r, e) -> laterTurn(turns, 1, r, slots, done));
            return done.whenComplete((r, e) -> conversationEnded());
        }

        private synchronized void conversationEnded() {
            conversations--;
            notifyAll();
        }

        /** Waits until every conversation sent has ended, uninterruptibly: a run must not be abandoned half-read. */
        synchronized void awaitConversations() {
            boolean interrupted = false;
            while (conversations > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        /**
         * Waits for one of the {@code slots} of requests in flight, where they are capped: when it was had, {@link
         * RequestRecord#NONE} without a cap, or {@link #STOPPED} when the load stopped meanwhile (the slot handed back).
         */
        private long slot(Semaphore slots) {
            if (slots == null) {
                return RequestRecord.NONE;
            }
            slots.acquireUninterruptibly();
            long slotNs = System.nanoTime();
            if (stopsBefore(slotNs)) {
                slots.release();
                return STOPPED;
            }
            return slotNs;
        }

        private void laterTurn(List<Next> turns, int k, RequestRecord previous, Semaphore slots,
                               CompletableFuture<RequestRecord> done) {
            if (k == turns.size()) {
                done.complete(previous);
                return;
            }
            laterTurns().execute(() -> {
                if (stopsBefore(System.nanoTime())) {
                    done.complete(previous);
                    return;
                }
                // a later turn waits for a slot as any request does, behind those that asked before it
                long slotNs = slot(slots);
                if (slotNs == STOPPED) {
                    done.complete(previous);
                    return;
                }
                Next turn = turns.get(k);
                dispatch(new Next(client.prepare(turn.spec()), turn.spec(), turn.warmup()), previous.doneNs(), slotNs, slots)
                        .whenComplete((r, e) -> laterTurn(turns, k + 1, r, slots, done));
            });
        }

        private synchronized java.util.concurrent.ExecutorService laterTurns() {
            if (laterTurns == null) {
                laterTurns = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "servebench-later-turns");
                    t.setDaemon(true);
                    return t;
                });
            }
            return laterTurns;
        }

        /** Stops the thread of later turns, once every conversation has ended. */
        synchronized void close() {
            if (laterTurns != null) {
                laterTurns.shutdown();
            }
        }

        private CompletableFuture<RequestRecord> dispatch(Next next, long intendedNs, long slotNs, Semaphore slots) {
            synchronized (this) {
                sent++;
            }
            listener.onSend(next.spec().index());
            return client.send(next.request(), intendedNs)
                    .thenApply(r -> slotNs == RequestRecord.NONE ? r : r.withSlotNs(slotNs))
                    .whenComplete((r, e) -> {
                        // a request called off on purpose is no failure of the server's: maxErrors does not count it
                        if (!r.succeeded() && !r.cancelledByClient()) {
                            failures.incrementAndGet();
                        }
                        window.add(r);
                        listener.onComplete(r);
                        // the slot is freed last, so a request waiting for it sees this failure counted
                        if (slots != null) {
                            slots.release();
                        }
                    });
        }

        /**
         * The run was interrupted: the sender leaves its wait (for a send time, a free stream or a slot, which the
         * requests called off free) and the requests in flight are called off. Any thread; more than once is harmless.
         */
        void wake() {
            woken = true;
            freeStreams.add(WAKE);
            LockSupport.unpark(sender);
            interruption.cause().ifPresent(client::abortAll);
        }

        /** Whether a stop condition holds at {@code nowNs}, or the run was interrupted; if so, records why. */
        private synchronized boolean stopsBefore(long nowNs) {
            if (interruption.interrupted()) {
                return stopping.interruptedAt(Math.min(nowNs, System.nanoTime()), failures.get(),
                        interruption.cause().orElseThrow());
            }
            return stopping.stopsAt(Math.min(nowNs, System.nanoTime()), failures.get(), listener.stopReason(),
                    saturation == null ? java.util.Optional.empty() : saturation.verdict());
        }

        synchronized LoadResult.Stop stop() {
            return stopping.stop(planned, sent, failures.get());
        }
    }

    /** What wakes a closed loop's sender from its wait for a free stream: no stream's free time. */
    private static final long WAKE = Long.MIN_VALUE;
    /** What {@code slot} returns when the load stopped while it waited: no {@link System#nanoTime()} reads it. */
    private static final long STOPPED = Long.MIN_VALUE + 1;

    static void requireCounts(int warmupRequests, int measuredRequests) {
        if (warmupRequests < 0 || measuredRequests < 0) {
            throw new IllegalArgumentException("request counts must be >= 0, got " + warmupRequests + " warm-up and "
                    + measuredRequests + " measured");
        }
    }

    /**
     * The offsets of every request to send: the warm-up requests by count, those within the warm-up time
     * (offsets are non-decreasing, so they are a prefix too), then the measured ones.
     */
    static long[] offsets(ArrivalProfile.Scheduled profile, int warmupRequests, int measuredRequests, long warmupNs) {
        int total = warmupRequests + measuredRequests;
        if (warmupNs == 0) {
            return profile.offsetsNs(total);
        }
        // offsets are prefix-stable: lengthen the schedule until it reaches past the warm-up time
        int length = Math.max(total, 1);
        while (true) {
            long[] offsets = profile.offsetsNs(length);
            int inWarmup = 0;
            while (inWarmup < offsets.length && offsets[inWarmup] < warmupNs) {
                inWarmup++;
            }
            // a trace that ends inside the warm-up time is all warm-up
            if (inWarmup < offsets.length || offsets.length < length) {
                return profile.offsetsNs(Math.max(warmupRequests, inWarmup) + measuredRequests);
            }
            length = Math.multiplyExact(length, 2);
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
