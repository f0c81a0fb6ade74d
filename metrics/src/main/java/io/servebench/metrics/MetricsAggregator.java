package io.servebench.metrics;

import io.servebench.load.RequestRecord;
import io.servebench.load.TokenSource;
import io.servebench.measure.Metric;
import io.servebench.measure.SloParams;
import io.servebench.results.Distribution;
import io.servebench.results.RepetitionResult;

import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Turns one repetition's request records into its {@link RepetitionResult}, exactly as DESIGN.md
 * defines the metrics.
 *
 * <p>Choices DESIGN.md leaves open, made here:
 * <ul>
 *   <li>Failed requests count in {@link Metric#FAILED_REQUESTS}, in the error kinds, in the
 *       measurement window and in concurrency (they were in flight), but in no distribution, token
 *       total or throughput. Requests the client called off on purpose count in
 *       {@link Metric#CANCELLED_REQUESTS} only (and in the window and concurrency): neither successes nor failures,
 *       and not in the SLO attainment's denominator; their partial timings stay in the request records.</li>
 *   <li>Warm-up records are ignored, so the caller may pass a repetition's records unfiltered.</li>
 *   <li><b>ITL and coalesced events.</b> Token events parsed from one network read carry one
 *       timestamp. For ITL, consecutive events with the same timestamp are taken as one arrival that
 *       carries all their tokens: an arrival {@code g} after the previous distinct timestamp with
 *       {@code N} tokens in total gives {@code N} samples of {@code g / N}. Taking them literally
 *       (a {@code g = 0} gap for each later event of the read) would fill ITL with zeros whenever the
 *       client reads faster than the server writes, the reference study's "median ITL 0.00 ms". The
 *       ITL samples of a request therefore always sum to {@code e − f}.</li>
 *   <li><b>Inter-chunk latency</b> keeps one sample {@code g} per token event after the first, zero
 *       gaps included: it describes what the client saw, and events that arrived together really
 *       were separate chunks received at once ({@link RepetitionResult#coalescedEvents()} counts them). A
 *       single event carrying several tokens is one chunk and one sample.</li>
 *   <li>The first arrival's tokens (the first token event and any event read with it) have no gap
 *       before them (TTFT covers it), so they add no ITL sample.</li>
 *   <li><b>Goodput</b> ({@link SloParams}) counts the successful requests meeting every stated
 *       bound, per second of the measurement window; {@link Metric#SLO_ATTAINMENT} divides the same
 *       count by every measured request, failed ones included. Both are absent when no SLO is stated.</li>
 *   <li><b>Events counted as one token each</b> (no continuous usage, no tokenizer) whose requests' usage counted
 *       more than {@link #SEVERAL_TOKENS_PER_EVENT} times as many tokens carried several tokens each (speculative
 *       decoding, a stream interval): per-token ITL and the peak output throughput cannot be had from them, so both are
 *       left out, with a note, rather than reported per event as if per token; so are goodput and SLO attainment
 *       when an ITL bound is stated.</li>
 *   <li><b>Send rates</b> are {@code (n − 1)} over the span from the first to the last send ({@code s},
 *       or {@code a} for the scheduled rate) of the measured requests: evenly spaced requests at rate
 *       {@code r} give exactly {@code r}.</li>
 * </ul>
 */
public final class MetricsAggregator {

    /**
     * Output tokens per token event above which events counted as one token each are known to carry several: the
     * server's usage counted this many times more tokens than the events (with one more per request, for a last
     * token that comes in no event of its own, such as an end-of-sequence token).
     */
    public static final double SEVERAL_TOKENS_PER_EVENT = 1.10;

    /** Default sliding window of the peak output throughput. */
    public static final Duration DEFAULT_PEAK_WINDOW = Duration.ofSeconds(1);

    private final long peakWindowNs;

    /** An aggregator whose peak output throughput uses {@link #DEFAULT_PEAK_WINDOW}. */
    public MetricsAggregator() {
        this(DEFAULT_PEAK_WINDOW);
    }

    /** @param peakWindow the sliding window {@code W} of the peak output throughput, positive */
    public MetricsAggregator(Duration peakWindow) {
        if (peakWindow.isNegative() || peakWindow.isZero()) {
            throw new IllegalArgumentException("peak window must be positive, got " + peakWindow);
        }
        this.peakWindowNs = peakWindow.toNanos();
    }

    /**
     * Aggregates one repetition.
     *
     * @param measured the repetition's records (warm-up records are skipped)
     * @return the metrics; those without samples are absent
     * @throws IllegalArgumentException when a successful record's timestamps are out of order
     *                                  (e.g. a first token before the send), naming the request
     */
    public RepetitionResult aggregate(List<RequestRecord> measured) {
        return aggregate(measured, SloParams.NONE);
    }

    /**
     * Aggregates one repetition, with goodput for the stated SLOs: the records in the order given, every one known
     * before anything is taken (so in any order).
     *
     * @param measured the repetition's records (warm-up records are skipped)
     * @param slo      the SLOs of goodput; {@link SloParams#NONE} leaves goodput absent
     * @return the metrics; those without samples are absent
     * @throws IllegalArgumentException when a successful record's timestamps are out of order, naming the request
     */
    public RepetitionResult aggregate(List<RequestRecord> measured, SloParams slo) {
        Running running = start(slo, () -> Long.MIN_VALUE);
        measured.forEach(running::add);
        return running.finish();
    }

    /**
     * An aggregation that takes each record as its request completes and keeps what the statistics need: histograms,
     * sums and counters, and of the events and in-flight intervals only those that a request still in flight could
     * precede. Its memory does not grow with the run: up to {@value #BYTES_PER_PENDING_POINT} bytes per token event and
     * per request are kept only until no request in flight or yet to come can precede them.
     *
     * @param slo   the SLOs of goodput; {@link SloParams#NONE} leaves goodput absent
     * @param clock the time before which no request will be sent any more, on the records' clock: {@code
     *              System::nanoTime} in real time, the virtual engine's earliest arrival in virtual time
     */
    public Running start(SloParams slo, java.util.function.LongSupplier clock) {
        return new Running(slo, clock);
    }

    /**
     * The most a pending event or in-flight interval end costs until it is taken, bytes: a token event waiting for the
     * watermark is the 12 bytes of its record's arrays, one taken and still needed by an untried window 16, an interval
     * end 16.
     */
    public static final int BYTES_PER_PENDING_POINT = 16;

    /**
     * One repetition's aggregation in progress, fed as requests are sent and complete; thread-safe (the load
     * generator completes requests on its I/O threads).
     */
    public final class Running implements io.servebench.load.LoadListener {

        private final SloParams slo;
        private final java.util.function.LongSupplier clock;
        private final Map<Metric, SampleAccumulator> samples = new EnumMap<>(Metric.class);
        private final PeakThroughput peak = new PeakThroughput(peakWindowNs);
        private final ConcurrencySweep concurrency = new ConcurrencySweep();
        /** When each request in flight was sent, at the earliest (the clock when it was handed over), by id. */
        private final Map<Long, Long> inFlight = new java.util.HashMap<>();
        private final TreeMap<Long, Integer> inFlightSince = new TreeMap<>();
        private long watermarkNs = Long.MIN_VALUE;
        private long records;
        private long succeeded;
        /** Requests the client called off on purpose: neither succeeded nor failed. */
        private long cancelled;
        private long timedOut;
        private long inputTokens;
        private long outputTokens;
        private long tokenEvents;
        /** The requests whose events were counted as one token each while usage counted their output, and their events. */
        private long requestsCountedOne;
        private long eventsCountedOne;
        /** Those requests' output tokens as their usage counted them. */
        private long usageTokensOfThose;
        /** The requests whose events a client tokenizer counted while usage counted their output, and both counts. */
        private long requestsTokenized;
        private long tokenizerCounted;
        private long usageTokensOfTokenized;
        private long coalesced;
        private long good;
        private int eventsPerReadMax;
        private final Map<String, Long> sources = new TreeMap<>();
        private final Map<String, Long> errors = new TreeMap<>();
        /** The first failed request's error of each kind, for a reader to see what went wrong. */
        private final Map<String, String> errorExamples = new TreeMap<>();
        private long windowStartNs = Long.MAX_VALUE;
        private long windowEndNs = Long.MIN_VALUE;
        private final SendSpan sent = new SendSpan();
        private final SendSpan scheduled = new SendSpan();
        private boolean finished;

        private Running(SloParams slo, java.util.function.LongSupplier clock) {
            this.slo = slo;
            this.clock = clock;
            for (Metric m : Metric.values()) {
                if (m.kind() == Metric.Kind.DISTRIBUTION) {
                    samples.put(m, new SampleAccumulator());
                }
            }
        }

        /** The request {@code id} is being handed over: its events and its send are no earlier than now. */
        @Override
        public void onSend(long id) {
            onSend(id, clock.getAsLong());
        }

        /** The request {@code id} was handed over at {@code since}, on this aggregation's clock. */
        @Override
        public synchronized void onSend(long id, long since) {
            inFlight.put(id, since);
            inFlightSince.merge(since, 1, Integer::sum);
        }

        @Override
        public synchronized void onComplete(RequestRecord r) {
            landed(r.id());
            add(r);
            advance();
        }

        /**
         * The request {@code id}, announced by {@link #onSend}, is done but has no record to count here (a
         * truth aggregation's request whose truth is missing): it no longer holds the watermark back. Every
         * request sent must end in this or {@link #onComplete}, or the points after its send stay in memory.
         */
        public synchronized void withdraw(long id) {
            landed(id);
            advance();
        }

        /**
         * The event times and in-flight interval ends this aggregation holds now, each
         * {@value #BYTES_PER_PENDING_POINT} bytes: what a request in flight (or one sent and never completed nor
         * withdrawn) keeps in memory.
         */
        public synchronized long heldPoints() {
            return peak.heldPoints() + concurrency.heldPoints();
        }

        private void landed(long id) {
            Long since = inFlight.remove(id);
            if (since != null) {
                inFlightSince.merge(since, -1, (a, b) -> a + b == 0 ? null : a + b);
            }
        }

        private void advance() {
            long now = inFlightSince.isEmpty() ? clock.getAsLong() : Math.min(inFlightSince.firstKey(), clock.getAsLong());
            watermarkNs = Math.max(watermarkNs, now);
            peak.advance(watermarkNs, windowEndNs);
            concurrency.advance(watermarkNs);
        }

        private void add(RequestRecord r) {
            if (finished) {
                throw new IllegalStateException("request " + r.id() + " completed after its repetition was aggregated");
            }
            if (r.warmup()) {
                return;
            }
            records++;
            long first = r.intendedNs() != RequestRecord.NONE ? r.intendedNs() : r.sentNs();
            if (first != RequestRecord.NONE) {
                windowStartNs = Math.min(windowStartNs, first);
            }
            long last = r.doneNs() != RequestRecord.NONE ? r.doneNs() : r.endNs();
            if (last != RequestRecord.NONE) {
                windowEndNs = Math.max(windowEndNs, last);
            }
            sent.add(r.sentNs());
            scheduled.add(r.intendedNs());
            if (r.sentNs() != RequestRecord.NONE && r.doneNs() != RequestRecord.NONE && r.doneNs() >= r.sentNs()) {
                concurrency.add(r.sentNs(), r.doneNs());
            }
            if (r.cancelledByClient()) {
                cancelled++;
                return;
            }
            if (!r.succeeded()) {
                errors.merge(r.errorKind(), 1L, Long::sum);
                errorExamples.computeIfAbsent(r.errorKind(), k -> example(r.error()));
                if (r.timedOut()) {
                    timedOut++;
                }
                return;
            }
            succeeded++;
            inputTokens += r.promptTokens();
            outputTokens += r.outputTokens();
            tokenEvents += r.eventTimesNs().length;
            if (r.eventTokensSource() == TokenSource.EVENTS && r.outputTokensSource() == TokenSource.USAGE) {
                requestsCountedOne++;
                eventsCountedOne += r.eventTimesNs().length;
                usageTokensOfThose += r.outputTokens();
            } else if (r.eventTokensSource() == TokenSource.TOKENIZER && r.outputTokensSource() == TokenSource.USAGE) {
                requestsTokenized++;
                for (int n : r.eventTokens()) {
                    tokenizerCounted += n;
                }
                usageTokensOfTokenized += r.outputTokens();
            }
            coalesced += r.coalescedEvents();
            eventsPerReadMax = Math.max(eventsPerReadMax, r.eventsPerReadMax());
            if (r.outputTokensSource() != null) {
                sources.merge(r.outputTokensSource().name(), 1L, Long::sum);
            }
            double maxItlNs = addRequestSamples(r, samples);
            if (slo.stated() && meets(r, slo, maxItlNs)) {
                good++;
            }
            peak.add(r.eventTimesNs(), r.eventTokens());
        }

        /**
         * Whether the events counted as one token each carried several by the server's usage: ITL and the peak output
         * throughput would then be per event, not per token.
         */
        private boolean severalTokensPerEvent() {
            return usageTokensOfThose > SEVERAL_TOKENS_PER_EVENT * (eventsCountedOne + requestsCountedOne);
        }

        /**
         * Whether a client tokenizer's counts of the streamed text stray from the server's usage by more than
         * {@link #SEVERAL_TOKENS_PER_EVENT} either way (a request's last token that comes with no text aside): the
         * tokenizer is not the served model's.
         */
        private boolean tokenizerDisagrees() {
            return tokenizerCounted > 0 && (usageTokensOfTokenized > SEVERAL_TOKENS_PER_EVENT
                    * (tokenizerCounted + requestsTokenized) || SEVERAL_TOKENS_PER_EVENT * usageTokensOfTokenized
                    < tokenizerCounted);
        }

        private boolean itlBoundUnknown() {
            return slo.itlMs() != null && severalTokensPerEvent();
        }

        /**
         * The measurement window so far, {@code [first intended send of a measured request, last completion]} in ns on
         * the records' clock; empty before a measured request completed.
         */
        public synchronized java.util.Optional<long[]> window() {
            if (windowStartNs == Long.MAX_VALUE || windowEndNs == Long.MIN_VALUE || windowEndNs <= windowStartNs) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(new long[] {windowStartNs, windowEndNs});
        }

        /** The repetition's metrics, every record taken; those without samples are absent. */
        public synchronized RepetitionResult finish() {
            finished = true;
            Map<String, Double> scalars = new LinkedHashMap<>();
            scalars.put(Metric.SUCCESSFUL_REQUESTS.id(), (double) succeeded);
            scalars.put(Metric.FAILED_REQUESTS.id(), (double) (records - succeeded - cancelled));
            if (cancelled > 0) {
                scalars.put(Metric.CANCELLED_REQUESTS.id(), (double) cancelled);
            }
            if (timedOut > 0) {
                scalars.put(Metric.TIMED_OUT_REQUESTS.id(), (double) timedOut);
            }
            if (windowStartNs != Long.MAX_VALUE && windowEndNs != Long.MIN_VALUE && windowEndNs >= windowStartNs) {
                long lengthNs = windowEndNs - windowStartNs;
                double seconds = lengthNs / 1e9;
                scalars.put(Metric.DURATION.id(), seconds);
                scalars.put(Metric.TOTAL_INPUT_TOKENS.id(), (double) inputTokens);
                scalars.put(Metric.TOTAL_OUTPUT_TOKENS.id(), (double) outputTokens);
                if (seconds > 0) {
                    scalars.put(Metric.REQUEST_THROUGHPUT.id(), succeeded / seconds);
                    scalars.put(Metric.OUTPUT_THROUGHPUT.id(), outputTokens / seconds);
                    scalars.put(Metric.TOTAL_THROUGHPUT.id(), (inputTokens + outputTokens) / seconds);
                }
                if (!severalTokensPerEvent()) {
                    peak.finish(windowStartNs, windowEndNs).ifPresent(v -> scalars.put(Metric.PEAK_OUTPUT_THROUGHPUT.id(), v));
                }
                if (concurrency.any()) {
                    scalars.put(Metric.MAX_CONCURRENCY.id(), (double) concurrency.max());
                    if (lengthNs > 0) {
                        scalars.put(Metric.MEAN_CONCURRENCY.id(), (double) concurrency.busyNs() / lengthNs);
                    }
                }
                if (slo.stated() && seconds > 0 && !itlBoundUnknown()) {
                    scalars.put(Metric.GOODPUT.id(), good / seconds);
                }
            }
            if (slo.stated() && records - cancelled > 0 && !itlBoundUnknown()) {
                scalars.put(Metric.SLO_ATTAINMENT.id(), 100.0 * good / (records - cancelled));
            }
            sent.rate().ifPresent(v -> scalars.put(Metric.ACHIEVED_SEND_RATE.id(), v));
            scheduled.rate().ifPresent(v -> scalars.put(Metric.SCHEDULED_SEND_RATE.id(), v));
            if (succeeded > 0) {
                scalars.put(Metric.EVENTS_PER_READ_MAX.id(), (double) eventsPerReadMax);
            }
            Map<String, Distribution> distributions = new LinkedHashMap<>();
            samples.forEach((metric, acc) -> {
                Distribution d = acc.toDistribution(metric.unit());
                if (d != null && !(metric == Metric.ITL && severalTokensPerEvent())) {
                    distributions.put(metric.id(), d);
                }
            });
            RepetitionResult result = new RepetitionResult(scalars, distributions, tokenEvents, coalesced, sources, errors)
                    .withErrorExamples(errorExamples);
            if (severalTokensPerEvent()) {
                result = result.withNote(String.format(java.util.Locale.ROOT, "output tokens per token event: the"
                        + " server's usage counted %d output tokens in %d token events (%.2f each), but no count per"
                        + " event came with them (no continuous usage stats on its chunks) and no tokenizer= counted them, so"
                        + " each event could only be taken as one token: ITL and the peak output throughput, which need"
                        + " each event's tokens, are left out rather than given per event as if per token%s; TPOT and"
                        + " the throughputs are per token from the usage, inter-chunk latency per event. For them: -p"
                        + " continuousUsage=true where the server honours it (vLLM, SGLang), or the dataset's"
                        + " tokenizer=PATH of the model's tokenizer.json", usageTokensOfThose,
                        eventsCountedOne, (double) usageTokensOfThose / eventsCountedOne,
                        itlBoundUnknown() ? ", and so are the goodput and SLO attainment, whose ITL bound needs them"
                                : ""));
            }
            if (tokenizerDisagrees()) {
                result = result.withNote(String.format(java.util.Locale.ROOT, "output tokens per token event: the"
                        + " dataset's tokenizer= counted %d tokens in the streamed text where the server's usage counted"
                        + " %d (%+.0f%%): ITL and the peak output throughput divide by the tokenizer's counts, so they are"
                        + " off by about as much; expected the served model's own tokenizer.json, or -p"
                        + " continuousUsage=true where the server honours it (vLLM, SGLang)", tokenizerCounted,
                        usageTokensOfTokenized, 100.0 * (usageTokensOfTokenized - tokenizerCounted) / tokenizerCounted));
            }
            long late = peak.lateEvents() + concurrency.late();
            return late == 0 ? result : result.withNote(late + " token events or requests came in after later ones had"
                    + " been taken: the peak output throughput and the peak concurrency may have missed them");
        }
    }

    /** An error as a reader sees it: whole, unless it is longer than a report cell holds. */
    private static String example(String error) {
        return error.length() <= RepetitionResult.ERROR_EXAMPLE_CHARS ? error
                : error.substring(0, RepetitionResult.ERROR_EXAMPLE_CHARS - 1) + "…";
    }

    /** {@code (n − 1)} over the span from the first to the last of some times, per second. */
    private static final class SendSpan {
        private long first = Long.MAX_VALUE;
        private long last = Long.MIN_VALUE;
        private long n;

        void add(long t) {
            if (t != RequestRecord.NONE) {
                first = Math.min(first, t);
                last = Math.max(last, t);
                n++;
            }
        }

        /** Empty below 2 times or for a zero span. */
        OptionalDouble rate() {
            return n < 2 || last <= first ? OptionalDouble.empty() : OptionalDouble.of((n - 1) / ((last - first) / 1e9));
        }
    }

    /** Whether a successful request meets every stated bound; {@code maxItlNs} is NaN when it had no ITL sample. */
    private static boolean meets(RequestRecord r, SloParams slo, double maxItlNs) {
        OptionalDouble ttft = r.firstTokenNs() == RequestRecord.NONE ? OptionalDouble.empty()
                : OptionalDouble.of((r.firstTokenNs() - r.sentNs()) / 1e6);
        OptionalDouble e2e = r.endNs() == RequestRecord.NONE ? OptionalDouble.empty()
                : OptionalDouble.of((r.endNs() - r.sentNs()) / 1e6);
        OptionalDouble tpot = r.endNs() != RequestRecord.NONE && r.firstTokenNs() != RequestRecord.NONE && r.outputTokens() > 1
                ? OptionalDouble.of((r.endNs() - r.firstTokenNs()) / 1e6 / (r.outputTokens() - 1.0)) : OptionalDouble.empty();
        OptionalDouble itl = Double.isNaN(maxItlNs) ? OptionalDouble.empty() : OptionalDouble.of(maxItlNs / 1e6);
        return slo.met(ttft, tpot, itl, e2e);
    }

    /** Adds one successful request's samples; returns its largest ITL sample in ns, NaN when it had none. */
    private static double addRequestSamples(RequestRecord r, Map<Metric, SampleAccumulator> samples) {
        long a = r.intendedNs();
        long s = r.sentNs();
        long f = r.firstTokenNs();
        long e = r.endNs();
        if (s != RequestRecord.NONE && a != RequestRecord.NONE) {
            samples.get(Metric.SCHEDULE_LAG).add(ordered(r, "intendedNs", a, "sentNs", s));
        }
        if (r.slotNs() != RequestRecord.NONE) {
            samples.get(Metric.CLIENT_QUEUE_WAIT).add(ordered(r, "intendedNs", a, "slotNs", r.slotNs()));
        }
        if (f != RequestRecord.NONE) {
            samples.get(Metric.TTFT).add(ordered(r, "sentNs", s, "firstTokenNs", f));
            if (a != RequestRecord.NONE) {
                samples.get(Metric.TTFT_FROM_SCHEDULE).add(ordered(r, "intendedNs", a, "firstTokenNs", f));
            }
        }
        if (r.firstContentNs() != RequestRecord.NONE) {
            samples.get(Metric.TIME_TO_FIRST_CONTENT).add(ordered(r, "sentNs", s, "firstContentNs", r.firstContentNs()));
        }
        if (e != RequestRecord.NONE) {
            samples.get(Metric.E2E_LATENCY).add(ordered(r, "sentNs", s, "endNs", e));
            if (a != RequestRecord.NONE) {
                samples.get(Metric.E2E_FROM_SCHEDULE).add(ordered(r, "intendedNs", a, "endNs", e));
            }
            if (f != RequestRecord.NONE && r.outputTokens() > 1) {
                samples.get(Metric.TPOT).add(ordered(r, "firstTokenNs", f, "endNs", e) / (r.outputTokens() - 1.0));
            }
        }
        return addGaps(r, samples.get(Metric.ITL), samples.get(Metric.INTER_CHUNK_LATENCY));
    }

    /**
     * Adds the request's ITL and inter-chunk samples ({@code interChunk} may be {@code null} for none); returns its
     * largest ITL sample in ns, NaN when none.
     */
    static double addGaps(RequestRecord r, SampleAccumulator itl, SampleAccumulator interChunk) {
        long[] times = r.eventTimesNs();
        int[] tokens = r.eventTokens();
        int n = times.length;
        for (int k = 0; k < n; k++) {
            if (tokens[k] < 1) {
                throw new IllegalArgumentException("request " + r.id() + ": eventTokens[" + k + "] = " + tokens[k]
                        + "; expected >= 1 (an event without tokens is not a token event)");
            }
        }
        for (int k = 1; k < n && interChunk != null; k++) {
            // the names only when the order is wrong: building them for every gap cost 9% of a calibration
            long gap = times[k] - times[k - 1];
            interChunk.add(gap >= 0 && times[k - 1] != RequestRecord.NONE ? gap
                    : ordered(r, "eventTimesNs[" + (k - 1) + "]", times[k - 1], "eventTimesNs[" + k + "]", times[k]));
        }
        double maxItl = Double.NaN;
        int k = 1;
        // events read together with the first one belong to the first arrival, which TTFT covers
        while (k < n && times[k] == times[0]) {
            k++;
        }
        while (k < n) {
            long arrival = times[k];
            long gap = arrival - times[k - 1];
            long arrivalTokens = 0;
            while (k < n && times[k] == arrival) {
                arrivalTokens += tokens[k];
                k++;
            }
            itl.add((double) gap / arrivalTokens, arrivalTokens);
            maxItl = Double.isNaN(maxItl) ? (double) gap / arrivalTokens : Math.max(maxItl, (double) gap / arrivalTokens);
        }
        return maxItl;
    }

    /** {@code later − earlier} in ns, or an error naming the request when they are out of order. */
    static long ordered(RequestRecord r, String earlierName, long earlier, String laterName, long later) {
        if (earlier == RequestRecord.NONE || later < earlier) {
            throw new IllegalArgumentException("request " + r.id() + ": " + laterName + " (" + later + ") is before "
                    + earlierName + " (" + (earlier == RequestRecord.NONE ? "missing" : earlier)
                    + "); expected timestamps in the order intended, sent, first token, last token");
        }
        return later - earlier;
    }

}
