package io.servebench.results;

import io.servebench.measure.Metric;
import io.servebench.measure.Stat;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The metrics of one repetition of a trial. A metric that could not be computed (no samples, a
 * window too short) is absent from the maps: readers must show it as absent, never as zero.
 *
 * @param scalars            values of the {@link Metric.Kind#SCALAR} metrics, keyed by {@link Metric#id()}, in the metric's unit
 * @param distributions      the {@link Metric.Kind#DISTRIBUTION} metrics, keyed by {@link Metric#id()}
 * @param tokenEvents        token events received by the successful requests
 * @param coalescedEvents    token events that shared a network read with an earlier token event (a large share
 *                           means per-event timestamps are coarse)
 * @param outputTokenSources successful requests per source of their output token count ({@code TokenSource} names)
 * @param errorKinds         failed requests per error kind (the part of the error before the first colon)
 * @param serverMetrics      what the engine's {@code /metrics} said about the repetition, keyed by
 *                           {@link ServerMetric#id()}, in its unit; empty when the engine offers none
 * @param notes              what a reader must know about how this repetition ran, one sentence each (e.g. that
 *                           a stop condition ended it early); empty when nothing
 * @param turns              the same metrics over each turn's requests of multi-turn conversations, keyed by the turn's
 *                           number from 1 ({@code "1"}, {@code "2"}, ...); empty for single turns
 * @param cacheReset         whether the repetition started from an emptied prefix cache; {@code null} when not known
 *                           (results written before it was recorded, or read from elsewhere)
 * @param slices             a long repetition's figures per time slice, keyed by the slice's start in seconds after
 *                           the first measured request ({@code "0"}, {@code "60"}, ...), each without histograms; empty
 *                           for a repetition too short to slice
 * @param gpuTimeline        its GPUs' power and utilisation over the measurement window beside the request rate;
 *                           {@code null} without GPU figures
 * @param models             the same metrics over the requests of each model or LoRA adapter of a mixed workload,
 *                           keyed by its name, in the mix's order; empty for one model
 * @param endpoints          the same metrics over the requests sent to each replica of an engine at several URLs,
 *                           keyed by its base URL, in the engine's order; empty for one
 * @param errorExamples      the first failed request's error per error kind, whole up to
 *                           {@value #ERROR_EXAMPLE_CHARS} characters, in the order of {@code errorKinds}
 */
public record RepetitionResult(Map<String, Double> scalars, Map<String, Distribution> distributions, long tokenEvents,
                           long coalescedEvents, Map<String, Long> outputTokenSources, Map<String, Long> errorKinds,
                           Map<String, Double> serverMetrics, List<String> notes, Map<String, RepetitionResult> turns,
                           PrefixCacheReset cacheReset, Map<String, RepetitionResult> slices,
                           GpuTimeline gpuTimeline, Map<String, RepetitionResult> models,
                           Map<String, RepetitionResult> endpoints, Map<String, String> errorExamples) {

    /** The longest error example kept, in characters: enough for a server's error body to say what it refused. */
    public static final int ERROR_EXAMPLE_CHARS = 240;

    /** Metrics of single turns. */
    public RepetitionResult(Map<String, Double> scalars, Map<String, Distribution> distributions, long tokenEvents,
                        long coalescedEvents, Map<String, Long> outputTokenSources, Map<String, Long> errorKinds,
                        Map<String, Double> serverMetrics, List<String> notes) {
        this(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds, serverMetrics, notes,
                Map.of(), null, Map.of(), null, Map.of(), Map.of(), Map.of());
    }

    /** Metrics without server-side metrics or notes. */
    public RepetitionResult(Map<String, Double> scalars, Map<String, Distribution> distributions, long tokenEvents,
                        long coalescedEvents, Map<String, Long> outputTokenSources, Map<String, Long> errorKinds) {
        this(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds, Map.of(), List.of());
    }

    /** Metrics with server-side metrics and no notes. */
    public RepetitionResult(Map<String, Double> scalars, Map<String, Distribution> distributions, long tokenEvents,
                        long coalescedEvents, Map<String, Long> outputTokenSources, Map<String, Long> errorKinds,
                        Map<String, Double> serverMetrics) {
        this(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds, serverMetrics, List.of());
    }

    public RepetitionResult {
        scalars = ordered(scalars);
        distributions = ordered(distributions);
        outputTokenSources = ordered(outputTokenSources);
        errorKinds = ordered(errorKinds);
        serverMetrics = ordered(serverMetrics);
        for (String id : serverMetrics.keySet()) {
            if (!ServerMetric.isKey(id)) {
                throw new IllegalArgumentException("unknown server metric id \"" + id
                        + "\"; expected one of the ids of io.servebench.results.ServerMetric, or a quantile's bucket bound");
            }
        }
        // journals written before notes existed have none
        notes = notes == null ? List.of() : List.copyOf(notes);
        // results written before multi-turn conversations have no turns
        turns = byTurn(turns);
        // nor slices, before long runs were sliced
        slices = bySlice(slices);
        // nor models, before mixed workloads
        models = ordered(models);
        endpoints = ordered(endpoints);
        errorExamples = ordered(errorExamples);
        for (String id : scalars.keySet()) {
            requireKind(id, Metric.Kind.SCALAR);
        }
        for (String id : distributions.keySet()) {
            requireKind(id, Metric.Kind.DISTRIBUTION);
        }
    }

    /** These metrics with {@code note} added to {@link #notes()}. */
    public RepetitionResult withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes);
        more.add(note);
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, more, turns, cacheReset, slices, gpuTimeline, models, endpoints, errorExamples);
    }

    /** These metrics with {@code perTurn} as their {@link #turns()}. */
    public RepetitionResult withTurns(Map<String, RepetitionResult> perTurn) {
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, notes, perTurn, cacheReset, slices, gpuTimeline, models, endpoints, errorExamples);
    }

    /** These metrics with {@code reset} as their {@link #cacheReset()}. */
    public RepetitionResult withCacheReset(PrefixCacheReset reset) {
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, notes, turns, reset, slices, gpuTimeline, models, endpoints, errorExamples);
    }

    /** These metrics with {@code bySlice} as their {@link #slices()}. */
    public RepetitionResult withSlices(Map<String, RepetitionResult> bySlice) {
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, notes, turns, cacheReset, bySlice, gpuTimeline, models, endpoints, errorExamples);
    }

    /** These metrics with {@code byModel} as their {@link #models()}. */
    public RepetitionResult withModels(Map<String, RepetitionResult> byModel) {
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, notes, turns, cacheReset, slices, gpuTimeline, byModel, endpoints, errorExamples);
    }

    /** These metrics with {@code byEndpoint} as their {@link #endpoints()}. */
    public RepetitionResult withEndpoints(Map<String, RepetitionResult> byEndpoint) {
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, notes, turns, cacheReset, slices, gpuTimeline, models, byEndpoint, errorExamples);
    }

    /** These metrics with {@code examples} as their {@link #errorExamples()}. */
    public RepetitionResult withErrorExamples(Map<String, String> examples) {
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, notes, turns, cacheReset, slices, gpuTimeline, models, endpoints, examples);
    }

    /** These metrics with {@code timeline} as their {@link #gpuTimeline()}. */
    public RepetitionResult withGpuTimeline(GpuTimeline timeline) {
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, notes, turns, cacheReset, slices, timeline, models, endpoints, errorExamples);
    }

    /** These metrics with the scalar {@code metric} set to {@code value}. */
    public RepetitionResult withScalar(Metric metric, double value) {
        requireKind(metric.id(), Metric.Kind.SCALAR);
        Map<String, Double> more = new LinkedHashMap<>(scalars);
        more.put(metric.id(), value);
        return new RepetitionResult(more, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds,
                serverMetrics, notes, turns, cacheReset, slices, gpuTimeline, models, endpoints, errorExamples);
    }

    /** A scalar metric's value, empty when absent. */
    public OptionalDouble value(Metric metric) {
        Double v = scalars.get(metric.id());
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** A server-side metric's value, empty when the engine did not offer it. */
    public OptionalDouble value(ServerMetric metric) {
        Double v = serverMetrics.get(metric.id());
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** A RepetitionResult with these server-side metrics instead of its own. */
    public RepetitionResult withServerMetrics(Map<String, Double> server) {
        return new RepetitionResult(scalars, distributions, tokenEvents, coalescedEvents, outputTokenSources, errorKinds, server,
                notes, turns, cacheReset, slices, gpuTimeline, models, endpoints, errorExamples);
    }

    /** A distribution metric, empty when it had no samples. */
    public Optional<Distribution> distribution(Metric metric) {
        return Optional.ofNullable(distributions.get(metric.id()));
    }

    /**
     * One number of this repetition: a scalar metric's value, or one statistic of a distribution
     * metric ({@code stat} is ignored for scalars and may be {@code null} there). Empty when absent.
     */
    public OptionalDouble number(Metric metric, Stat stat) {
        if (metric.kind() == Metric.Kind.SCALAR) {
            return value(metric);
        }
        return distribution(metric).map(d -> OptionalDouble.of(d.get(stat))).orElse(OptionalDouble.empty());
    }

    private static void requireKind(String id, Metric.Kind kind) {
        Metric metric = Metric.byId(id).orElseThrow(() -> new IllegalArgumentException(
                "unknown metric id \"" + id + "\"; expected one of the ids of io.servebench.measure.Metric"));
        if (metric.kind() != kind) {
            throw new IllegalArgumentException("metric \"" + id + "\" is a " + metric.kind() + " metric, given as a " + kind);
        }
    }

    /** In turn order, the keys checked to be turn numbers. */
    private static Map<String, RepetitionResult> byTurn(Map<String, RepetitionResult> turns) {
        if (turns == null) {
            return Map.of();
        }
        java.util.SortedMap<Integer, RepetitionResult> sorted = new java.util.TreeMap<>();
        turns.forEach((turn, result) -> {
            if (!turn.matches("[1-9]\\d{0,8}")) {
                throw new IllegalArgumentException("turn \"" + turn + "\" is not a turn number from 1");
            }
            sorted.put(Integer.parseInt(turn), result);
        });
        Map<String, RepetitionResult> ordered = new LinkedHashMap<>();
        sorted.forEach((turn, result) -> ordered.put(Integer.toString(turn), result));
        return Collections.unmodifiableMap(ordered);
    }

    /** In time order, the keys checked to be whole seconds. */
    private static Map<String, RepetitionResult> bySlice(Map<String, RepetitionResult> slices) {
        if (slices == null) {
            return Map.of();
        }
        java.util.SortedMap<Long, RepetitionResult> sorted = new java.util.TreeMap<>();
        slices.forEach((start, result) -> {
            if (!start.matches("0|[1-9]\\d{0,12}")) {
                throw new IllegalArgumentException("slice \"" + start + "\" is not a start in whole seconds");
            }
            sorted.put(Long.parseLong(start), result);
        });
        Map<String, RepetitionResult> ordered = new LinkedHashMap<>();
        sorted.forEach((start, result) -> ordered.put(Long.toString(start), result));
        return Collections.unmodifiableMap(ordered);
    }

    private static <V> Map<String, V> ordered(Map<String, V> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
