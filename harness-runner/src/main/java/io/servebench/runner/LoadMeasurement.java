package io.servebench.runner;

import io.servebench.engine.RunningEngine;
import io.servebench.http.HostLimits;
import io.servebench.load.ArrivalProfile;
import io.servebench.load.DeltaTokenCounter;
import io.servebench.load.LoadGenerator;
import io.servebench.load.LoadParams;
import io.servebench.load.LoadResult;
import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordWriter;
import io.servebench.load.VirtualLoad;
import io.servebench.metrics.MetricsAggregator;
import io.servebench.metrics.PrometheusScraper;
import io.servebench.metrics.PrometheusSnapshot;
import io.servebench.metrics.ServerMetricsDelta;
import io.servebench.metrics.SloSpec;
import io.servebench.plan.Trial;
import io.servebench.plan.WorkloadParams;
import io.servebench.results.PrefixCacheReset;
import io.servebench.results.RepetitionResult;
import io.servebench.workload.Datasets;
import io.servebench.workload.RequestSpec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Measures the loads of one trial on its running engine: each load starts clean ({@link CleanStart}), sends its
 * requests, writes their records, aggregates the measured ones with the trial's SLOs and adds what the engine's own
 * metrics counted meanwhile.
 */
final class LoadMeasurement {

    /** The note on every result measured in virtual time, so that no report passes it off as a real run. */
    static final String VIRTUAL_NOTE = "virtual time: the simulated engine's model run as a discrete-event simulation,"
            + " no sockets; every time is on the virtual clock and schedule lag is 0 by construction";

    private final RunContext context;
    private final RunningEngine engine;
    private final CleanStart cleanStart;
    private final Trial trial;
    private final SloSpec slo;
    private final AtomicBoolean scrapeNoted;

    /**
     * @param cleanStart  readies the engine before each load
     * @param slo         the SLOs of the trial's goodput
     * @param scrapeNoted whether the server's missing metrics were already noted (once per server)
     */
    LoadMeasurement(RunContext context, RunningEngine engine, CleanStart cleanStart, Trial trial, SloSpec slo,
                    AtomicBoolean scrapeNoted) {
        this.context = context;
        this.engine = engine;
        this.cleanStart = cleanStart;
        this.trial = trial;
        this.slo = slo;
        this.scrapeNoted = scrapeNoted;
    }

    Trial trial() {
        return trial;
    }

    /**
     * Runs one load and aggregates it; a stop condition that ended it early becomes a note on the metrics.
     *
     * @param w             the workload as sent
     * @param repetition    which repetition of the load it is: the dataset's draw and the request ids are its own
     * @param name          the requests file's name ({@code requests/<name>.jsonl.gz})
     * @param progressLabel what the progress line calls the load
     */
    RepetitionResult measure(WorkloadParams w, ArrivalProfile profile, Repetition repetition, String name,
                             String progressLabel) throws IOException {
        RunOptions options = context.options();
        LoadParams load = LoadSettings.of(trial.server().kind(), w, profile, options.client(), context.apiKey())
                .withRequestIdPrefix(repetition.requestIdPrefix());
        RunContext.Counted dataset = context.dataset(w.dataset(), engine, trial.server().kind());
        // each request's turn, by its index, as it is drawn: a multi-turn block also reports its metrics per turn
        Map<Long, Integer> turns = new ConcurrentHashMap<>();
        Iterator<RequestSpec> drawn = dataset.dataset().supply(repetition.seed());
        Iterator<RequestSpec> supply = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return drawn.hasNext();
            }

            @Override
            public RequestSpec next() {
                RequestSpec next = drawn.next();
                turns.put((long) next.index(), next.turn());
                return next;
            }
        };
        PrefixCacheReset cacheReset = cleanStart.beforeLoad(name);
        try (TrialProgress progress = TrialProgress.start(context.out(), progressLabel, w.warmup() + w.requests(),
                options.progress())) {
            Optional<PrometheusSnapshot> before = scrape();
            LoadResult result = engine.virtual().isPresent()
                    ? new VirtualLoad(engine.virtual().get(), engine.endpoint().model())
                            .run(supply, w.warmup(), w.requests(), load, progress)
                    : new LoadGenerator(Datasets.tokenizer(w.dataset()).map(DeltaTokenCounter::of)
                            .orElse(DeltaTokenCounter.ONE_PER_EVENT))
                            .run(engine.endpoint().target(), supply, w.warmup(), w.requests(), load, progress);
            Optional<PrometheusSnapshot> after = before.isPresent() ? scrape() : Optional.empty();
            RequestRecordWriter.writeTrial(options.outputDir(), name, result.records());
            List<RequestRecord> measured = result.records().stream().filter(r -> !r.warmup()).toList();
            RepetitionResult metrics = new MetricsAggregator().aggregate(measured, slo);
            if (before.isPresent() && after.isPresent()) {
                // warm-up requests are in the server's counters too: its figures cover the whole repetition
                metrics = metrics.withServerMetrics(ServerMetricsDelta.between(before.get(), after.get()));
            }
            metrics = result.stop().note().map(metrics::withNote).orElse(metrics)
                    .withNote("prompt tokens: the server's usage where it sent it; prompts counted by " + dataset.counter());
            if (engine.virtual().isPresent()) {
                metrics = metrics.withNote(VIRTUAL_NOTE);
            }
            metrics = metrics.withTurns(perTurn(measured, turns)).withCacheReset(cacheReset);
            metrics = result.connections().note(HostLimits.current()).map(metrics::withNote).orElse(metrics);
            progress.finish(metrics);
            return metrics;
        }
    }

    /** The measured requests' metrics per turn of their conversations, by the block's aggregation; empty for single turns. */
    private Map<String, RepetitionResult> perTurn(List<RequestRecord> measured, Map<Long, Integer> turns) {
        SortedMap<Integer, List<RequestRecord>> byTurn = new TreeMap<>();
        for (RequestRecord r : measured) {
            byTurn.computeIfAbsent(turns.getOrDefault(r.id(), 0), k -> new ArrayList<>()).add(r);
        }
        Map<String, RepetitionResult> results = new LinkedHashMap<>();
        if (byTurn.size() > 1) {
            byTurn.forEach((turn, records) -> results.put(Integer.toString(turn + 1),
                    new MetricsAggregator().aggregate(records, slo)));
        }
        return results;
    }

    /** A scrape of the engine's metrics; empty (with one note per server) when it offers none. */
    private Optional<PrometheusSnapshot> scrape() {
        if (engine.virtual().isPresent()) {
            return Optional.of(PrometheusSnapshot.parse(engine.virtual().get().metricsText()));
        }
        PrometheusScraper.Result result = context.scraper().scrape(engine.endpoint().metricsUri());
        if (result.snapshot().isEmpty() && scrapeNoted.compareAndSet(false, true)) {
            context.out().printf("  note: no server-side metrics: %s%n", result.problem());
        }
        return result.snapshot();
    }
}
