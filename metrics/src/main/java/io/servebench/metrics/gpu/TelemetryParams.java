package io.servebench.metrics.gpu;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * How a run samples its GPUs, resolved: the source to use ({@link GpuTelemetry#CHOICES}), how often, which GPUs, and
 * the price of a GPU hour for the cost per million tokens.
 *
 * @param source          {@code auto}, {@code nvml}, {@code nvidia-smi}, {@code dcgm} or {@code off}
 * @param interval        time between two samples of a GPU
 * @param gpus            the GPUs' indices; empty: every GPU the source sees
 * @param pricePerGpuHour what one GPU costs an hour, for {@code cost_per_million_output_tokens}; empty: no cost figure
 * @param url             a DCGM exporter's metrics page ({@code --gpu-telemetry-url}), the source when given; empty
 *                        when none
 */
public record TelemetryParams(String source, Duration interval, List<Integer> gpus, OptionalDouble pricePerGpuHour,
                              String url) {

    /** The shortest interval accepted: NVML's readings change no faster than its own ~10 ms updates. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(10);

    /** Every setting at its default: the best source, every 100 ms, every GPU, no price. */
    public static final TelemetryParams DEFAULTS = new TelemetryParams("auto", GpuTelemetry.DEFAULT_INTERVAL, List.of(),
            OptionalDouble.empty(), "");

    /** Params without a DCGM exporter's URL. */
    public TelemetryParams(String source, Duration interval, List<Integer> gpus, OptionalDouble pricePerGpuHour) {
        this(source, interval, gpus, pricePerGpuHour, "");
    }

    public TelemetryParams {
        Objects.requireNonNull(source, "source");
        source = source.strip().toLowerCase(Locale.ROOT);
        if (!GpuTelemetry.CHOICES.contains(source)) {
            throw new IllegalArgumentException("--gpu-telemetry " + source + ": expected one of "
                    + String.join(", ", GpuTelemetry.CHOICES));
        }
        url = url == null ? "" : url.strip();
        if (!url.isEmpty()) {
            if (source.equals("auto")) {
                source = "dcgm";
            } else if (!source.equals("dcgm")) {
                throw new IllegalArgumentException("--gpu-telemetry-url " + url + " reads a DCGM exporter, but "
                        + "--gpu-telemetry is " + source + "; expected --gpu-telemetry dcgm or auto with a URL");
            }
            java.net.URI uri;
            try {
                uri = new java.net.URI(url);
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException("--gpu-telemetry-url " + url + " is malformed (" + e.getReason()
                        + "); expected the exporter's page, e.g. http://gpu-host:9400/metrics");
            }
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new IllegalArgumentException("--gpu-telemetry-url " + url + " is not an http(s) URL with a host; "
                        + "expected the exporter's page, e.g. http://gpu-host:9400/metrics");
            }
        } else if (source.equals("dcgm")) {
            throw new IllegalArgumentException("--gpu-telemetry dcgm needs the exporter's page: expected "
                    + "--gpu-telemetry-url, e.g. --gpu-telemetry-url http://gpu-host:9400/metrics");
        }
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException("--gpu-interval " + interval.toMillis() + ": expected at least "
                    + MIN_INTERVAL.toMillis() + " ms, e.g. --gpu-interval 100");
        }
        gpus = List.copyOf(gpus);
        gpus.stream().filter(g -> g < 0).findFirst().ifPresent(g -> {
            throw new IllegalArgumentException("--gpus " + g + ": expected GPU indices >= 0, e.g. --gpus 0,1");
        });
        Objects.requireNonNull(pricePerGpuHour, "pricePerGpuHour");
        pricePerGpuHour.ifPresent(p -> {
            if (!(p > 0) || Double.isInfinite(p)) {
                throw new IllegalArgumentException("--gpu-cost " + p + ": expected a price per GPU hour > 0, e.g. "
                        + "--gpu-cost 2.49");
            }
        });
    }
}
