package io.servebench.metrics;

import io.servebench.load.RequestRecord;
import io.servebench.results.Distribution;
import io.servebench.results.Metric;
import io.servebench.results.RepetitionResult;

import java.time.Duration;
import java.util.ArrayList;
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
 *       total or throughput.</li>
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
 *   <li><b>Goodput</b> ({@link SloSpec}) counts the successful requests meeting every stated
 *       bound, per second of the measurement window; {@link Metric#SLO_ATTAINMENT} divides the same
 *       count by every measured request, failed ones included. Both are absent when no SLO is stated.</li>
 *   <li><b>Send rates</b> are {@code (n − 1)} over the span from the first to the last send ({@code s},
 *       or {@code a} for the scheduled rate) of the measured requests: evenly spaced requests at rate
 *       {@code r} give exactly {@code r}.</li>
 * </ul>
 */
public final class MetricsAggregator {

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
        return aggregate(measured, SloSpec.NONE);
    }

    /**
     * Aggregates one repetition, with goodput for the stated SLOs.
     *
     * @param measured the repetition's records (warm-up records are skipped)
     * @param slo      the SLOs of goodput; {@link SloSpec#NONE} leaves goodput absent
     * @return the metrics; those without samples are absent
     * @throws IllegalArgumentException when a successful record's timestamps are out of order, naming the request
     */
    public RepetitionResult aggregate(List<RequestRecord> measured, SloSpec slo) {
        List<RequestRecord> records = measured.stream().filter(r -> !r.warmup()).toList();
        Map<Metric, SampleAccumulator> samples = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            if (m.kind() == Metric.Kind.DISTRIBUTION) {
                samples.put(m, new SampleAccumulator());
            }
        }
        long succeeded = 0;
        long inputTokens = 0;
        long outputTokens = 0;
        long tokenEvents = 0;
        long coalesced = 0;
        long good = 0;
        int eventsPerReadMax = 0;
        Map<String, Long> sources = new TreeMap<>();
        Map<String, Long> errors = new TreeMap<>();
        for (RequestRecord r : records) {
            if (!r.succeeded()) {
                errors.merge(r.errorKind(), 1L, Long::sum);
                continue;
            }
            succeeded++;
            inputTokens += r.promptTokens();
            outputTokens += r.outputTokens();
            tokenEvents += r.eventTimesNs().length;
            coalesced += r.coalescedEvents();
            eventsPerReadMax = Math.max(eventsPerReadMax, r.eventsPerReadMax());
            if (r.outputTokensSource() != null) {
                sources.merge(r.outputTokensSource().name(), 1L, Long::sum);
            }
            double maxItlNs = addRequestSamples(r, samples);
            if (slo.stated() && meets(r, slo, maxItlNs)) {
                good++;
            }
        }

        Map<String, Double> scalars = new LinkedHashMap<>();
        scalars.put(Metric.SUCCESSFUL_REQUESTS.id(), (double) succeeded);
        scalars.put(Metric.FAILED_REQUESTS.id(), (double) (records.size() - succeeded));
        Window window = Window.of(records);
        if (window != null) {
            double seconds = window.lengthNs() / 1e9;
            scalars.put(Metric.DURATION.id(), seconds);
            scalars.put(Metric.TOTAL_INPUT_TOKENS.id(), (double) inputTokens);
            scalars.put(Metric.TOTAL_OUTPUT_TOKENS.id(), (double) outputTokens);
            if (seconds > 0) {
                scalars.put(Metric.REQUEST_THROUGHPUT.id(), succeeded / seconds);
                scalars.put(Metric.OUTPUT_THROUGHPUT.id(), outputTokens / seconds);
                scalars.put(Metric.TOTAL_THROUGHPUT.id(), (inputTokens + outputTokens) / seconds);
            }
            peakOutputThroughput(records, window).ifPresent(v -> scalars.put(Metric.PEAK_OUTPUT_THROUGHPUT.id(), v));
            concurrency(records, window, scalars);
            if (slo.stated() && seconds > 0) {
                scalars.put(Metric.GOODPUT.id(), good / seconds);
            }
        }
        if (slo.stated() && !records.isEmpty()) {
            scalars.put(Metric.SLO_ATTAINMENT.id(), 100.0 * good / records.size());
        }
        sendRate(records, RequestRecord::sentNs).ifPresent(v -> scalars.put(Metric.ACHIEVED_SEND_RATE.id(), v));
        sendRate(records, RequestRecord::intendedNs).ifPresent(v -> scalars.put(Metric.SCHEDULED_SEND_RATE.id(), v));
        if (succeeded > 0) {
            scalars.put(Metric.EVENTS_PER_READ_MAX.id(), (double) eventsPerReadMax);
        }
        Map<String, Distribution> distributions = new LinkedHashMap<>();
        samples.forEach((metric, acc) -> {
            Distribution d = acc.toDistribution(metric.unit());
            if (d != null) {
                distributions.put(metric.id(), d);
            }
        });
        return new RepetitionResult(scalars, distributions, tokenEvents, coalesced, sources, errors);
    }

    /** Whether a successful request meets every stated bound; {@code maxItlNs} is NaN when it had no ITL sample. */
    private static boolean meets(RequestRecord r, SloSpec slo, double maxItlNs) {
        OptionalDouble ttft = r.firstTokenNs() == RequestRecord.NONE ? OptionalDouble.empty()
                : OptionalDouble.of((r.firstTokenNs() - r.sentNs()) / 1e6);
        OptionalDouble e2e = r.endNs() == RequestRecord.NONE ? OptionalDouble.empty()
                : OptionalDouble.of((r.endNs() - r.sentNs()) / 1e6);
        OptionalDouble tpot = r.endNs() != RequestRecord.NONE && r.firstTokenNs() != RequestRecord.NONE && r.outputTokens() > 1
                ? OptionalDouble.of((r.endNs() - r.firstTokenNs()) / 1e6 / (r.outputTokens() - 1.0)) : OptionalDouble.empty();
        OptionalDouble itl = Double.isNaN(maxItlNs) ? OptionalDouble.empty() : OptionalDouble.of(maxItlNs / 1e6);
        return slo.met(ttft, tpot, itl, e2e);
    }

    /** {@code (n − 1) / (last − first)} per second over the measured requests' times, empty below 2 times or a zero span. */
    private static OptionalDouble sendRate(List<RequestRecord> records, java.util.function.ToLongFunction<RequestRecord> time) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long n = 0;
        for (RequestRecord r : records) {
            long t = time.applyAsLong(r);
            if (t != RequestRecord.NONE) {
                first = Math.min(first, t);
                last = Math.max(last, t);
                n++;
            }
        }
        return n < 2 || last <= first ? OptionalDouble.empty() : OptionalDouble.of((n - 1) / ((last - first) / 1e9));
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

    /** Adds the request's ITL and inter-chunk samples; returns its largest ITL sample in ns, NaN when none. */
    private static double addGaps(RequestRecord r, SampleAccumulator itl, SampleAccumulator interChunk) {
        long[] times = r.eventTimesNs();
        int[] tokens = r.eventTokens();
        int n = times.length;
        for (int k = 0; k < n; k++) {
            if (tokens[k] < 1) {
                throw new IllegalArgumentException("request " + r.id() + ": eventTokens[" + k + "] = " + tokens[k]
                        + "; expected >= 1 (an event without tokens is not a token event)");
            }
        }
        for (int k = 1; k < n; k++) {
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
    private static long ordered(RequestRecord r, String earlierName, long earlier, String laterName, long later) {
        if (earlier == RequestRecord.NONE || later < earlier) {
            throw new IllegalArgumentException("request " + r.id() + ": " + laterName + " (" + later + ") is before "
                    + earlierName + " (" + (earlier == RequestRecord.NONE ? "missing" : earlier)
                    + "); expected timestamps in the order intended, sent, first token, last token");
        }
        return later - earlier;
    }

    /**
     * The most output tokens whose events fall in a closed window {@code [t, t + W]} with
     * {@code start ≤ t} and {@code t + W ≤ end}, divided by {@code W}. A best window can always be slid
     * right until its left edge meets an event or its right edge meets {@code end}, so only those
     * left edges are tried.
     */
    private OptionalDouble peakOutputThroughput(List<RequestRecord> records, Window window) {
        if (window.lengthNs() < peakWindowNs) {
            return OptionalDouble.empty();
        }
        List<long[]> events = new ArrayList<>();
        for (RequestRecord r : records) {
            if (r.succeeded()) {
                for (int i = 0; i < r.eventTimesNs().length; i++) {
                    events.add(new long[] {r.eventTimesNs()[i], r.eventTokens()[i]});
                }
            }
        }
        events.sort((x, y) -> Long.compare(x[0], y[0]));
        int n = events.size();
        long[] times = new long[n];
        long[] cumulative = new long[n + 1];
        for (int i = 0; i < n; i++) {
            times[i] = events.get(i)[0];
            cumulative[i + 1] = cumulative[i] + events.get(i)[1];
        }
        long lastLeft = window.endNs() - peakWindowNs;
        long best = tokensIn(times, cumulative, lastLeft, window.endNs());
        for (int i = 0; i < n && times[i] <= lastLeft; i++) {
            if (times[i] >= window.startNs() && (i == 0 || times[i] != times[i - 1])) {
                best = Math.max(best, tokensIn(times, cumulative, times[i], times[i] + peakWindowNs));
            }
        }
        return OptionalDouble.of(best / (peakWindowNs / 1e9));
    }

    /** Tokens of the events with {@code from ≤ time ≤ to}. */
    private static long tokensIn(long[] times, long[] cumulative, long from, long to) {
        return cumulative[upperBound(times, to)] - cumulative[lowerBound(times, from)];
    }

    private static int lowerBound(long[] a, long key) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int upperBound(long[] a, long key) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Time-weighted mean and maximum of in-flight requests, a request being in flight over
     * {@code [sentNs, doneNs)}; a request ending when another starts does not overlap it.
     */
    private static void concurrency(List<RequestRecord> records, Window window, Map<String, Double> scalars) {
        List<long[]> changes = new ArrayList<>();
        for (RequestRecord r : records) {
            if (r.sentNs() != RequestRecord.NONE && r.doneNs() != RequestRecord.NONE && r.doneNs() >= r.sentNs()) {
                changes.add(new long[] {r.sentNs(), +1});
                changes.add(new long[] {r.doneNs(), -1});
            }
        }
        if (changes.isEmpty()) {
            return;
        }
        // at equal times ends (-1) sort before starts (+1): half-open intervals
        changes.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        long inFlight = 0;
        long max = 0;
        double area = 0;
        long previous = changes.get(0)[0];
        for (long[] c : changes) {
            area += (double) inFlight * (c[0] - previous);
            previous = c[0];
            inFlight += c[1];
            max = Math.max(max, inFlight);
        }
        scalars.put(Metric.MAX_CONCURRENCY.id(), (double) max);
        if (window.lengthNs() > 0) {
            scalars.put(Metric.MEAN_CONCURRENCY.id(), area / window.lengthNs());
        }
    }

    /** The measurement window {@code [first intended send, last completion]}, in ns. */
    private record Window(long startNs, long endNs) {

        long lengthNs() {
            return endNs - startNs;
        }

        /** The window of the records, or {@code null} when none has both a start and an end. */
        static Window of(List<RequestRecord> records) {
            long start = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            for (RequestRecord r : records) {
                long first = r.intendedNs() != RequestRecord.NONE ? r.intendedNs() : r.sentNs();
                if (first != RequestRecord.NONE) {
                    start = Math.min(start, first);
                }
                long last = r.doneNs() != RequestRecord.NONE ? r.doneNs() : r.endNs();
                if (last != RequestRecord.NONE) {
                    end = Math.max(end, last);
                }
            }
            return start == Long.MAX_VALUE || end == Long.MIN_VALUE || end < start ? null : new Window(start, end);
        }
    }
}
