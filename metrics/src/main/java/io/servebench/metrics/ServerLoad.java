package io.servebench.metrics;

import java.util.List;
import java.util.OptionalDouble;

/**
 * How many requests an engine holds, running or waiting, from its own gauges: vLLM's
 * {@code vllm:num_requests_running} and {@code vllm:num_requests_waiting} ({@code vllm/v1/metrics/loggers.py}), or
 * SGLang's {@code sglang:num_running_reqs} and {@code sglang:num_queue_reqs} ({@code SchedulerMetricsCollector} in
 * {@code python/sglang/srt/metrics/collector.py}). The simulated engine serves vLLM's names. Requests a client gave up
 * on (a timeout) go on running in the engine until they end; a load that starts before they have would share the
 * engine with them.
 */
public final class ServerLoad {

    /** Each engine's pair of gauges: running, waiting. */
    private static final List<List<String>> GAUGES = List.of(
            List.of("vllm:num_requests_running", "vllm:num_requests_waiting"),
            List.of("sglang:num_running_reqs", "sglang:num_queue_reqs"));

    private ServerLoad() {
    }

    /** The requests the engine runs or queues; empty when the scrape has neither engine's gauges. */
    public static OptionalDouble held(PrometheusSnapshot snapshot) {
        for (List<String> pair : GAUGES) {
            OptionalDouble running = snapshot.value(pair.get(0));
            OptionalDouble waiting = snapshot.value(pair.get(1));
            if (running.isPresent() || waiting.isPresent()) {
                return OptionalDouble.of(running.orElse(0) + waiting.orElse(0));
            }
        }
        return OptionalDouble.empty();
    }
}
