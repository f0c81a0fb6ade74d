package io.servebench.execution;

import io.servebench.engine.Engines;
import io.servebench.engine.RunningEngine;
import io.servebench.engine.ServerConfig;
import io.servebench.metrics.PrometheusSnapshot;
import io.servebench.metrics.ServerLoad;
import io.servebench.results.PrefixCacheReset;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Brings a running engine to the state every load on it starts from, so that its repetitions are independent: no
 * request of an earlier load left in it (one the client gave up on runs on in the engine until it ends), its prefix
 * cache emptied (retried when the engine refuses: SGLang answers 400 while it still runs requests, and is asked first,
 * before any wait, since its answer says whether it is idle), and after an
 * earlier load the settle pause. One per engine start; not thread-safe.
 */
final class CleanStart {

    /** How often a refused reset is tried in all. */
    static final int RESET_ATTEMPTS = 3;

    /** The longest wait for the engine to finish the requests it still holds. */
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);

    private static final Duration POLL = Duration.ofMillis(100);

    private final RunContext context;
    private final RunningEngine engine;
    private final ServerConfig server;
    private boolean noResetNoted;
    private int loads;

    CleanStart(RunContext context, RunningEngine engine, ServerConfig server) {
        this.context = context;
        this.engine = engine;
        this.server = server;
    }

    /**
     * Readies the engine for its next load: drained, cache emptied, settled after an earlier load.
     *
     * @param label the load's name, for the run's output
     * @return whether the cache was emptied, recorded with the load's result
     */
    PrefixCacheReset beforeLoad(String label) {
        PrefixCacheReset reset = emptyCache(label);
        if (loads++ > 0 && engine.virtual().isEmpty()) {
            // a virtual engine has no clock of this world to wait on
            sleep(context.params().settle());
        }
        return reset;
    }

    private PrefixCacheReset emptyCache(String label) {
        PrefixCacheReset reset = null;
        // an engine that flushes only when idle answers for itself at once: SGLang 0.5.9's gauges, refreshed every 30 s
        // while idle, may still show the last load's requests (scheduler_runtime_checker_mixin.py)
        boolean resetProvesIdle = Engines.simDialect(server.kind()).resetRefusedWhileBusy();
        for (int attempt = 1; attempt <= RESET_ATTEMPTS; attempt++) {
            Optional<String> busy = attempt == 1 && resetProvesIdle ? Optional.empty() : drain();
            reset = Engines.resetCache(server, context.engines(), engine);
            if (reset.outcome() == PrefixCacheReset.Outcome.NOT_OFFERED && !noResetNoted) {
                noResetNoted = true;
                context.out().printf("  note: %s; every load on this server may find earlier prompts cached%n",
                        reset.detail());
            }
            if (reset.outcome() != PrefixCacheReset.Outcome.FAILED) {
                return reset;
            }
            String why = reset.detail() + busy.map(b -> " (" + b + ")").orElse("");
            reset = PrefixCacheReset.failed(why + (attempt > 1 ? ", " + attempt + " attempts" : ""));
            if (attempt < RESET_ATTEMPTS) {
                sleep(Duration.ofSeconds(attempt));
            }
        }
        context.out().printf("  %s: prefix cache not emptied: %s%n", label, reset.detail());
        return reset;
    }

    /**
     * Waits until the engine holds no request, as its own gauges say ({@link ServerLoad}); a virtual engine has
     * ended every request when its load returns.
     *
     * @return why the engine may still be busy: it held requests at {@link #DRAIN_LIMIT}; empty when it is idle or
     * its gauges cannot tell
     */
    private Optional<String> drain() {
        if (engine.virtual().isPresent() || engine.endpoint().metricsUri() == null) {
            return Optional.empty();
        }
        long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
        while (true) {
            // every replica drained: what they hold together
            OptionalDouble held = OptionalDouble.of(0);
            for (io.servebench.engine.Endpoint endpoint : engine.endpoints()) {
                OptionalDouble one = context.scraper().scrape(endpoint.metricsUri()).snapshot().map(ServerLoad::held)
                        .orElse(OptionalDouble.empty());
                held = one.isEmpty() || held.isEmpty() ? OptionalDouble.empty()
                        : OptionalDouble.of(held.getAsDouble() + one.getAsDouble());
            }
            if (held.isEmpty() || held.getAsDouble() <= 0) {
                return Optional.empty();
            }
            if (System.nanoTime() > deadline) {
                return Optional.of(String.format("the engine still held %.0f requests after %d s", held.getAsDouble(),
                        DRAIN_LIMIT.toSeconds()));
            }
            sleep(POLL);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
