package io.servebench.metrics.gpu;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** Where GPU readings come from: NVML, {@code nvidia-smi}, a DCGM exporter. */
interface TelemetrySource {

    /** What reports call the source, e.g. {@code NVML 580.159} or {@code nvidia-smi}. */
    String name();

    /**
     * Starts sampling the GPUs of {@code gpus} (all the source sees when empty) every {@code interval} into
     * {@code sink} (called from the source's own thread) until the returned handle is closed.
     */
    AutoCloseable start(List<Integer> gpus, Duration interval, Consumer<GpuSample> sink) throws IOException;
}
