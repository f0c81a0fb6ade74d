package io.servebench.execution;

import io.servebench.engine.Endpoint;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.RunningEngine;
import io.servebench.engine.ServerConfig;
import io.servebench.results.PrefixCacheReset;
import io.servebench.wire.http.HttpServer;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** What the engine is asked before each load, and in what order, as each engine's source says it answers. */
class CleanStartTest {

    private static RunContext context() {
        ExecutionParams params = new ExecutionParams(java.nio.file.Path.of("unused"), new io.servebench.engine.EngineParams(
                io.servebench.engine.EngineParams.Simulate.OFF, 42, Duration.ofMinutes(20), Duration.ofSeconds(30),
                "docker", java.nio.file.Path.of("unused"), null, null, "h100", null), 1, 42, false, Duration.ofSeconds(1),
                Duration.ofSeconds(60), ClientOptions.DEFAULTS, io.servebench.measure.SloParams.NONE, false, false,
                io.servebench.metrics.gpu.TelemetryParams.DEFAULTS, ExecutionParams.DEFAULT_MAX_FAILED_SHARE);
        return new RunContext(params, new PrintWriter(new StringWriter(), true), List.of(), v -> null);
    }

    /**
     * SGLang 0.5.9 refreshes its gauges only every 30 s while idle ({@code scheduler_runtime_checker_mixin.py}, lines
     * 253-306: "During idle time, also collect metrics every 30 seconds"), so after a load {@code sglang:num_running_reqs}
     * may still show its requests; its {@code /flush_cache} answers 200 only when no request runs or waits
     * ({@code scheduler.py}, lines 2623-2648). The flush is asked first: a 200 is proof of idleness, and no drain waits
     * out the stale gauge (here one that never drops).
     */
    @Test
    void anSglangThatFlushesIsIdleWhateverItsStaleGaugesSay() throws Exception {
        AtomicInteger metricsReads = new AtomicInteger();
        try (HttpServer sglang = HttpServer.start("stale-gauges", 0, 1, (request, responder) -> {
            if (request.path().equals("/metrics")) {
                metricsReads.incrementAndGet();
                responder.send(200, "text/plain", "sglang:num_running_reqs{model_name=\"m\"} 3.0\n"
                        .getBytes(StandardCharsets.UTF_8));
            } else {
                responder.send(200, "text/plain", "Cache flushed.\n".getBytes(StandardCharsets.UTF_8));
            }
        })) {
            RunningEngine engine = RunningEngine.of(new Endpoint(sglang.baseUri(), "m", sglang.baseUri().resolve("/metrics")),
                    "", () -> { });
            long start = System.nanoTime();
            PrefixCacheReset reset = new CleanStart(context(), engine, new ServerConfig(EngineKinds.SGLANG, "m", List.of()))
                    .beforeLoad("t01");
            assertThat(reset).isEqualTo(PrefixCacheReset.emptied("POST /flush_cache"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(metricsReads).hasValue(0);
        }
    }

    /**
     * vLLM up to 0.17 answers an empty 200 whether or not it emptied the cache ("we currently do not check if the prefix
     * cache is successfully reset", {@code vllm/entrypoints/serve/cache/api_router.py} at 8a68046): it is drained on its
     * gauges first, and a reset refused with {@code {"success": false}} is tried again after draining.
     */
    @Test
    void vllmIsDrainedFirstAndARefusedResetIsTriedAgain() throws Exception {
        AtomicInteger resets = new AtomicInteger();
        AtomicInteger metricsReads = new AtomicInteger();
        try (HttpServer vllm = HttpServer.start("refusing-vllm", 0, 1, (request, responder) -> {
            if (request.path().equals("/metrics")) {
                metricsReads.incrementAndGet();
                responder.send(200, "text/plain", "vllm:num_requests_running{model_name=\"m\"} 0.0\n"
                        .getBytes(StandardCharsets.UTF_8));
            } else {
                boolean success = resets.incrementAndGet() > 1;
                responder.send(200, "application/json", ("{\"success\": " + success + "}").getBytes(StandardCharsets.UTF_8));
            }
        })) {
            RunningEngine engine = RunningEngine.of(new Endpoint(vllm.baseUri(), "m", vllm.baseUri().resolve("/metrics")),
                    "", () -> { });
            PrefixCacheReset reset = new CleanStart(context(), engine, new ServerConfig(EngineKinds.VLLM, "m", List.of()))
                    .beforeLoad("t01");
            assertThat(reset).isEqualTo(PrefixCacheReset.emptied("POST /reset_prefix_cache"));
            assertThat(resets).hasValue(2);
            assertThat(metricsReads.get()).isGreaterThanOrEqualTo(2);
        }
    }
}
