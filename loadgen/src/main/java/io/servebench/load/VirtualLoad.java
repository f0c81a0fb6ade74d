package io.servebench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.http.CpuTime;
import io.servebench.http.PoolStats;
import io.servebench.workload.RequestSpec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The load generator's twin for the simulated engine in virtual time: the same schedule, warm-up rules,
 * concurrency caps, closed loops, stop conditions and request bodies as {@link LoadGenerator}, sent to a
 * {@link VirtualServer} instead of a socket, and the same {@link RequestRecord}s to its listener.
 *
 * <p>Every time in a record is on the virtual clock (nanoseconds). There is no network and no client: a
 * request is sent and received at its intended time (schedule lag 0, {@code sentNs == intendedNs}), and each
 * token event is read when the engine's model says it is written, one event per read. Token counts are the
 * engine's own. A request the engine rejects fails as {@code http_STATUS: message}, the error kind the real
 * client reports. {@link LoadResult#clientCpu()} is zero and the connection pool never waited.
 */
public final class VirtualLoad {

    private final VirtualServer engine;
    private final Target target;

    /** Sends to {@code engine}, naming {@code target}'s model (or a request's adapter, as it takes it) in every body. */
    public VirtualLoad(VirtualServer engine, Target target) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.target = Objects.requireNonNull(target, "target");
    }

    /**
     * Runs one load as {@link LoadGenerator#run(Target, Iterator, int, int, LoadParams, LoadListener)} does,
     * starting at the engine's virtual clock.
     */
    public LoadResult run(Iterator<RequestSpec> supply, int warmupRequests, int measuredRequests, LoadParams params,
                          LoadListener listener) {
        Objects.requireNonNull(supply, "supply");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(listener, "listener");
        if (params.cancellation().any()) {
            throw new IllegalArgumentException("cancellationRate and timeoutSeconds call requests off by closing their "
                    + "connections, and virtual time has none: run with --simulate=process (the simulated engine over "
                    + "HTTP) or a real engine");
        }
        LoadGenerator.requireCounts(warmupRequests, measuredRequests);
        Run run = new Run(supply, warmupRequests, measuredRequests, params, listener);
        if (params.profile() instanceof ArrivalProfile.Scheduled scheduled) {
            run.scheduled(scheduled);
        } else {
            // a closed loop: as many streams as it keeps in flight
            run.closedLoop(params.profile().maxInFlight());
        }
        run.drain(Long.MAX_VALUE);
        PoolStats pool = new PoolStats(params.maxInFlight(), run.peakInFlight, 0, 0, 0, null, 0, 0, 0, 0);
        return run.window.result(run.stop(), pool, CpuTime.ZERO);
    }

    /** One request in flight: what the record needs besides the engine's truth. */
    private record Sent(RequestSpec spec, long intendedNs, long slotNs) {
    }

    /** A conversation's turns still to send, the next one due at {@code dueNs} (its turn before ended) and waiting for a slot. */
    private record WaitingTurn(Deque<RequestSpec> turns, long dueNs) {
    }

    private final class Run {
        /** The measured requests' window; the records themselves go to the listener and are not kept. */
        final MeasuredWindow window = new MeasuredWindow();
        private final Conversations supply;
        /** The turns still to send of each conversation in flight, by the id of its turn in flight. */
        private final Map<String, Deque<RequestSpec>> laterTurns = new HashMap<>();
        private int drawn;
        private int measuredDrawn;
        private final int warmupRequests;
        private final int measuredRequests;
        private final long warmupNs;
        private final LoadParams params;
        /** The extra body fields, parsed once for the run. */
        private final ObjectNode extraBody;
        private final LoadListener listener;
        private final Map<String, Sent> inFlight = new HashMap<>();
        private boolean closedLoop;
        /** Completions whose stream a closed loop has not yet reused, oldest first. */
        private final Deque<RequestRecord> freed = new ArrayDeque<>();
        /** Under a concurrency cap: when each slot a completion freed became free, for requests still to take. */
        private final Deque<Long> freedSlots = new ArrayDeque<>();
        private boolean capped;
        /** Under a concurrency cap: slots no request has held yet, free since the start. */
        private int unused;
        /** Under a concurrency cap: conversations' later turns waiting for a slot, longest waiting first. */
        private final Deque<WaitingTurn> waitingTurns = new ArrayDeque<>();
        /**
         * Under a concurrency cap: when the first turn the schedule sends next began, or begins, to wait for a slot
         * ({@code Long.MAX_VALUE} once the schedule is sent): a later turn that has waited since before it takes a slot
         * first, as the load generator's fair semaphore gives it to whoever asked first.
         */
        private long nextFirstTurnNs = Long.MAX_VALUE;
        /**
         * Under a concurrency cap: when the last first turn took its slot; a later turn that waited behind it takes one
         * no earlier (its slot is then the next to come free, after the first turn's).
         */
        private long lastFirstTurnSlotNs;
        /** When each failed request ended, in order: a stop condition counts those that had failed by its time. */
        private final List<Long> failedAt = new ArrayList<>();
        private final long t0 = engine.clockNs();
        private int sent;
        private int measuredSent;
        private int planned;
        private int peakInFlight;
        private long lastSendNs = RequestRecord.NONE;
        private final StopTracker stopping;
        /** Watches the requests for over-saturation; null without that stop. */
        private final SaturationDetector saturation;

        Run(Iterator<RequestSpec> supply, int warmupRequests, int measuredRequests, LoadParams params,
            LoadListener listener) {
            this.supply = new Conversations(supply);
            this.warmupRequests = warmupRequests;
            this.measuredRequests = measuredRequests;
            this.warmupNs = params.warmupTime().toNanos();
            this.stopping = new StopTracker(params.stop(), t0);
            this.params = params;
            this.extraBody = params.extraBody() == null ? null : io.servebench.workload.BodyFields.parse(params.extraBody());
            this.saturation = params.stop().saturationWindow() == null ? null
                    : new SaturationDetector(params.stop().saturationWindow().toNanos());
            this.listener = saturation == null ? listener : LoadListener.all(saturation, listener);
            this.planned = warmupRequests + measuredRequests;
        }

        void scheduled(ArrivalProfile.Scheduled profile) {
            long[] offsets = LoadGenerator.offsets(profile, warmupRequests, measuredRequests, warmupNs);
            planned = offsets.length;
            capped = profile.maxInFlight() > 0;
            // slots no request has held yet, free since the start; then those freed by completions, oldest first
            unused = profile.maxInFlight();
            lastFirstTurnSlotNs = t0;
            try {
                for (int i = 0; i < offsets.length && drawn < planned && supply.hasNext(); i++) {
                    long intendedNs = t0 + offsets[i];
                    nextFirstTurnNs = intendedNs;
                    drain(intendedNs);
                    serveWaitingTurns();
                    if (stopsAt(intendedNs)) {
                        return;
                    }
                    long sendNs = intendedNs;
                    long slotNs = RequestRecord.NONE;
                    if (capped) {
                        // as the load generator's fair semaphore: the waiting request takes the slot freed first, when
                        // it is freed, and no earlier than its own time (later turns that waited longer served first)
                        while (unused == 0 && freedSlots.isEmpty()) {
                            awaitCompletion();
                        }
                        slotNs = Math.max(intendedNs, takeSlot());
                        if (stopsAt(slotNs)) {
                            return;
                        }
                        sendNs = slotNs;
                        lastFirstTurnSlotNs = slotNs;
                    }
                    sendConversation(next(offsets[i] < warmupNs, planned - drawn), intendedNs, sendNs, slotNs);
                    if (capped) {
                        // the later turns that waited behind this first turn ask now, before the clock moves on
                        nextFirstTurnNs = i + 1 < offsets.length ? t0 + offsets[i + 1] : Long.MAX_VALUE;
                        serveWaitingTurns();
                    }
                }
                stopping.completedAt(sent == 0 ? t0 : lastSendNs);
            } finally {
                // the schedule is sent (or stopped): later turns no longer wait behind a first turn
                nextFirstTurnNs = Long.MAX_VALUE;
                serveWaitingTurns();
            }
        }

        /** When the slot taken became free: one no request has held yet (the start), else the one freed first. */
        private long takeSlot() {
            if (unused > 0) {
                unused--;
                return t0;
            }
            return freedSlots.pollFirst();
        }

        /**
         * Gives free slots to the later turns that have waited since before the next first turn, longest waiting first;
         * one that would go out after a stop condition ends its conversation there.
         */
        private void serveWaitingTurns() {
            while (!waitingTurns.isEmpty() && waitingTurns.peekFirst().dueNs() < nextFirstTurnNs
                    && (unused > 0 || !freedSlots.isEmpty())) {
                WaitingTurn waiting = waitingTurns.pollFirst();
                long freeSinceNs = takeSlot();
                long slotNs = Math.max(Math.max(waiting.dueNs(), freeSinceNs), lastFirstTurnSlotNs);
                if (stopsAt(slotNs)) {
                    // the slot goes back: nothing was sent with it
                    freedSlots.addFirst(freeSinceNs);
                    continue;
                }
                sendLaterTurn(waiting.turns(), waiting.dueNs(), slotNs, slotNs);
            }
        }

        void closedLoop(int streams) {
            closedLoop = true;
            Deque<Long> freeStreams = new ArrayDeque<>();
            for (int s = 0; s < streams; s++) {
                freeStreams.add(t0);
            }
            while (measuredDrawn < measuredRequests || drawn < warmupRequests) {
                if (!supply.hasNext()) {
                    break;
                }
                // a completed turn with a later one to send leaves its stream busy
                while (freeStreams.isEmpty()) {
                    if (freed.isEmpty()) {
                        awaitCompletion();
                    }
                    while (!freed.isEmpty()) {
                        freeStreams.add(freed.pollFirst().doneNs());
                    }
                }
                long freeSinceNs = freeStreams.pollFirst();
                if (stopsAt(freeSinceNs)) {
                    return;
                }
                boolean inWarmupTime = freeSinceNs - t0 < warmupNs;
                if (inWarmupTime && drawn >= warmupRequests) {
                    planned++;
                }
                // a stream carries a whole conversation: it is free again when the last turn has ended
                sendConversation(next(inWarmupTime, measuredRequests - measuredDrawn + Math.max(0, warmupRequests - drawn)),
                        freeSinceNs, freeSinceNs, RequestRecord.NONE);
            }
            stopping.completedAt(sent == 0 ? t0 : lastSendNs);
        }

        /** The next conversation's turns, at most {@code limit}. */
        private List<RequestSpec> next(boolean inWarmupTime, int limit) {
            List<RequestSpec> turns = supply.next(drawn, Math.max(1, limit), at -> at < warmupRequests || inWarmupTime);
            drawn += turns.size();
            measuredDrawn += (int) turns.stream().filter(t -> !t.warmup()).count();
            return turns;
        }

        /** Sends a conversation's first turn; each later one goes when the one before it completes. */
        private void sendConversation(List<RequestSpec> turns, long intendedNs, long sendNs, long slotNs) {
            send(turns.get(0), intendedNs, sendNs, slotNs);
            if (turns.size() > 1) {
                laterTurns.put(params.requestId(turns.get(0).index()), new ArrayDeque<>(turns.subList(1, turns.size())));
            }
        }

        private void send(RequestSpec spec, long intendedNs, long sendNs, long slotNs) {
            sent++;
            String id = params.requestId(spec.index());
            byte[] body = RequestBodies.build(params.api(), target, spec, params.continuousUsageStats(), extraBody).json();
            listener.onSend(spec.index());
            engine.submit(id, sendNs, params.api() == OpenAiApi.CHAT, body);
            inFlight.put(id, new Sent(spec, intendedNs, slotNs));
            peakInFlight = Math.max(peakInFlight, inFlight.size());
            lastSendNs = sendNs;
        }

        /** Takes every completion of the steps that start before {@code untilNs}. */
        void drain(long untilNs) {
            for (List<VirtualServer.Reply> done = engine.advance(untilNs); !done.isEmpty(); done = engine.advance(untilNs)) {
                done.forEach(this::complete);
            }
            if (untilNs == Long.MAX_VALUE && !inFlight.isEmpty()) {
                throw new IllegalStateException(inFlight.size() + " requests never completed on the virtual engine");
            }
        }

        /** Runs the engine until at least one request completes. */
        private void awaitCompletion() {
            List<VirtualServer.Reply> done = engine.advance(Long.MAX_VALUE);
            if (done.isEmpty()) {
                throw new IllegalStateException("the virtual engine finished with " + inFlight.size()
                        + " requests in flight");
            }
            done.forEach(this::complete);
        }

        private RequestRecord complete(VirtualServer.Reply truth) {
            Sent s = inFlight.remove(truth.requestId());
            RequestRecord record = record(s, truth);
            if (!record.succeeded()) {
                int at = java.util.Collections.binarySearch(failedAt, record.doneNs());
                failedAt.add(at < 0 ? -at - 1 : at, record.doneNs());
            }
            if (capped) {
                freedSlots.addLast(record.doneNs());
            }
            window.add(record);
            listener.onComplete(record);
            Deque<RequestSpec> later = laterTurns.remove(truth.requestId());
            if (later != null && !stopsAt(record.doneNs())) {
                // the next turn is due when this one has ended; under a cap it waits for a slot as any request does
                if (capped) {
                    waitingTurns.addLast(new WaitingTurn(later, record.doneNs()));
                } else {
                    sendLaterTurn(later, record.doneNs(), record.doneNs(), RequestRecord.NONE);
                }
            } else if (closedLoop) {
                freed.addLast(record);
            }
            if (capped) {
                serveWaitingTurns();
            }
            return record;
        }

        /** Sends the next of a conversation's later turns, due at {@code dueNs}, keeping the rest for its end. */
        private void sendLaterTurn(Deque<RequestSpec> later, long dueNs, long sendNs, long slotNs) {
            RequestSpec next = later.pollFirst();
            send(next, dueNs, sendNs, slotNs);
            if (!later.isEmpty()) {
                laterTurns.put(params.requestId(next.index()), later);
            }
        }

        private RequestRecord record(Sent s, VirtualServer.Reply truth) {
            List<VirtualServer.Event> events = truth.events();
            long[] times = new long[events.size()];
            int[] tokens = new int[events.size()];
            long firstContent = RequestRecord.NONE;
            for (int i = 0; i < times.length; i++) {
                VirtualServer.Event e = events.get(i);
                times[i] = e.writtenNs();
                tokens[i] = e.tokens();
                if (!e.reasoning() && firstContent == RequestRecord.NONE) {
                    firstContent = e.writtenNs();
                }
            }
            long first = times.length == 0 ? RequestRecord.NONE : times[0];
            long last = times.length == 0 ? RequestRecord.NONE : times[times.length - 1];
            String error = null;
            if (truth.httpStatus() != 200) {
                error = "http_" + truth.httpStatus() + ": " + truth.error();
            } else if (truth.error() != null) {
                error = "stream_error: " + truth.error();
            }
            TokenSource eventSource = params.continuousUsageStats() ? TokenSource.CONTINUOUS_USAGE : TokenSource.TOKENIZER;
            return new RequestRecord(s.spec().index(), s.spec().warmup(), s.intendedNs(),
                    s.slotNs() == RequestRecord.NONE ? s.intendedNs() : s.slotNs(), first, firstContent, last,
                    last == RequestRecord.NONE ? truth.receivedNs() : last, truth.promptTokens(), truth.completionTokens(),
                    TokenSource.USAGE, times, tokens, eventSource, times.length == 0 ? 0 : 1, 0, truth.httpStatus(), error,
                    s.slotNs());
        }

        /**
         * Whether a stop condition holds at {@code nowNs}: the engine may have run past it, so only the failures that
         * had ended by then count, as they had reached the real client by then.
         */
        private boolean stopsAt(long nowNs) {
            // the failures that ended at or before nowNs: the sorted list's upper bound
            int low = 0;
            int high = failedAt.size();
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (failedAt.get(mid) <= nowNs) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            return stopping.stopsAt(nowNs, low, listener.stopReason(),
                    saturation == null ? java.util.Optional.empty() : saturation.verdict());
        }

        LoadResult.Stop stop() {
            return stopping.stop(planned, sent, failedAt.size());
        }
    }
}
