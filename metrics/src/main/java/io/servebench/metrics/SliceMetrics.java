package io.servebench.metrics;

import io.servebench.load.LoadListener;
import io.servebench.load.RequestRecord;
import io.servebench.measure.Metric;
import io.servebench.results.Distribution;
import io.servebench.results.RepetitionResult;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A long load's figures per time slice, so that drift, leaks and a server's slow degradation show: slice {@code k}
 * holds the measured requests that completed in {@code [origin + k·L, origin + (k + 1)·L)}, the origin being the
 * intended send of the first measured request to complete. Each slice has its requests, tokens and throughputs, and
 * its TTFT, ITL and E2E latency (mean, percentiles, extremes, without the histogram). A slice is closed, and its
 * histograms let go, once a request completes two slices later, so a run of any length keeps two slices' histograms
 * and a few numbers per closed slice. Thread-safe.
 */
public final class SliceMetrics implements LoadListener {

    private final long sliceNs;
    private final Consumer<Map.Entry<Integer, RepetitionResult>> closed;
    private final TreeMap<Integer, Slice> open = new TreeMap<>();
    private final Map<String, RepetitionResult> done = new LinkedHashMap<>();
    private long originNs = RequestRecord.NONE;
    private long late;

    /**
     * @param sliceNs the slices' length {@code L}, ns
     * @param closed  told about each slice as it closes: its number from 0 and its figures
     */
    public SliceMetrics(long sliceNs, Consumer<Map.Entry<Integer, RepetitionResult>> closed) {
        if (sliceNs <= 0) {
            throw new IllegalArgumentException("a slice must last a positive time, got " + sliceNs + " ns");
        }
        this.sliceNs = sliceNs;
        this.closed = closed;
    }

    @Override
    public synchronized void onComplete(RequestRecord r) {
        if (r.warmup() || r.doneNs() == RequestRecord.NONE) {
            return;
        }
        if (originNs == RequestRecord.NONE) {
            originNs = r.intendedNs() != RequestRecord.NONE ? r.intendedNs() : r.sentNs();
        }
        int k = (int) Math.max(0, Math.floorDiv(r.doneNs() - originNs, sliceNs));
        if (done.containsKey(key(k))) {
            late++;
            return;
        }
        open.computeIfAbsent(k, Slice::new).add(r);
        while (!open.isEmpty() && open.firstKey() <= k - 2) {
            close(open.pollFirstEntry().getValue(), false);
        }
    }

    /**
     * Every slice's figures, keyed by its start in seconds after the origin ({@code "0"}, {@code "60"}, ...), the
     * open ones closed; the last may be shorter than {@code L}.
     */
    public synchronized Map<String, RepetitionResult> finish() {
        while (!open.isEmpty()) {
            close(open.pollFirstEntry().getValue(), open.isEmpty());
        }
        return Map.copyOf(done);
    }

    /** Requests that completed in a slice already closed: left out of every slice. */
    public synchronized long late() {
        return late;
    }

    /** @param last whether it is the load's last slice, which ends with its last completion */
    private void close(Slice slice, boolean last) {
        RepetitionResult result = slice.result(last);
        done.put(key(slice.number), result);
        closed.accept(Map.entry(slice.number, result));
    }

    private String key(int number) {
        return Long.toString(Math.round(number * (sliceNs / 1e9)));
    }

    private final class Slice {
        final int number;
        private final SampleAccumulator ttft = new SampleAccumulator();
        private final SampleAccumulator itl = new SampleAccumulator();
        private final SampleAccumulator latency = new SampleAccumulator();
        private long succeeded;
        private long failed;
        private long inputTokens;
        private long outputTokens;
        private long lastDoneNs = Long.MIN_VALUE;

        Slice(int number) {
            this.number = number;
        }

        void add(RequestRecord r) {
            lastDoneNs = Math.max(lastDoneNs, r.doneNs());
            if (!r.succeeded()) {
                failed++;
                return;
            }
            succeeded++;
            inputTokens += r.promptTokens();
            outputTokens += r.outputTokens();
            if (r.firstTokenNs() != RequestRecord.NONE) {
                ttft.add(MetricsAggregator.ordered(r, "sentNs", r.sentNs(), "firstTokenNs", r.firstTokenNs()));
            }
            if (r.endNs() != RequestRecord.NONE) {
                latency.add(MetricsAggregator.ordered(r, "sentNs", r.sentNs(), "endNs", r.endNs()));
            }
            MetricsAggregator.addGaps(r, itl, null);
        }

        RepetitionResult result(boolean last) {
            long startNs = originNs + number * sliceNs;
            double seconds = (last ? Math.min(sliceNs, Math.max(1, lastDoneNs - startNs)) : sliceNs) / 1e9;
            Map<String, Double> scalars = new LinkedHashMap<>();
            scalars.put(Metric.SUCCESSFUL_REQUESTS.id(), (double) succeeded);
            scalars.put(Metric.FAILED_REQUESTS.id(), (double) failed);
            scalars.put(Metric.DURATION.id(), seconds);
            scalars.put(Metric.TOTAL_INPUT_TOKENS.id(), (double) inputTokens);
            scalars.put(Metric.TOTAL_OUTPUT_TOKENS.id(), (double) outputTokens);
            scalars.put(Metric.REQUEST_THROUGHPUT.id(), succeeded / seconds);
            scalars.put(Metric.OUTPUT_THROUGHPUT.id(), outputTokens / seconds);
            Map<String, Distribution> distributions = new LinkedHashMap<>();
            put(distributions, Metric.TTFT, ttft);
            put(distributions, Metric.ITL, itl);
            put(distributions, Metric.E2E_LATENCY, latency);
            return new RepetitionResult(scalars, distributions, 0, 0, Map.of(), Map.of());
        }

        private void put(Map<String, Distribution> into, Metric metric, SampleAccumulator samples) {
            Distribution d = samples.toDistribution(metric.unit(), false);
            if (d != null) {
                into.put(metric.id(), d);
            }
        }
    }
}
