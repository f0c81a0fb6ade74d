package io.servebench.metrics.gpu;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The GPU telemetry of one machine: the best source it has (NVML, else {@code nvidia-smi}; a DCGM exporter when its
 * page is named), or none and why. A
 * {@link Recording} samples the chosen GPUs from its start until it is closed.
 */
public final class GpuTelemetry {

    /** The sampling interval unless one is given: NVML's power reading is itself averaged over about this long. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);

    /** The choices {@link #choose} takes. */
    public static final List<String> CHOICES = List.of("auto", "nvml", "nvidia-smi", "dcgm", "off");

    private final TelemetrySource source;
    private final String absence;
    private final String note;

    private GpuTelemetry(TelemetrySource source, String absence) {
        this(source, absence, null);
    }

    private GpuTelemetry(TelemetrySource source, String absence, String note) {
        this.source = source;
        this.absence = absence;
        this.note = note;
    }

    /**
     * The source {@code params} name: {@code auto} (NVML, else {@code nvidia-smi}, else none), {@code nvml},
     * {@code nvidia-smi}, {@code dcgm} (the exporter at its URL) or {@code off}.
     *
     * @throws IllegalArgumentException for a named source this machine does not have or that does not answer, saying
     *                                  what it has
     */
    public static GpuTelemetry choose(TelemetryParams params) {
        if (params.source().equals("dcgm")) {
            DcgmExporterSource dcgm = new DcgmExporterSource(java.net.URI.create(params.url()));
            dcgm.problem().ifPresent(problem -> {
                throw new IllegalArgumentException("--gpu-telemetry-url " + params.url() + ": " + problem
                        + "; expected a running dcgm-exporter's page, e.g. http://gpu-host:9400/metrics");
            });
            return new GpuTelemetry(dcgm, null, dcgm.note().orElse(null));
        }
        return choose(params.source());
    }

    /**
     * The local source named by {@code choice}: {@code auto} (NVML, else {@code nvidia-smi}, else none), {@code nvml},
     * {@code nvidia-smi} or {@code off}.
     *
     * @throws IllegalArgumentException for another choice, or a named source this machine does not have, saying what it has
     */
    static GpuTelemetry choose(String choice) {
        String c = choice == null ? "auto" : choice.strip().toLowerCase(Locale.ROOT);
        switch (c) {
            case "off":
                return new GpuTelemetry(null, "GPU telemetry is off (--gpu-telemetry off)");
            case "nvml":
                return NvmlSource.probe().map(s -> new GpuTelemetry(s, null)).orElseThrow(() -> new IllegalArgumentException(
                        "--gpu-telemetry nvml: the NVML library (libnvidia-ml.so.1) does not load or initialise here; "
                                + "expected an NVIDIA driver, or use auto"));
            case "nvidia-smi":
                GpuTelemetry smi = nvidiaSmi("nvidia-smi");
                if (smi.source == null) {
                    throw new IllegalArgumentException("--gpu-telemetry nvidia-smi: nvidia-smi does not run here; "
                            + "expected it on the PATH, or use auto");
                }
                return smi;
            case "auto":
                Optional<? extends TelemetrySource> found = NvmlSource.probe();
                if (found.isEmpty()) {
                    found = NvidiaSmiSource.probe("nvidia-smi");
                }
                return found.<GpuTelemetry>map(s -> new GpuTelemetry(s, null)).orElseGet(() -> new GpuTelemetry(null,
                        "no GPU telemetry: neither NVML nor nvidia-smi answers on this machine"));
            default:
                throw new IllegalArgumentException("--gpu-telemetry " + choice + ": expected one of " + String.join(", ",
                        CHOICES) + " (dcgm with --gpu-telemetry-url)");
        }
    }

    /** {@code nvidia-smi} at {@code executable}, or no telemetry when it does not answer there. */
    static GpuTelemetry nvidiaSmi(String executable) {
        return NvidiaSmiSource.probe(executable).map(s -> new GpuTelemetry(s, null))
                .orElseGet(() -> new GpuTelemetry(null, executable + " does not answer --help-query-gpu"));
    }

    /** No telemetry, for {@code why}. */
    public static GpuTelemetry none(String why) {
        return new GpuTelemetry(null, why);
    }

    /** The source's name, empty when there is none. */
    public Optional<String> source() {
        return Optional.ofNullable(source).map(TelemetrySource::name);
    }

    /** What the source cannot tell, said once (a DCGM exporter without clock-event reasons); empty when nothing. */
    public Optional<String> note() {
        return Optional.ofNullable(note);
    }

    /** Why there is no source; empty when there is one. */
    public Optional<String> absence() {
        return Optional.ofNullable(absence);
    }

    /**
     * Starts sampling {@code gpus} (every GPU the source sees when empty) every {@code interval}; empty without a
     * source.
     */
    public Optional<Recording> record(List<Integer> gpus, Duration interval) throws IOException {
        if (source == null) {
            return Optional.empty();
        }
        Recording r = new Recording(source.name());
        r.handle = source.start(gpus, interval, r::add);
        return Optional.of(r);
    }

    /** Samples taken from {@link #record} until {@link #close()}. Thread-safe. */
    public static final class Recording implements AutoCloseable {
        private final String source;
        private final List<GpuSample> samples = new ArrayList<>();
        private final java.util.Map<Integer, GpuSample> latest = new java.util.TreeMap<>();
        private AutoCloseable handle;

        private Recording(String source) {
            this.source = source;
        }

        private synchronized void add(GpuSample s) {
            samples.add(s);
            latest.put(s.gpu(), s);
        }

        /** Each GPU's latest sample, by index: what a progress line shows. */
        public synchronized List<GpuSample> latest() {
            return List.copyOf(latest.values());
        }

        /** The source's name. */
        public String source() {
            return source;
        }

        /** The samples so far, in the order they came. */
        public synchronized List<GpuSample> samples() {
            return List.copyOf(samples);
        }

        /** Stops sampling; the samples stay. */
        @Override
        public void close() {
            try {
                handle.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // the source's process or thread is gone either way; what it sampled stands
            }
        }
    }
}
