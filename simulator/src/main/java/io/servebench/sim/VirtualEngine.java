package io.servebench.sim;

import io.servebench.workload.SimTokenizer;
import io.servebench.truth.SentEvent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The simulated engine in virtual time: the same request parsing, answer lengths, scheduler and step costs
 * as {@link SimulatedEngine}, run as a discrete-event simulation with no sockets and no sleeping. The
 * caller submits requests with their arrival times and advances the clock; every step the model takes
 * happens at once, so a 1000-request trial takes milliseconds of CPU whatever its modelled duration.
 *
 * <p>Times are nanoseconds on the virtual clock, which starts at 0. A response's token events are the SSE
 * events the real-time engine would write for the same arrivals (one per step per request, split where an
 * emission crosses from reasoning to content), each written exactly when due. For the same arrivals and seed
 * the two engines agree on every due time; the real-time one adds only its delivery lateness.
 *
 * <p>Not thread-safe: one caller drives it.
 */
public final class VirtualEngine {

    private final SimParams settings;
    private final long seed;
    private final SimTokenizer tokenizer = new SimTokenizer();
    private final SimMetrics metrics = new SimMetrics();
    private final BatchScheduler batch;
    private final PriorityQueue<Pending> arrivals = new PriorityQueue<>();
    private final Map<SimRequest, Stream> streams = new HashMap<>();
    private final List<GroundTruth> completed = new ArrayList<>();
    private long submitted;
    private long clockNs;
    /** Where the last step run started: no arrival can be placed before it. */
    private long lastStepNs = Long.MIN_VALUE;

    private VirtualEngine(SimParams settings, long seed) {
        this.settings = settings;
        this.seed = seed;
        this.batch = new BatchScheduler(settings, metrics, this::emit);
    }

    /** An engine that imitates {@code settings}, with every random choice drawn from {@code seed}. */
    public static VirtualEngine of(SimParams settings, long seed) {
        return new VirtualEngine(settings, seed);
    }

    /** The settings the engine runs with. */
    public SimParams params() {
        return settings;
    }

    /** What the simulated GPUs drew, on the virtual clock: the twin's GPU telemetry. */
    public PowerMeter power() {
        return batch.power();
    }

    /** The virtual clock: where the next step starts, ns. */
    public long clockNs() {
        return clockNs;
    }

    /**
     * Hands a request to the engine as if its body arrived at {@code arrivalNs} on the virtual clock; it
     * reaches the scheduler after the engine's front-end time ({@link EngineProfile#frontendNanos()}). That
     * may be earlier than {@link #clockNs()} (a step that began before it may end after it) but not earlier
     * than the start of a step already run: the past cannot change.
     *
     * @param requestId the {@code X-Request-Id}: it seeds the answer's length and words, as in real time
     * @param chat      whether it is a {@code /v1/chat/completions} body (else {@code /v1/completions})
     * @param body      the JSON body, checked as the real-time engine checks it
     * @throws IllegalArgumentException when the request would reach the scheduler before the last step's start
     */
    public void submit(String requestId, long arrivalNs, boolean chat, byte[] body) {
        long readyNs = arrivalNs + settings.engine().frontendNanos();
        if (readyNs < lastStepNs) {
            throw new IllegalArgumentException("request " + requestId + " arrives at " + arrivalNs
                    + " ns, too late for the step the virtual engine started at " + lastStepNs + " ns");
        }
        arrivals.add(new Pending(requestId, arrivalNs, readyNs, chat, body, submitted++));
    }

    /**
     * The earliest arrival {@link #submit} still takes: the start of the last step run less the front-end time. No
     * request submitted from now on arrives, or is answered, before it.
     */
    public long earliestArrivalNs() {
        return lastStepNs == Long.MIN_VALUE ? Long.MIN_VALUE : lastStepNs - settings.engine().frontendNanos();
    }

    /** Empties the prefix cache, as {@code /reset_prefix_cache} does. */
    public void resetPrefixCache() {
        batch.clearPrefixCache();
    }

    /**
     * Runs the steps that start before {@code untilNs} until at least one request has completed, and returns
     * those that did in the order they completed; empty when no step is left to start before {@code untilNs}
     * (then arrivals up to {@code untilNs} may still be submitted). A rejected request completes at its
     * arrival, with the status and message the real-time engine would send.
     */
    public List<GroundTruth> advance(long untilNs) {
        while (completed.isEmpty()) {
            if (batch.idle()) {
                if (arrivals.isEmpty() || arrivals.peek().readyNs >= untilNs) {
                    break;
                }
                clockNs = Math.max(clockNs, arrivals.peek().readyNs);
            }
            while (!arrivals.isEmpty() && arrivals.peek().readyNs <= clockNs) {
                admit(arrivals.poll());
            }
            if (!completed.isEmpty() || batch.idle()) {
                continue;
            }
            if (clockNs >= untilNs) {
                break;
            }
            metrics.held(batch);
            lastStepNs = clockNs;
            long next = batch.step(clockNs);
            metrics.held(batch);
            if (next == clockNs && completed.isEmpty()) {
                // nothing could run: the model waits for the next arrival
                if (arrivals.isEmpty()) {
                    throw new IllegalStateException("the virtual engine cannot schedule its " + batch.waitingCount()
                            + " waiting requests and none is coming");
                }
                next = arrivals.peek().readyNs;
            }
            clockNs = next;
        }
        List<GroundTruth> done = List.copyOf(completed);
        completed.clear();
        return done;
    }

    /** Runs every request submitted so far to its end and returns them in the order they completed. */
    public List<GroundTruth> runToEnd() {
        List<GroundTruth> all = new ArrayList<>();
        for (List<GroundTruth> done = advance(Long.MAX_VALUE); !done.isEmpty(); done = advance(Long.MAX_VALUE)) {
            all.addAll(done);
        }
        return all;
    }

    /** The engine's counters in vLLM's {@code /metrics} text, as the real-time engine serves them. */
    public String metricsText() {
        return metrics.render(settings.servedModel(), settings.dialect());
    }

    private void admit(Pending p) {
        ApiRequest request;
        try {
            request = ApiRequest.parse(p.body, p.chat, tokenizer, settings);
        } catch (ApiError e) {
            completed.add(new GroundTruth(p.id, p.arrivalNs, e.status, false, 0, 0, 0, 0, List.of(), e.getMessage()));
            return;
        }
        OutputPlan plan = OutputPlan.of(request, settings, seed, p.id);
        SimRequest work = new SimRequest(p.id, p.readyNs, request.promptTokens(), request.blockHashes(), plan.tokens(),
                Seeds.forRequest(seed, p.id, 3));
        work.adapter = request.adapter();
        work.maxNewTokens = plan.maxTokens();
        streams.put(work, new Stream(request, plan, p.arrivalNs));
        batch.add(work);
    }

    private void emit(SimRequest r, SimRequest.Emission emission) {
        Stream s = streams.get(r);
        if (emission.tokens() > 0 && s.events.isEmpty()) {
            metrics.observeTtft((emission.dueNs() - s.receivedNs) / 1e9);
        }
        int left = emission.tokens();
        while (left > 0) {
            // as the real-time stream: an emission that crosses from reasoning to content is two events
            boolean reasoning = s.plan.isReasoning(s.sent);
            int part = reasoning ? Math.min(left, s.plan.reasoningTokens() - s.sent) : left;
            left -= part;
            s.sent += part;
            s.events.add(new SentEvent(emission.dueNs(), part, reasoning, emission.dueNs()));
            metrics.observeLateness(0);
        }
        if (emission.last()) {
            streams.remove(r);
            int status = emission.failure() == null ? 200 : 500;
            completed.add(new GroundTruth(r.id, s.receivedNs, status, s.request.stream(), s.request.promptTokens(), s.sent,
                    r.cachedTokens, r.preemptions, s.events, emission.failure()));
        }
    }

    /** A request submitted, not yet handed to the scheduler; {@code readyNs} is when the front end hands it over. */
    private record Pending(String id, long arrivalNs, long readyNs, boolean chat, byte[] body, long order)
            implements Comparable<Pending> {
        @Override
        public int compareTo(Pending o) {
            int byTime = Long.compare(readyNs, o.readyNs);
            return byTime != 0 ? byTime : Long.compare(order, o.order);
        }
    }

    private static final class Stream {
        final ApiRequest request;
        final OutputPlan plan;
        final long receivedNs;
        final List<SentEvent> events = new ArrayList<>();
        int sent;

        Stream(ApiRequest request, OutputPlan plan, long receivedNs) {
            this.request = request;
            this.plan = plan;
            this.receivedNs = receivedNs;
        }
    }
}
