package io.servebench.execution;

import io.servebench.engine.ServerConfig;
import io.servebench.metrics.gpu.TelemetryParams;
import io.servebench.flags.Flag;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Which GPUs a trial's engine runs on, so that its telemetry counts those and no idle neighbour: {@code --gpus} when
 * given; else the {@code CUDA_VISIBLE_DEVICES} the engine starts with (its own environment's, else the harness's,
 * which it inherits); else the first tensor-parallel-size GPUs, which vLLM and SGLang take when nothing restricts
 * them; else (a command or container whose GPUs ServeBench cannot know) every GPU. An engine at a URL on another host
 * runs on none of this machine's GPUs: only a DCGM exporter's page ({@code --gpu-telemetry-url}) sees them.
 *
 * <p>Indices are the driver's (NVML's, {@code nvidia-smi}'s, DCGM's {@code gpu} label), which CUDA's numbering matches
 * when {@code CUDA_DEVICE_ORDER=PCI_BUS_ID} or the GPUs are all alike; pipeline- and data-parallel engines need
 * {@code --gpus}.
 *
 * @param indices the GPUs' indices; empty: every GPU the source sees
 * @param basis   how they were chosen, for the results' note
 */
record EngineGpus(List<Integer> indices, String basis) {

    static final String CUDA_VISIBLE_DEVICES = "CUDA_VISIBLE_DEVICES";

    EngineGpus {
        indices = List.copyOf(indices);
    }

    /**
     * The GPUs to sample for {@code server}, or why none of them can be: empty with {@code why} told the reason.
     *
     * @param harnessEnv the harness's environment, which a started engine inherits
     */
    static Optional<EngineGpus> of(ServerConfig server, TelemetryParams telemetry, Map<String, String> harnessEnv,
                                   java.util.function.Consumer<String> why) {
        if (!telemetry.gpus().isEmpty()) {
            return Optional.of(new EngineGpus(telemetry.gpus(), gpus(telemetry.gpus()) + " (--gpus)"));
        }
        String url = server.setup().url();
        if (!url.isEmpty() && !server.setup().urls().stream().allMatch(EngineGpus::loopback)) {
            if (!telemetry.url().isEmpty()) {
                return Optional.of(new EngineGpus(List.of(), "every GPU on the exporter's page"));
            }
            why.accept("the engine runs at " + url + ", whose GPUs are not this machine's; give --gpu-telemetry-url with "
                    + "a DCGM exporter on its host, e.g. --gpu-telemetry-url http://gpu-host:9400/metrics");
            return Optional.empty();
        }
        String visible = server.setup().env().stream().filter(e -> e.startsWith(CUDA_VISIBLE_DEVICES + "="))
                .map(e -> e.substring(CUDA_VISIBLE_DEVICES.length() + 1)).findFirst()
                .orElse(harnessEnv.get(CUDA_VISIBLE_DEVICES));
        if (visible != null) {
            return visible(visible.strip(), why);
        }
        if (server.kind().dialect().isPresent()) {
            String tpFlag = server.kind().dialect().get().flags().tensorParallelSize();
            int tp = server.flags().stream().filter(f -> f.name().equals(tpFlag)).map(Flag::value).findFirst()
                    .map(v -> {
                        try {
                            return Integer.parseInt(v.strip());
                        } catch (NumberFormatException e) {
                            return 1;
                        }
                    }).orElse(1);
            List<Integer> first = IntStream.range(0, Math.max(1, tp)).boxed().toList();
            return Optional.of(new EngineGpus(first, gpus(first) + (tp > 1 ? " (its tensor-parallel size)"
                    : " (the engine's first GPU without " + CUDA_VISIBLE_DEVICES + ")")));
        }
        return Optional.of(new EngineGpus(List.of(), "every GPU: which ones the engine's command uses is not known "
                + "(choose with --gpus or CUDA_VISIBLE_DEVICES)"));
    }

    private static Optional<EngineGpus> visible(String visible, java.util.function.Consumer<String> why) {
        if (visible.isEmpty() || visible.equals("-1")) {
            why.accept(CUDA_VISIBLE_DEVICES + "=\"" + visible + "\" hides every GPU from the engine");
            return Optional.empty();
        }
        List<Integer> indices = new ArrayList<>();
        for (String part : visible.split(",")) {
            try {
                indices.add(Integer.parseInt(part.strip()));
            } catch (NumberFormatException e) {
                // GPU-<uuid> or MIG-<uuid>: not an index the sources number by
                return Optional.of(new EngineGpus(List.of(), "every GPU: " + CUDA_VISIBLE_DEVICES + "=" + visible
                        + " names GPUs by UUID (choose indices with --gpus)"));
            }
        }
        return Optional.of(new EngineGpus(indices, gpus(indices) + " (" + CUDA_VISIBLE_DEVICES + ")"));
    }

    private static boolean loopback(String url) {
        try {
            String host = URI.create(url).getHost();
            return host == null || host.equals("localhost") || InetAddress.getByName(host).isLoopbackAddress();
        } catch (IllegalArgumentException | UnknownHostException e) {
            return false;
        }
    }

    private static String gpus(List<Integer> indices) {
        return (indices.size() == 1 ? "GPU " : "GPUs ") + indices.stream().map(String::valueOf)
                .collect(Collectors.joining(","));
    }
}
